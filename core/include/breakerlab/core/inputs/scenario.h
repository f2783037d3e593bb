#pragma once
// Overrides of the incident itself rather than of the client's config: "what if the outage had
// lasted longer", "what if twice the traffic". `--set scenario.KEY=VALUE` on the CLI; the keys
// live in one table (scenarioKeys()).
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

struct Scenario {
  // The outage (the first run of unhealthy dependency segments) lasts this much longer: its
  // longest segment is stretched and everything after it (segments, health spans, traffic
  // pieces, timed changes, the window's end) moves later by as much.
  Micros outage_extend = 0;
  double traffic_scale = 1;   // every rate piece's requests per second, multiplied
  double latency_scale = 1;   // every segment's latency (p50 and p99), multiplied
  double capacity_scale = 1;  // the dependency's concurrency ceiling, multiplied (when it has one)
  bool operator==(const Scenario&) const = default;
  bool empty() const { return *this == Scenario{}; }
};

// One scenario key: its `--set` name, the label the workbench's Scenario group shows, its range
// and its one getter and setter, in microseconds for a duration. The CLI's `--set`, the panel
// and the undo step's merging all read this table (scenarioKeys()).
struct ScenarioKeyInfo {
  std::string_view name;   // "scenario.outage.extend"
  std::string_view label;  // "Outage longer by"
  bool duration;           // a duration (microseconds) or a factor
  double min, max;         // allowed range (a factor: min..max; a duration: 0..max us)
  double (*get)(const Scenario&);
  void (*set)(Scenario&, double);
  std::string_view meaning;
};
std::span<const ScenarioKeyInfo> scenarioKeys();
const ScenarioKeyInfo* findScenarioKey(std::string_view name);

// `incident` as the scenario has it. The recorded lanes and events stay as the document
// recorded them; expectations are kept.
Incident applyScenario(const Incident& incident, const Scenario& scenario);
// Why `scenario` cannot apply to `incident` (an outage to stretch on recorded arrivals, a window
// that would be longer than 7 days), or an empty string.
std::string scenarioProblem(const Incident& incident, const Scenario& scenario);

}  // namespace breakerlab
