#pragma once
// Internal: the config section as YAML nodes, shared by config files, incidents and overrides.
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "yaml_source.h"

namespace breakerlab::data_detail {

// Reads a config map. `path` is the name of the map in errors ("" for a whole document). Does
// not run validate(Config).
Config readConfigNode(const Source& src, const YAML::Node& node, const std::string& path,
                      bool require_format);

// Runs validate(Config) and reports a problem at `at`.
void validateConfigAt(const Source& src, const YAML::Node& at, const Config& config);

// The full config as a YAML tree (the shape of a config file). A library's section is written
// when the breaker follows that library or its settings differ from the library's defaults;
// `every_library` writes all six (the tree `--set` edits, so that any of their keys exists).
YAML::Node toYamlNode(const Config& config, bool every_library = false);

// Sets `value` at the dotted `key` (e.g. "breaker.window.size") inside `tree`, a full config
// tree from toYamlNode. A map value sets the keys it names and keeps the others; any other
// value replaces. Unknown keys fail at `key_node` (or the fallback position).
void setAtPath(YAML::Node tree, std::string_view key, const YAML::Node& value, const Source& src,
               const YAML::Node& key_node);

}  // namespace breakerlab::data_detail
