#include "json_document.h"

#include <algorithm>

#include "breakerlab/data/load_error.h"
#include "utf8.h"

namespace breakerlab::data_detail {

namespace {

[[noreturn]] void failAt(std::string_view text, std::size_t offset, const std::string& file,
                         int first_line, const std::string& message) {
  const TextPosition at = textPositionAt(text, offset);
  throw LoadError(file, at.line + first_line - 1, at.column, message);
}

}  // namespace

void prescanJson(std::string_view text, const std::string& file, int first_line,
                 std::size_t max_members) {
  int depth = 0;
  // Per open container (at most kMaxJsonNesting + 1): an object's members so far, or SIZE_MAX
  // for a list.
  std::size_t members[kMaxJsonNesting + 2] = {};
  // Values are counted where they can start: an opening bracket, and after a comma (a list's
  // next value or an object's next member), plus the document itself. An upper bound that
  // needs no parse.
  std::size_t values = 1;
  const auto countValue = [&](std::size_t at) {
    if (++values > kMaxJsonValues)
      failAt(text, at, file, first_line,
             "more than " + std::to_string(kMaxJsonValues) +
                 " values (numbers, strings, lists and objects) in one document");
  };
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character, whatever it is
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > kMaxJsonNesting)
          failAt(text, i, file, first_line,
                 "maps and lists are nested deeper than " + std::to_string(kMaxJsonNesting) +
                     " levels");
        members[depth] = c == '{' ? 1 : SIZE_MAX;
        countValue(i);
        break;
      case ',':
        if (depth > 0 && members[depth] != SIZE_MAX && ++members[depth] > max_members)
          failAt(text, i, file, first_line,
                 "an object with more than " + std::to_string(max_members) + " keys");
        countValue(i);
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
}

nlohmann::json parseJson(std::string_view text, const std::string& file, int first_line) {
  prescanJson(text, file, first_line);
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts the byte after the one it stopped at (1-based); 0 when it has none.
    const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    if (const std::size_t colon = what.find(": ", what.find("column")); colon != std::string::npos)
      what = what.substr(colon + 2);
    failAt(text, std::min(at, text.size()), file, first_line, "JSON: " + clipText(what, 120));
  } catch (const nlohmann::json::exception& e) {
    // "number overflow parsing '1e999'": nlohmann gives no position.
    std::string what = e.what();
    if (const std::size_t end = what.find("] "); end != std::string::npos) what.erase(0, end + 2);
    throw LoadError(file, first_line == 1 ? 0 : first_line, 0, "JSON: " + clipText(what, 120));
  }
}

nlohmann::json parseStoredJson(std::string_view text) {
  try {
    prescanJson(text, "");
  } catch (const LoadError&) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  return nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
}

}  // namespace breakerlab::data_detail
