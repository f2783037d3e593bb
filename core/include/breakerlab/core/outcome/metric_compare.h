#pragma once
// How a metric moved from one run to another, and how far it may move the wrong way before the
// move is a regression: the rules `breakerlab-cli gate` fails a change on (docs/ci-gate.md), and
// the workbench's goals verdict warns with (a config that meets more goals while a headline
// metric regresses is not simply "better").
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/dependency_words.h"
#include "breakerlab/core/outcome/metrics.h"

namespace breakerlab {

// How far a metric may move the wrong way: max(absolute, relative × |base|), the absolute part
// in the metric's unit, the relative part a fraction of the base value.
struct Tolerance {
  double absolute = 0;
  double relative = 0;
  bool operator==(const Tolerance&) const = default;
};
double allowance(const Tolerance& tolerance, double base);

// A metric's default tolerance by its kind: the table in docs/ci-gate.md.
struct ToleranceRule {
  std::string_view kind;  // "count", "percentage", ...
  bool (*applies)(const MetricInfo&);
  Tolerance tolerance;
};
std::span<const ToleranceRule> toleranceRules();
Tolerance defaultTolerance(const MetricInfo& metric);

// The metrics the gate compares by default, in report order: what a checkout sees (failures,
// fresh and cached prices, latency), how long the breaker keeps serving from cache, and the
// saturation behind failures. Not time_to_trip_s, which counts from the first failed call: a
// change that fails fewer calls trips later, and that is no regression (a key moment instead).
std::vector<const MetricInfo*> gateHeadlineMetrics();

struct GatedMetric {
  const MetricInfo* metric = nullptr;
  Tolerance tolerance;
  bool overridden = false;  // by --tolerance
};

// How a metric moved from base to head. A neutral metric and one defined in one run only are
// reported and never fail.
enum class MetricVerdict : std::uint8_t {
  unchanged,
  better,
  within_tolerance,  // worse, by no more than the tolerance
  regression,        // worse beyond the tolerance
  neutral,           // changed, and the change alone is neither good nor bad
  one_sided,         // defined in one run only (the breaker never tripped in the other, ...)
};
std::string_view toString(MetricVerdict verdict);

struct MetricComparison {
  const MetricInfo* metric = nullptr;
  std::optional<double> base;
  std::optional<double> head;
  Tolerance tolerance;
  MetricVerdict verdict = MetricVerdict::unchanged;
};
MetricComparison compareMetric(const GatedMetric& gated, const Metrics& base, const Metrics& head);

// The gate's headline metrics that head regresses against base with their default tolerances,
// in the gate's order.
std::vector<MetricComparison> headlineRegressions(const Metrics& base, const Metrics& head);

// The regressed metrics as a goals verdict names them, in the incident's words and joined:
// "failed checkouts, failed share, fresh". A label is lower-cased unless its second letter is a
// capital ("IO wait" stays). Empty when nothing regressed.
std::string regressedMetricsText(std::span<const MetricComparison> regressed,
                                 const DependencyWords& words);

}  // namespace breakerlab
