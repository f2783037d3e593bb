// The look at a JSON document before it is parsed: nesting and value counts, at the position of
// the bracket or value that goes past the limit; strings and escapes never count.
#include "json_document.h"

#include <gtest/gtest.h>

#include <string>

#include "breakerlab/data/load_error.h"

namespace breakerlab::data_detail {
namespace {

std::string nested(int levels, char open = '[', char close = ']') {
  return std::string(static_cast<std::size_t>(levels), open) +
         std::string(static_cast<std::size_t>(levels), close);
}

struct Refusal {
  int line = 0, column = 0;
  std::string message;
};
Refusal refusal(const std::string& text, int first_line = 1, std::size_t max_members = SIZE_MAX) {
  try {
    prescanJson(text, "f.json", first_line, max_members);
  } catch (const LoadError& e) {
    return {e.line(), e.column(), e.message()};
  }
  return {0, 0, "(accepted)"};
}

TEST(JsonDocument, NestingUpToTheLimitIsAcceptedAndOneMoreIsNot) {
  EXPECT_NO_THROW(prescanJson(nested(kMaxJsonNesting), "f.json"));
  EXPECT_NO_THROW(prescanJson(nested(kMaxJsonNesting, '{', '}'), "f.json"));
  const Refusal r = refusal(nested(kMaxJsonNesting + 1));
  EXPECT_EQ(r.message, "maps and lists are nested deeper than 64 levels");
  EXPECT_EQ(r.line, 1);
  EXPECT_EQ(r.column, kMaxJsonNesting + 1) << "at the bracket that goes deeper";
  // Siblings do not add up: depth is nesting, not count.
  std::string siblings = "[";
  for (int i = 0; i < 1000; ++i) siblings += nested(kMaxJsonNesting - 1) + ",";
  siblings += "0]";
  EXPECT_NO_THROW(prescanJson(siblings, "f.json"));
}

TEST(JsonDocument, TheRefusalIsWhereTheBracketIs) {
  // Mixed objects and lists, over lines, after a string full of brackets.
  std::string text = "{\"a\": \"[[[[{{{{\\\"]]]\",\n  \"b\":";
  for (int i = 0; i < 70; ++i) text += i % 2 ? "[" : "{\"k\":";
  const Refusal r = refusal(text);
  EXPECT_EQ(r.line, 2);
  // "  \"b\":" then the 63 brackets after the outer object: the 64th opener past it.
  EXPECT_EQ(r.message, "maps and lists are nested deeper than 64 levels");
  EXPECT_GT(r.column, 6);
  // A line of a JSON Lines file: the file's line number.
  EXPECT_EQ(refusal(nested(100), 41).line, 41);
}

TEST(JsonDocument, BracketsInStringsAndEscapesDoNotCount) {
  const std::string deep_string = "[\"" + nested(500) + "\\\"" + nested(500) + "\"]";
  EXPECT_NO_THROW(prescanJson(deep_string, "f.json"));
  // An escaped backslash ends before the quote: the quote closes the string.
  EXPECT_EQ(refusal("[\"\\\\\"" + nested(70) + "]").message,
            "maps and lists are nested deeper than 64 levels");
}

TEST(JsonDocument, ValuesAreCountedBeforeTheParse) {
  std::string many = "[";
  many.reserve(2 * kMaxJsonValues + 2);
  for (std::size_t i = 0; i < kMaxJsonValues; ++i) many += "0,";
  many += "0]";
  const Refusal r = refusal(many);
  EXPECT_EQ(r.message,
            "more than 10000000 values (numbers, strings, lists and objects) in one document");
  EXPECT_EQ(r.line, 1);
}

TEST(JsonDocument, AnObjectsKeysCanBeBounded) {
  // 1,000 keys, each holding a list of three: the lists' commas are not the object's.
  std::string object = "{";
  for (int i = 0; i < 1000; ++i) object += "\"k" + std::to_string(i) + "\": [1, 2, 3],";
  object.back() = '}';
  EXPECT_EQ(refusal(object, 1, 1000).message, "(accepted)");
  const std::string more = object.substr(0, object.size() - 1) + ", \"one more\": {}}";
  EXPECT_EQ(refusal(more, 1, 1000).message, "an object with more than 1000 keys");
  EXPECT_EQ(refusal(more).message, "(accepted)") << "no bound unless asked";
  // Nested objects count their own keys.
  EXPECT_EQ(refusal("{\"a\": " + object + ", \"b\": " + object + "}", 1, 1000).message,
            "(accepted)");
}

TEST(JsonDocument, ParseErrorsHaveTheirPosition) {
  try {
    parseJson("{\n  \"a\": [1, 2,,]\n}", "f.json");
    FAIL() << "parsed";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 14);  // the second comma
    EXPECT_EQ(e.message().rfind("JSON: syntax error", 0), 0u) << e.message();
  }
  try {
    parseJson("[1e999]", "f.json");
    FAIL() << "parsed";
  } catch (const LoadError& e) {
    EXPECT_NE(e.message().find("number overflow"), std::string::npos) << e.message();
  }
  EXPECT_EQ(parseJson("{\"a\": [1, {\"b\": null}]}", "f.json")["a"][1].size(), 1u);
}

}  // namespace
}  // namespace breakerlab::data_detail
