#pragma once
// Internal: reading YAML nodes with file/line/column errors. Every reader of the data library
// goes through these helpers, so every error has the same shape.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab::data_detail {

// Where nodes come from, for error positions.
struct Source {
  explicit Source(std::string file_name, std::string_view source_text = {})
      : file(std::move(file_name)), text(source_text) {}

  std::string file;       // the name errors carry
  std::string_view text;  // the text that was parsed (for columns inside scalars); may be empty
  int fallback_line = 0;  // 1-based position used when a node has no trustworthy mark
  int fallback_column = 0;
  // When set, only these nodes (and nodes sharing their identity) have trustworthy marks; all
  // others (e.g. built by toYamlNode) use the fallback position.
  const std::vector<YAML::Node>* trusted = nullptr;
  std::string message_prefix;  // put in front of every message, e.g. "what-if 'x': "
  // The incident's `start:` (UTC, microseconds since the epoch): time points may then be
  // clock times ("10:26").
  std::optional<Micros> clock_start;
  // Empty values ("key:" with nothing after it) are reported at their key: yaml-cpp marks them
  // at the next token. Filled in by mapEntries.
  mutable std::vector<std::pair<YAML::Node, YAML::Node>> null_value_keys;
};

struct Position {
  int line = 0;  // 1-based, 0 = unknown
  int column = 0;
};

Position positionOf(const Source& src, const YAML::Node& node);
// The position `offset` bytes into a scalar's text, when it can be located in the source text
// (plain or quoted scalars without escapes); else the scalar's own position.
Position positionWithin(const Source& src, const YAML::Node& scalar, std::size_t offset);

[[noreturn]] void failAt(const Source& src, Position pos, const std::string& message);
[[noreturn]] void fail(const Source& src, const YAML::Node& at, const std::string& message);
// "<path>: expected <expected>, got <what the node is>"
[[noreturn]] void failExpected(const Source& src, const YAML::Node& at, std::string_view path,
                               std::string_view expected);

// `"sliding"`, `a map`, `a list`, `null`.
std::string describe(const YAML::Node& node);
std::string quoted(std::string_view text);
std::string joinPath(std::string_view parent, std::string_view key);
std::string indexPath(std::string_view parent, std::size_t index);
std::string joinNames(const std::vector<std::string_view>& names, std::string_view sep = ", ");

// Parses YAML text into a node, turning yaml-cpp's exceptions into LoadError.
YAML::Node parseYaml(std::string_view text, const std::string& file_name);

// Fails at the first value past kMaxYamlValues when `node` is walked with its aliases expanded
// ("aliases expand to more than 1000000 values"): ten lists of ten aliases each of the one
// before are 10^10 values to a reader that walks them. Stops walking there, so it is cheap.
// `aliases` false: the text has none (the prescan saw no *name), so the values are simply too
// many and the message says so.
// `values_before` counts values of the same document walked before (the YAML blocks of one
// postmortem share the limit); returns the count with this node's. Throws YamlLimitError.
std::size_t requireBoundedExpansion(const YAML::Node& node, const std::string& file_name,
                                    bool aliases = true, std::size_t values_before = 0);

// A YAML map with a fixed set of allowed keys. Construction fails on a non-map, an unknown key
// (listing the allowed ones) or a repeated key.
class MapReader {
 public:
  MapReader(const Source& src, const YAML::Node& node, std::string path,
            std::vector<std::string_view> allowed);

  // The value of `key`, or nullptr when absent.
  const YAML::Node* find(std::string_view key) const;
  // The value of `key`; fails "<path>: missing required key '<key>'" when absent.
  const YAML::Node& require(std::string_view key) const;
  // The mark of the key itself (for errors about the entry as a whole).
  const YAML::Node* keyNode(std::string_view key) const;
  std::string path(std::string_view key) const { return joinPath(path_, key); }
  const std::string& path() const { return path_; }
  const YAML::Node& node() const { return node_; }
  const Source& source() const { return src_; }

  struct Entry {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  const Source& src_;
  YAML::Node node_;
  std::string path_;
  std::vector<Entry> entries_;
};

// Fails unless `node` is a map; returns its entries in order (keys must be scalars and unique).
std::vector<MapReader::Entry> mapEntries(const Source& src, const YAML::Node& node,
                                         std::string_view path);
// Fails unless `node` is a list.
void requireList(const Source& src, const YAML::Node& node, std::string_view path);

std::string readString(const Source& src, const YAML::Node& node, std::string_view path);
bool readBool(const Source& src, const YAML::Node& node, std::string_view path);
std::uint32_t readUint32(const Source& src, const YAML::Node& node, std::string_view path,
                         std::uint32_t min = 0);
std::uint64_t readUint64(const Source& src, const YAML::Node& node, std::string_view path);
double readNumber(const Source& src, const YAML::Node& node, std::string_view path, double min,
                  double max);
Micros readDuration(const Source& src, const YAML::Node& node, std::string_view path);
Micros readTimePoint(const Source& src, const YAML::Node& node, std::string_view path);
double readPercent(const Source& src, const YAML::Node& node, std::string_view path);

template <class E>
E readEnum(const Source& src, const YAML::Node& node, std::string_view path,
           std::initializer_list<std::pair<std::string_view, E>> choices) {
  std::vector<std::string_view> names;
  if (node.IsScalar()) {
    for (const auto& [name, value] : choices)
      if (node.Scalar() == name) return value;
  }
  for (const auto& c : choices) names.push_back(c.first);
  failExpected(src, node, path, "one of " + joinNames(names));
}

// An enum spelled by its one table (kStateScopeNames, ...).
template <class E, std::size_t N>
E readEnum(const Source& src, const YAML::Node& node, std::string_view path,
           const std::array<std::pair<std::string_view, E>, N>& choices) {
  if (node.IsScalar()) {
    for (const auto& [name, value] : choices)
      if (node.Scalar() == name) return value;
  }
  std::vector<std::string_view> names;
  for (const auto& c : choices) names.push_back(c.first);
  failExpected(src, node, path, "one of " + joinNames(names));
}

}  // namespace breakerlab::data_detail
