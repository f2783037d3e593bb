#pragma once
// The config-change gate (docs/ci-gate.md): each incident replayed under a base and a head
// config, compared goal by goal and on the headline metrics, each metric with a tolerance
// (core/outcome/metric_compare.h); a regression is a goal met under base and not under head, or
// a headline metric worse beyond its tolerance. The report is Markdown for a pull-request
// comment, or JSON.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metric_compare.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/data/settings_diff.h"

namespace breakerlab {

inline constexpr const char* kGateFormat = "breakerlab-gate/1";

// "max(1, 1%)", "max(0.5 s, 5%)", "1 pt", "10%", "0" (for tables).
std::string toleranceText(const MetricInfo& metric, const Tolerance& tolerance);

// `--tolerance METRIC=VALUE` (in the metric's unit; a duration such as 1.5s for a time metric)
// or `METRIC=VALUE%` (of the base value): it replaces the metric's default, and a metric that is
// not a headline one joins the comparison. Throws LoadError("--tolerance ARG", 0, 0, ...) for
// an unknown metric (with the names closest to it) or a bad value.
struct ToleranceOverride {
  const MetricInfo* metric = nullptr;
  Tolerance tolerance;
};
ToleranceOverride parseToleranceOverride(std::string_view argument);

// The headline metrics with their defaults, then the metrics only the overrides name; a later
// override of the same metric wins.
std::vector<GatedMetric> gatedMetrics(const std::vector<ToleranceOverride>& overrides);

// The moments a reviewer reads off the lanes, each nullopt when it did not happen (or the run
// has no such resource: `has_pool`, `has_ceiling`).
struct KeyMoments {
  std::optional<Micros> first_failed_checkout;
  bool has_breaker = false;            // enabled at some point of the run
  std::optional<Micros> first_trip;    // the breaker first opened
  std::optional<double> time_to_trip;  // s, from the first failed call (time_to_trip_s)
  std::uint32_t trips = 0;
  bool has_pool = false;
  std::optional<Micros> pool_first_full;  // the first second every connection was in use
  bool has_ceiling = false;
  std::optional<Micros> dependency_first_saturated;  // first second at 99% of its ceiling
  bool operator==(const KeyMoments&) const = default;
};
// `config` is the one replayed (its timed changes are the incident's, for the pool's size).
KeyMoments keyMoments(const Incident& incident, const Config& config, const Result& result);

struct GoalRow {
  std::string text;
  bool base_met = false;
  bool head_met = false;
  std::string base_actual;
  std::string head_actual;
  bool regression() const { return base_met && !head_met; }
};

struct GateIncident {
  std::string name;  // as given: a file or a bundled incident's name
  std::string id;
  std::string title;
  Micros start = 0;
  Micros end = 0;
  std::optional<Micros> clock_start;
  std::uint64_t checkouts = 0;
  std::vector<SettingChange> config_changes;  // base → head, in BreakerLab's keys
  std::vector<MetricComparison> metrics;
  std::vector<GoalRow> goals;
  KeyMoments base_moments;
  KeyMoments head_moments;

  std::size_t regressions() const;
};

// One incident compared: its goals on both replays, the gated metrics, the key moments and the
// config's changes.
GateIncident compareIncident(std::string name, const Incident& incident, const Config& base,
                             const Result& base_result, const Config& head,
                             const Result& head_result, const std::vector<GatedMetric>& gated);

struct GateReport {
  struct File {
    std::string file;
    std::string format;  // "breakerlab-config/1", "resilience4j (Spring Boot application.yml)"
  };
  File base;
  File head;
  std::vector<GateIncident> incidents;
  std::vector<std::string> notes;  // what the files' import noted, "FILE:LINE:COL: ..."
  std::string generator;           // "BreakerLab 0.1.0"

  std::size_t regressions() const;
  bool passed() const { return regressions() == 0; }
  // Whether any incident's config differs between base and head.
  bool configChanged() const;
};

// The report as a pull-request comment (GitHub-flavoured Markdown).
std::string gateMarkdown(const GateReport& report);
// The same as JSON, format breakerlab-gate/1 (docs/ci-gate.md).
nlohmann::ordered_json gateToJson(const GateReport& report);

}  // namespace breakerlab
