#pragma once
// breakerlab-config/1 files: reading, writing and `--set` overrides (docs/formats.md).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

inline constexpr std::string_view kConfigFormat = "breakerlab-config/1";

// Parses a standalone config document (`format: breakerlab-config/1` required). Runs
// validate(Config). Throws LoadError naming `file_name`.
Config parseConfig(std::string_view text, const std::string& file_name);
Config loadConfig(const std::filesystem::path& path);

// A breakerlab-config/1 document laid over `base`: each key the file states replaces base's,
// a map sets only the keys it names (`breaker: {window: {size: 30}}` keeps the window's type),
// and every key it does not state keeps base's value. Read with the same parser and validation,
// errors naming `file_name` with line and column.
Config overlayConfig(const Config& base, std::string_view text, const std::string& file_name);

// The whole config in canonical form, starting with `format: breakerlab-config/1`.
// parseConfig(configToYaml(c), ...) == c for every valid c.
std::string configToYaml(const Config& config);

// Applies `dotted.key=value` assignments (e.g. "breaker.window.size=30",
// "breaker.failures=[timeout,refused]") on top of `base`. The value is read as a YAML scalar,
// list or map (a map sets the keys it names and keeps the others). The result goes through
// the same parser and validation as a file; errors name the assignment:
// "--set breaker.window.sise=3: unknown key 'sise' under breaker.window, expected one of ...".
// `--set scenario.KEY=VALUE` (scenarioKeys()): whether `assignment` is one, and applying it.
// Durations and factors as the config takes them ("30s", "2"); errors name the assignment.
bool isScenarioAssignment(std::string_view assignment);
void applyScenarioAssignment(Scenario& scenario, const std::string& assignment);

Config applyOverrides(const Config& base, const std::vector<std::string>& assignments);

}  // namespace breakerlab
