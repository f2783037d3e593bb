// `--set dotted.key=value`: edit the config's YAML tree, then read it back with the file parser.
#include <optional>

#include "breakerlab/data/config_io.h"
#include "config_yaml.h"
#include "utf8.h"
#include "yaml_prescan.h"

namespace breakerlab {
namespace data_detail {

namespace {
// The child of map `node` named `key`, or nullopt.
std::optional<YAML::Node> child(const YAML::Node& node, std::string_view key) {
  for (auto it = node.begin(); it != node.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return std::nullopt;
}

std::string keyList(const YAML::Node& map) {
  std::string out;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!out.empty()) out += ", ";
    out += it->first.Scalar();
  }
  return out;
}

[[noreturn]] void unknownKey(const Source& src, const YAML::Node& at, std::string_view key,
                             const std::string& parent_path, const YAML::Node& parent) {
  std::string message = "unknown key '" + clipText(key) + "'";
  message += parent_path.empty() ? " at the top level" : " under " + parent_path;
  message += ", expected one of " + keyList(parent);
  fail(src, at, message);
}

// Sets `value` as the entry `key` of map `parent` (whose path is `path`), merging maps.
void assign(YAML::Node parent, const std::string& path, std::string_view key,
            const YAML::Node& value, const Source& src, const YAML::Node& key_node) {
  auto existing = child(parent, key);
  if (!existing) {
    // A library's section holds only the settings that differ from its defaults: any of its
    // own names may be added, and its reader says which names exist.
    const std::string_view section = std::string_view(path).substr(0, path.find('.'));
    if (!path.empty() && breakerLibraryFromString(section) &&
        section != toString(BreakerLibrary::breakerlab)) {
      parent[std::string(key)] = value;
      return;
    }
    unknownKey(src, key_node, key, path, parent);
  }
  const std::string child_path = joinPath(path, key);
  if (existing->IsMap() && value.IsMap()) {
    for (const auto& entry : mapEntries(src, value, child_path))
      assign(*existing, child_path, entry.key, entry.value, src, entry.key_node);
    return;
  }
  YAML::Node target = *existing;
  target = value;
}

// Building the tree of every key is most of what an override costs (hundreds of nodes, each
// library's section by way of JSON), and callers lay overrides over one config many times in a
// row (`--set` over each incident of a gate or a sweep, the fuzz targets): each thread keeps the
// last base's tree and hands out copies of it. assign() writes into the tree it is given, so a
// copy, never the kept tree.
YAML::Node everyKeyTree(const Config& base) {
  struct Kept {
    Config base;
    YAML::Node tree;
  };
  thread_local std::optional<Kept> kept;
  // emplace, not assignment: YAML::Node's operator= writes into the node it refers to.
  if (!kept || !(kept->base == base)) kept.emplace(Kept{base, toYamlNode(base, true)});
  return YAML::Clone(kept->tree);
}
}  // namespace

void setAtPath(YAML::Node tree, std::string_view key, const YAML::Node& value, const Source& src,
               const YAML::Node& key_node) {
  if (key.empty()) fail(src, key_node, "empty key");
  const std::string full_key(key);
  std::string path;
  YAML::Node node = tree;
  for (;;) {
    const std::size_t dot = key.find('.');
    const std::string_view part = key.substr(0, dot);
    if (part.empty()) fail(src, key_node, "empty part in the key '" + clipText(full_key) + "'");
    if (dot == std::string_view::npos) {
      assign(node, path, part, value, src, key_node);
      return;
    }
    auto next = child(node, part);
    if (!next) unknownKey(src, key_node, part, path, node);
    path = joinPath(path, part);
    if (!next->IsMap())
      fail(src, key_node,
           path + " is a value, not a section: it has no key '" + clipText(key.substr(dot + 1)) +
               "'");
    node.reset(*next);  // rebind: operator= would overwrite the node itself
    key = key.substr(dot + 1);
  }
}

}  // namespace data_detail

Config applyOverrides(const Config& base, const std::vector<std::string>& assignments) {
  using namespace data_detail;
  if (assignments.empty()) return base;
  const std::vector<YAML::Node> nothing_trusted;  // marks inside values refer to the value text
  YAML::Node tree = everyKeyTree(base);
  std::vector<Source> sources;
  std::vector<bool> valid;
  Config config = base;
  valid.push_back(validate(base).empty());
  for (const std::string& assignment : assignments) {
    // The assignment names every error about it: a long one is named, not echoed.
    Source src{"--set " + clipText(assignment), {}};
    src.trusted = &nothing_trusted;
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos)
      failAt(src, {}, "expected dotted.key=value, e.g. breaker.window.size=30");
    const std::string key = assignment.substr(0, eq);
    const std::string value_text = assignment.substr(eq + 1);
    YAML::Node value;
    try {
      // The value is YAML text of its own: the same checks as a file before yaml-cpp sees it.
      requireUtf8(value_text, src.file);
      prescanYaml(value_text, src.file);
      value = YAML::Load(value_text);
      requireBoundedExpansion(value, src.file);
    } catch (const YAML::Exception& e) {
      failAt(src, {}, "cannot read the value: " + e.msg);
    } catch (const LoadError& e) {
      failAt(src, {}, "cannot read the value: " + e.message());
    }
    try {
      setAtPath(tree, key, value, src, YAML::Node());
      config = readConfigNode(src, tree, "", false);
    } catch (const LoadError&) {
      throw;
    } catch (const std::exception& e) {
      failAt(src, {}, e.what());
    }
    valid.push_back(validate(config).empty());
    sources.push_back(std::move(src));
  }
  if (const std::string problem = validate(config); !problem.empty()) {
    // Blame the last assignment that turned a valid config into an invalid one.
    std::size_t blame = sources.size() - 1;
    for (std::size_t i = sources.size(); i-- > 0;) {
      if (valid[i] && !valid[i + 1]) {
        blame = i;
        break;
      }
    }
    failAt(sources[blame], {}, problem);
  }
  return config;
}

Config overlayConfig(const Config& base, std::string_view text, const std::string& file_name) {
  using namespace data_detail;
  try {
    const YAML::Node root = parseYaml(text, file_name);
    const Source src{file_name, text};
    // The tree of every key, the one --set edits: the file's keys are its keys.
    YAML::Node tree = everyKeyTree(base);
    std::vector<std::string> names;
    for (auto it = tree.begin(); it != tree.end(); ++it) names.push_back(it->first.Scalar());
    const MapReader m(src, root, "", std::vector<std::string_view>(names.begin(), names.end()));
    const YAML::Node& format = m.require("format");
    if (!format.IsScalar() || format.Scalar() != kConfigFormat)
      failExpected(src, format, "format", data_detail::quoted(kConfigFormat));
    for (const MapReader::Entry& entry : m.entries())
      if (entry.key != "format") setAtPath(tree, entry.key, entry.value, src, entry.key_node);
    const Config config = readConfigNode(src, tree, "", false);
    validateConfigAt(src, root, config);
    return config;
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(file_name, 0, 0, std::string("cannot read the config: ") + e.what());
  }
}

}  // namespace breakerlab
