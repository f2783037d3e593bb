// Request logs in JSON Lines: one object a line, read with nlohmann's SAX parser (no DOM per
// line). Keys of nested objects are joined with dots; arrays are skipped.
#include <charconv>

#include <nlohmann/json.hpp>

#include "request_log_parsers.h"

namespace breakerlab::data_detail {

namespace {
constexpr std::size_t kMaxDepth = 32;
constexpr std::size_t kMaxCachedNames = 4096;
}  // namespace

struct JsonlRowParser::Handler {
  using json = nlohmann::json;
  RequestLogMapping mapping;
  RowCollector* rows = nullptr;
  // Per key path: the field it holds, or -1. Bounded: names past the bound are classified
  // every time.
  std::unordered_map<std::string, int, StringHash, std::equal_to<>> fields;
  std::string path;                    // the current object's path, "a.b."
  std::vector<std::size_t> path_ends;  // path lengths per depth
  std::string key;
  std::size_t array_depth = 0;
  std::string arena;  // the line's values, back to back
  struct Value {
    std::size_t offset, size;
    std::string name;  // the last key, to find its column
    bool set = false;
  } values[kRequestLogFieldCount];
  std::size_t error_position = 0;
  std::string error_message;
  bool parse_failed = false;  // a syntax error (not a limit or an array)

  void reset() {
    path.clear();
    path_ends.clear();
    array_depth = 0;
    arena.clear();
    for (auto& v : values) v.set = false;
  }

  int classify(std::string_view full) {
    if (auto it = fields.find(full); it != fields.end()) return it->second;
    int field = -1;
    bool mapped = false;
    for (int f = 0; f < kRequestLogFieldCount; ++f) {
      if (!mapping.names[f].empty() && mapping.names[f] == full) {
        field = f;
        mapped = true;
      }
    }
    if (!mapped) {
      std::string unit;
      if (auto f = fieldForName(full, &unit); f && mapping.names[static_cast<int>(*f)].empty())
        field = static_cast<int>(*f);
    }
    if (field >= 0 && rows->columns[field].empty()) {
      rows->columns[field] = std::string(full);
      if (field == static_cast<int>(RequestLogField::timestamp))
        rows->timestamp_unit = unitSuffix(full);
      if (field == static_cast<int>(RequestLogField::duration)) {
        std::string unit;
        if (fieldForName(full, &unit) && !unit.empty())
          rows->duration_unit = unit;
        else if (!unitSuffix(full).empty())
          rows->duration_unit = unitSuffix(full);
      }
    }
    if (fields.size() < kMaxCachedNames) fields.emplace(std::string(full), field);
    return field;
  }

  bool value(std::string_view text) {
    if (array_depth > 0 || path_ends.empty()) return true;
    const std::size_t base = path.size();
    path += key;
    const int f = classify(path);
    path.resize(base);
    if (f >= 0 && values[f].set && values[f].name == key) {
      // {"ts": 1, "ts": 2}: a JSON reader keeps one of the two silently; which was meant is not
      // for the log's reader to guess.
      error_message = "the key \"" + clipText(key) + "\" appears twice in the object";
      error_position = 0;
      return false;
    }
    if (f >= 0 && !values[f].set) {
      values[f] = {arena.size(), text.size(), key, true};
      arena.append(text);
    }
    return true;
  }

  // The SAX interface.
  bool null() { return true; }
  bool boolean(bool b) { return value(b ? "true" : "false"); }
  bool number_integer(json::number_integer_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return value(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
  }
  bool number_unsigned(json::number_unsigned_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return value(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
  }
  // The text as written: a timestamp in seconds has more digits than a double keeps.
  bool number_float(json::number_float_t, const json::string_t& text) { return value(text); }
  bool string(json::string_t& s) { return value(s); }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) {
    if (array_depth > 0) {
      ++array_depth;
      return true;
    }
    if (path_ends.size() >= kMaxDepth) {
      error_message = "objects nested deeper than " + std::to_string(kMaxDepth);
      return false;
    }
    if (!path_ends.empty()) path += key + ".";
    path_ends.push_back(path.size());
    return true;
  }
  bool end_object() {
    if (array_depth > 0) {
      --array_depth;
      return true;
    }
    path_ends.pop_back();
    if (!path_ends.empty()) path.resize(path_ends.back());
    return true;
  }
  bool key_(json::string_t& k) {
    key = k;
    return true;
  }
  bool start_array(std::size_t) {
    if (path_ends.empty()) {
      error_message = "expected an object on each line, got an array";
      return false;
    }
    if (array_depth >= kMaxDepth) {
      error_message = "arrays nested deeper than " + std::to_string(kMaxDepth);
      return false;
    }
    ++array_depth;
    return true;
  }
  bool end_array() {
    --array_depth;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    error_position = position;
    parse_failed = true;
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while
    // parsing value - invalid literal; last read: '{x'": keep what follows the position.
    const std::size_t colon = what.find(": ");
    error_message = colon == std::string::npos ? what : what.substr(colon + 2);
    return false;
  }
};

namespace {
// nlohmann calls key(), which is a keyword-free name in the SAX concept; adapt the member.
struct SaxAdapter {
  JsonlRowParser::Handler& h;
  using json = nlohmann::json;
  bool null() { return h.null(); }
  bool boolean(bool b) { return h.boolean(b); }
  bool number_integer(json::number_integer_t v) { return h.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return h.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return h.number_float(v, s);
  }
  bool string(json::string_t& s) { return h.string(s); }
  bool binary(json::binary_t& b) { return h.binary(b); }
  bool start_object(std::size_t n) { return h.start_object(n); }
  bool end_object() { return h.end_object(); }
  bool key(json::string_t& k) { return h.key_(k); }
  bool start_array(std::size_t n) { return h.start_array(n); }
  bool end_array() { return h.end_array(); }
  bool parse_error(std::size_t p, const std::string& t, const nlohmann::detail::exception& e) {
    return h.parse_error(p, t, e);
  }
};
}  // namespace

JsonlRowParser::JsonlRowParser(std::string file, const RequestLogMapping& mapping,
                               RowCollector& rows)
    : file_(std::move(file)), handler_(std::make_unique<Handler>()) {
  handler_->mapping = mapping;
  handler_->rows = &rows;
}

JsonlRowParser::~JsonlRowParser() = default;

bool JsonlRowParser::parseLine(std::string_view line, int number, RowFields& out) {
  std::size_t b = 0;
  while (b < line.size() && (line[b] == ' ' || line[b] == '\t' || line[b] == '\r')) ++b;
  if (b == line.size()) return false;
  if (line[b] != '{')
    throw LoadError(
        file_, number, static_cast<int>(b) + 1,
        "expected a JSON object on each line, got \"" + clipText(line.substr(b), 40) + "\"");
  Handler& h = *handler_;
  h.reset();
  h.error_message.clear();
  h.parse_failed = false;
  SaxAdapter sax{h};
  const bool ok = nlohmann::json::sax_parse(line.begin(), line.end(), &sax,
                                            nlohmann::json::input_format_t::json, true);
  if (!ok) {
    // nlohmann's position counts the characters read, the offending one included: the 1-based
    // column of it, or one past the line's end when the line ended too early.
    const int column = static_cast<int>(std::min(h.error_position, line.size() + 1));
    throw LoadError(file_, number, std::max(column, 1),
                    h.error_message.empty() ? "not a JSON object"
                    : h.parse_failed        ? "JSON parse error: " + clipText(h.error_message)
                                            : clipText(h.error_message));
  }
  out.clear();
  out.line = line;
  for (int f = 0; f < kRequestLogFieldCount; ++f) {
    const Handler::Value& v = h.values[f];
    if (!v.set) continue;
    out.present[f] = true;
    out.value[f] = std::string_view(h.arena).substr(v.offset, v.size);
    out.key[f] = v.name;
    out.column[f] = 0;  // found from the key only for an error (RowFields::columnOf)
  }
  return true;
}

}  // namespace breakerlab::data_detail
