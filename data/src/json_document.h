#pragma once
// Internal: every JSON document a user gives BreakerLab (OTLP traces, Prometheus responses,
// partial results, a workspace's stored JSON) is parsed here, after a look at its shape.
// nlohmann::json parses deep nesting without trouble but copies, compares, dumps and destroys
// it by recursion, one stack frame per level: 15,000 nested objects overflow the stack long
// after the parse. The look refuses such a document before it is parsed.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace breakerlab::data_detail {

// Lists and objects inside one another. The same bound as YAML's (kMaxYamlNesting); the
// deepest real document BreakerLab reads (an OTLP span with a list attribute) uses nine.
inline constexpr int kMaxJsonNesting = 64;

// Values in one document: nlohmann holds at least 16 bytes for each, and an object's member
// about 100. A document of kMaxDocumentBytes (64 MB) written densely would otherwise take over
// a gigabyte; a real one of that size has a few million.
inline constexpr std::size_t kMaxJsonValues = 10'000'000;

// Throws LoadError(file, line, column, ...) at the list or object that goes deeper than
// kMaxJsonNesting ("maps and lists are nested deeper than 64 levels") or at the value past
// kMaxJsonValues. A lexical scan, linear in the text; what is not JSON is left to the parser.
// `first_line` is the line number of the text's first line (one line of a JSON Lines file).
// `max_members`: the most keys one object may have, for a reader that parses into
// nlohmann::ordered_json (its objects look up keys in a list: n keys cost n^2).
void prescanJson(std::string_view text, const std::string& file, int first_line = 1,
                 std::size_t max_members = SIZE_MAX);

// prescanJson, then the parse. A syntax error is LoadError(file, line, column, "JSON: <what
// nlohmann says>"), a number out of range LoadError(file, line, 0, "JSON: ...").
nlohmann::json parseJson(std::string_view text, const std::string& file, int first_line = 1);

// For JSON BreakerLab stored itself (a workspace's columns), which a damaged or hostile file may
// still have replaced: the document, or a discarded value (is_discarded()) when it is not JSON
// or is past the limits above. Never throws.
nlohmann::json parseStoredJson(std::string_view text);

}  // namespace breakerlab::data_detail
