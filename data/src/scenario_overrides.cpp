// `--set scenario.KEY=VALUE`: overrides of the incident (core/scenario.h), not of the config.
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {
constexpr std::string_view kPrefix = "scenario.";

std::string scenarioKeyList() {
  std::string out;
  for (const ScenarioKeyInfo& k : scenarioKeys()) {
    if (!out.empty()) out += ", ";
    out += std::string(k.name);
  }
  return out;
}
}  // namespace

bool isScenarioAssignment(std::string_view assignment) {
  return assignment.substr(0, kPrefix.size()) == kPrefix;
}

void applyScenarioAssignment(Scenario& scenario, const std::string& assignment) {
  const std::string where = "--set " + clipText(assignment);
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos)
    throw LoadError(where, 0, 0, "expected scenario.KEY=VALUE, e.g. scenario.outage.extend=30s");
  const std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  const ScenarioKeyInfo* info = findScenarioKey(key);
  if (info == nullptr)
    throw LoadError(
        where, 0, 0,
        "unknown scenario key '" + clipText(key) + "', expected one of " + scenarioKeyList());
  if (info->duration) {
    std::string expected;
    const auto d = parseDuration(value, &expected);
    if (!d || static_cast<double>(*d) > info->max)
      throw LoadError(where, 0, 0,
                      key + ": expected " + (d ? "at most 7 days" : expected) + ", got \"" +
                          clipText(value) + "\"");
    info->set(scenario, static_cast<double>(*d));
    return;
  }
  const auto v = parseNumber(value);
  if (!v || *v < info->min || *v > info->max)
    throw LoadError(where, 0, 0,
                    key + ": expected a factor from " + formatNumber(info->min) + " to " +
                        formatNumber(info->max) + ", got \"" + clipText(value) + "\"");
  info->set(scenario, *v);
}

}  // namespace breakerlab
