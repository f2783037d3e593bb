#include "yaml_source.h"

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <sstream>
#include <unordered_set>

#include "breakerlab/data/values.h"
#include "utf8.h"
#include "yaml_prescan.h"

namespace breakerlab::data_detail {

namespace {
bool isTrusted(const Source& src, const YAML::Node& node) {
  if (src.trusted == nullptr) return true;
  return std::any_of(src.trusted->begin(), src.trusted->end(),
                     [&](const YAML::Node& t) { return t.is(node); });
}

Position fallback(const Source& src) {
  return {src.fallback_line, src.fallback_column};
}
}  // namespace

Position positionOf(const Source& src, const YAML::Node& node) {
  if (!node.IsDefined() || !isTrusted(src, node)) return fallback(src);
  if (node.IsNull()) {
    for (const auto& [value, key] : src.null_value_keys)
      if (value.is(node)) return positionOf(src, key);
  }
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0 || mark.column < 0) return fallback(src);
  return {mark.line + 1, mark.column + 1};
}

Position positionWithin(const Source& src, const YAML::Node& scalar, std::size_t offset) {
  const Position base = positionOf(src, scalar);
  if (base.line == 0 || !scalar.IsScalar() || src.trusted != nullptr) return base;
  const YAML::Mark mark = scalar.Mark();
  if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= src.text.size()) return base;
  std::size_t start = static_cast<std::size_t>(mark.pos);
  int quote = 0;
  if (src.text[start] == '"' || src.text[start] == '\'') {
    ++start;
    quote = 1;
  }
  const std::string& value = scalar.Scalar();
  offset = std::min(offset, value.size());
  if (value.find('\n') < offset || src.text.size() - start < offset) return base;
  if (src.text.substr(start, offset) != std::string_view(value).substr(0, offset)) return base;
  return {base.line, base.column + quote + static_cast<int>(offset)};
}

void failAt(const Source& src, Position pos, const std::string& message) {
  throw LoadError(src.file, pos.line, pos.column, src.message_prefix + message);
}

void fail(const Source& src, const YAML::Node& at, const std::string& message) {
  failAt(src, positionOf(src, at), message);
}

void failExpected(const Source& src, const YAML::Node& at, std::string_view path,
                  std::string_view expected) {
  std::string message;
  if (!path.empty()) message.append(path).append(": ");
  message.append("expected ").append(expected).append(", got ").append(describe(at));
  fail(src, at, message);
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kMax = 60;
  const std::string clipped = clipText(text, kMax);
  std::string out = "\"";
  for (char c : clipped) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined()) return "nothing";
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing (null)";
    case YAML::NodeType::Scalar:
      return data_detail::quoted(node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Undefined:
      return "nothing";
  }
  return "nothing";
}

std::string joinPath(std::string_view parent, std::string_view key) {
  // Paths start most messages; a key from the file is quoted as any text is.
  if (parent.empty()) return clipText(key);
  std::string out(parent);
  out += '.';
  out += clipText(key);
  return out;
}

std::string indexPath(std::string_view parent, std::size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

std::string joinNames(const std::vector<std::string_view>& names, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += sep;
    out += names[i];
  }
  return out;
}

namespace {
// Records where the next document starts; ignores everything else.
class DocumentStart : public YAML::EventHandler {
 public:
  YAML::Mark mark = YAML::Mark::null_mark();
  void OnDocumentStart(const YAML::Mark& m) override { mark = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

[[noreturn]] void yamlError(const std::string& file_name, const YAML::Exception& e) {
  const YAML::Mark m = e.mark;
  const bool known = !m.is_null() && m.line >= 0 && m.column >= 0;
  throw LoadError(file_name, known ? m.line + 1 : 0, known ? m.column + 1 : 0,
                  "YAML syntax error: " + e.msg);
}
}  // namespace

std::size_t requireBoundedExpansion(const YAML::Node& node, const std::string& file_name,
                                    bool aliases, std::size_t values_before) {
  // Depth-first with an explicit stack: neither the expansion nor, through aliases, the depth
  // is bounded by the text (each line `kN: &aN [*aN-1]` adds a level the prescan never sees,
  // and the readers after this walk recurse).
  std::vector<std::pair<YAML::Node, int>> stack{{node, 0}};
  std::size_t values = values_before;
  const auto failAt = [&](const YAML::Node& n, const std::string& message) {
    const YAML::Mark m = n.Mark();
    const bool known = !m.is_null() && m.line >= 0 && m.column >= 0;
    throw YamlLimitError(file_name, known ? m.line + 1 : 0, known ? m.column + 1 : 0, message);
  };
  while (!stack.empty()) {
    const auto [n, depth] = stack.back();
    stack.pop_back();
    // The prescan counts keys and scalars but not the maps that hold them (nor empty values),
    // so a document without aliases can get here too.
    if (++values > kMaxYamlValues)
      failAt(n, aliases
                    ? "aliases expand to more than " + std::to_string(kMaxYamlValues) + " values"
                    : "more than " + std::to_string(kMaxYamlValues) +
                          " values (keys, scalars, maps and lists) in one document");
    if (!n.IsMap() && !n.IsSequence()) continue;
    if (depth >= kMaxYamlNesting)
      failAt(n, "aliases nest maps and lists deeper than " + std::to_string(kMaxYamlNesting) +
                    " levels");
    if (n.IsMap()) {
      for (auto it = n.begin(); it != n.end(); ++it) {
        stack.push_back({it->first, depth + 1});
        stack.push_back({it->second, depth + 1});
      }
    } else {
      for (auto it = n.begin(); it != n.end(); ++it) stack.push_back({*it, depth + 1});
    }
  }
  return values;
}

YAML::Node parseYaml(std::string_view text, const std::string& file_name) {
  // Before yaml-cpp: it takes any bytes, nests without bound and runs an unclosed quote to the
  // end of the file, and its messages then point elsewhere.
  requireUtf8(text, file_name);
  // yaml-cpp takes a lone CR for no line break: a whole file in CR-only line ends reads as one
  // comment or one scalar ("the file is empty").
  if (crOnlyLineEnds(text.substr(0, std::min<std::size_t>(text.size(), 65536))))
    throw LoadError(file_name, 1, 1, crOnlyMessage());
  const YamlPrescan scan = prescanYaml(text, file_name);
  // Not YAML::LoadAll: on some garbage it produces empty documents without end (yaml-cpp 0.7).
  YAML::Node document;
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    DocumentStart first;
    if (!parser.HandleNextDocument(first))
      throw LoadError(file_name, 0, 0,
                      text.find_first_not_of(" \t\r\n") == std::string_view::npos
                          ? "the file is empty"
                          : "the file holds no YAML value (only comments or directives)");
    DocumentStart second;
    if (parser.HandleNextDocument(second)) {
      const bool known = !second.mark.is_null() && second.mark.line >= 0;
      throw LoadError(file_name, known ? second.mark.line + 1 : 0,
                      known ? second.mark.column + 1 : 0,
                      "expected one YAML document, found more than one");
    }
    document = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    yamlError(file_name, e);
  }
  requireBoundedExpansion(document, file_name, scan.aliases);
  return document;
}

std::vector<MapReader::Entry> mapEntries(const Source& src, const YAML::Node& node,
                                         std::string_view path) {
  if (!node.IsMap()) failExpected(src, node, path.empty() ? "document" : path, "a map");
  std::vector<MapReader::Entry> entries;
  entries.reserve(node.size());
  // A set, not a look through the entries so far: a map of 100,000 keys (a .properties file's
  // instance) would take 5 * 10^9 comparisons.
  std::unordered_set<std::string_view> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar())
      fail(src, key,
           std::string(path.empty() ? "" : std::string(path) + ": ") +
               "keys must be plain names, got " + describe(key));
    // The key's text lives in its node, which the entry keeps.
    if (!seen.insert(key.Scalar()).second)
      fail(src, key,
           (path.empty() ? std::string() : std::string(path) + ": ") + "key '" +
               clipText(key.Scalar()) + "' appears twice");
    if (it->second.IsNull()) src.null_value_keys.emplace_back(it->second, key);
    entries.push_back({key.Scalar(), key, it->second});
  }
  return entries;
}

void requireList(const Source& src, const YAML::Node& node, std::string_view path) {
  if (!node.IsSequence()) failExpected(src, node, path, "a list");
}

MapReader::MapReader(const Source& src, const YAML::Node& node, std::string path,
                     std::vector<std::string_view> allowed)
    : src_(src), node_(node), path_(std::move(path)) {
  entries_ = mapEntries(src, node, path_);
  for (const auto& e : entries_) {
    if (std::find(allowed.begin(), allowed.end(), e.key) != allowed.end()) continue;
    std::string message = "unknown key '" + clipText(e.key) + "'";
    message += path_.empty() ? " at the top level" : " under " + path_;
    message += ", expected one of " + joinNames(allowed);
    fail(src, e.key_node, message);
  }
}

const YAML::Node* MapReader::find(std::string_view key) const {
  for (const auto& e : entries_)
    if (e.key == key) return &e.value;
  return nullptr;
}

const YAML::Node* MapReader::keyNode(std::string_view key) const {
  for (const auto& e : entries_)
    if (e.key == key) return &e.key_node;
  return nullptr;
}

const YAML::Node& MapReader::require(std::string_view key) const {
  if (const YAML::Node* v = find(key)) return *v;
  std::string message = path_.empty() ? std::string() : path_ + ": ";
  message += "missing required key '" + std::string(key) + "'";
  fail(src_, node_, message);
}

std::string readString(const Source& src, const YAML::Node& node, std::string_view path) {
  if (!node.IsScalar()) failExpected(src, node, path, "a string");
  return node.Scalar();
}

bool readBool(const Source& src, const YAML::Node& node, std::string_view path) {
  if (node.IsScalar()) {
    if (node.Scalar() == "true") return true;
    if (node.Scalar() == "false") return false;
  }
  failExpected(src, node, path, "true or false");
}

namespace {
std::optional<std::uint64_t> parseUnsigned(const YAML::Node& node) {
  if (!node.IsScalar()) return std::nullopt;
  const std::string& s = node.Scalar();
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}
}  // namespace

std::uint32_t readUint32(const Source& src, const YAML::Node& node, std::string_view path,
                         std::uint32_t min) {
  const auto value = parseUnsigned(node);
  if (!value || *value < min || *value > std::numeric_limits<std::uint32_t>::max()) {
    failExpected(src, node, path,
                 "a whole number from " + std::to_string(min) + " to " +
                     std::to_string(std::numeric_limits<std::uint32_t>::max()));
  }
  return static_cast<std::uint32_t>(*value);
}

std::uint64_t readUint64(const Source& src, const YAML::Node& node, std::string_view path) {
  const auto value = parseUnsigned(node);
  if (!value) failExpected(src, node, path, "a whole number from 0 to 18446744073709551615");
  return *value;
}

double readNumber(const Source& src, const YAML::Node& node, std::string_view path, double min,
                  double max) {
  std::optional<double> value;
  if (node.IsScalar()) value = parseNumber(node.Scalar());
  if (!value || *value < min || *value > max) {
    std::string expected = "a number";
    if (max == std::numeric_limits<double>::max()) {
      if (min != std::numeric_limits<double>::lowest())
        expected += " of at least " + formatNumber(min);
    } else {
      expected += " from " + formatNumber(min) + " to " + formatNumber(max);
    }
    failExpected(src, node, path, expected);
  }
  return *value;
}

Micros readDuration(const Source& src, const YAML::Node& node, std::string_view path) {
  std::string expected = "a duration with a unit (us, ms, s, m) such as 800ms or 1.5s";
  if (node.IsScalar()) {
    if (auto d = parseDuration(node.Scalar(), &expected)) return *d;
  }
  failExpected(src, node, path, expected);
}

Micros readTimePoint(const Source& src, const YAML::Node& node, std::string_view path) {
  std::string expected = "a time in seconds (11, 0.5) or with a unit (11s, 800ms)";
  if (src.clock_start) expected += ", a clock time (10:26) or a UTC timestamp";
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    if (src.clock_start && text.find(':') != std::string::npos) {
      if (auto t = parseClockTime(text, *src.clock_start, &expected)) {
        if (*t > kMaxDuration || *t < -kMaxDuration)
          failExpected(src, node, path, "a time within 10^9 s of the incident's start");
        return *t;
      }
    } else if (auto t = parseTimePoint(text, &expected)) {
      return *t;
    }
  }
  failExpected(src, node, path, expected);
}

double readPercent(const Source& src, const YAML::Node& node, std::string_view path) {
  std::string expected = "a percentage such as 50%";
  if (node.IsScalar()) {
    if (auto p = parsePercent(node.Scalar(), &expected)) return *p;
  }
  failExpected(src, node, path, expected);
}

}  // namespace breakerlab::data_detail
