#pragma once
// Which Prometheus series are a breaker's state, how their values read as a state, and which
// label names the pod (docs/formats.md, "Metric table"). The Prometheus importer reads the
// breaker_state series by it; users edit it (a YAML file, `import --prometheus-metrics FILE`)
// when their exporter names things differently, as they edit the postmortem state table.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace breakerlab {

inline constexpr std::string_view kPrometheusMetricTableFormat = "breakerlab-prometheus-metrics/1";
// Rows and labels a table may hold; a value a row may map.
inline constexpr std::size_t kMaxPrometheusMetricRows = 1000;
inline constexpr std::size_t kMaxPrometheusRowStates = 1000;

// One exporter's breaker-state metric.
struct PrometheusStateMetric {
  // The series' __name__; `*` stands for any run of characters ("envoy_cluster_*_open"), and
  // "*" alone for every series, a name dropped by an aggregation included.
  std::string metric;
  std::string library;  // shown in the report: "resilience4j", "opossum", "envoy", "generic"
  enum class Encoding : std::uint8_t {
    // One series per state, `label` naming it, 1 for the current state (resilience4j's
    // Micrometer gauge); a series without `label` is read by `codes` when the row has them.
    state_label,
    // The value is the state: `codes` maps it ("0" closed, "1" open, "2" half-open; Envoy's
    // *_open gauges: 0 closed, 1 open).
    code,
    // A counter per transition, `label` naming it (opossum-prometheus's `circuit{event}`): where
    // one rises, the breaker entered the state `states` gives for its event.
    events,
  } encoding = Encoding::state_label;
  std::string label = "state";
  std::vector<std::pair<std::string, std::string>> states;  // label value -> lane state
  std::vector<std::pair<double, std::string>> codes;        // value -> lane state
  std::string breaker_label = "name";                       // tells breakers apart

  // The lane state of label value `value` (of `codes` for a number), or "" when the row has none.
  std::string stateOf(std::string_view value) const;
  std::string stateOfCode(double value) const;
};

struct PrometheusMetricTable {
  std::vector<PrometheusStateMetric> rows;  // the first whose `metric` matches reads a series
  // The labels that name a pod, in order of preference: the first one the breaker-state series
  // carry makes one recorded lane per value.
  std::vector<std::string> instance_labels;

  // The first row whose pattern matches `metric_name`, or null.
  const PrometheusStateMetric* match(std::string_view metric_name) const;
  // The same, rows matching every name ("*") left out: whether a series is named as a breaker's
  // state at all.
  const PrometheusStateMetric* matchNamed(std::string_view metric_name) const;
  // resilience4j, opossum (opossum-prometheus), Envoy, and any series of a `*breaker_state*`
  // gauge or without a name.
  static PrometheusMetricTable defaults();
};

bool prometheusMetricPatternMatches(std::string_view pattern, std::string_view name);

std::string prometheusMetricTableToYaml(const PrometheusMetricTable& table);
// Throws LoadError with positions.
PrometheusMetricTable parsePrometheusMetricTable(std::string_view text,
                                                 const std::string& file_name);

}  // namespace breakerlab
