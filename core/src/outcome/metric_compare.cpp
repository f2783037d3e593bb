#include "breakerlab/core/outcome/metric_compare.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace breakerlab {

namespace {

bool isCount(const MetricInfo& m) {
  return m.integral;
}
bool isPercentage(const MetricInfo& m) {
  return m.unit == "%";
}
bool isSeconds(const MetricInfo& m) {
  return m.unit == "s";
}
bool isMilliseconds(const MetricInfo& m) {
  return m.unit == "ms";
}
bool isAnything(const MetricInfo&) {
  return true;
}

// The one table of default tolerances (docs/ci-gate.md is checked against it); the first rule
// that applies wins.
constexpr std::array<ToleranceRule, 5> kRules = {{
    {"count", isCount, {1, 0.01}},
    {"percentage", isPercentage, {1, 0}},
    {"seconds", isSeconds, {0.5, 0.05}},
    {"milliseconds", isMilliseconds, {50, 0.05}},
    {"ratio or rate", isAnything, {0.05, 0.05}},
}};

// Values this close are the same run's (a replay is deterministic; sums of doubles are not
// always written back identically).
bool same(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace

double allowance(const Tolerance& tolerance, double base) {
  return std::max(tolerance.absolute, tolerance.relative * std::abs(base));
}

std::span<const ToleranceRule> toleranceRules() {
  return kRules;
}

Tolerance defaultTolerance(const MetricInfo& metric) {
  for (const ToleranceRule& rule : kRules)
    if (rule.applies(metric)) return rule.tolerance;
  return kRules.back().tolerance;
}

std::vector<const MetricInfo*> gateHeadlineMetrics() {
  return metricsIn(MetricList::gate_headline);
}

std::string_view toString(MetricVerdict verdict) {
  switch (verdict) {
    case MetricVerdict::unchanged:
      return "unchanged";
    case MetricVerdict::better:
      return "better";
    case MetricVerdict::within_tolerance:
      return "within_tolerance";
    case MetricVerdict::regression:
      return "regression";
    case MetricVerdict::neutral:
      return "neutral";
    case MetricVerdict::one_sided:
      return "one_sided";
  }
  return "unchanged";
}

MetricComparison compareMetric(const GatedMetric& gated, const Metrics& base, const Metrics& head) {
  MetricComparison c;
  c.metric = gated.metric;
  c.tolerance = gated.tolerance;
  c.base = gated.metric->get(base);
  c.head = gated.metric->get(head);
  if (!c.base && !c.head) {
    c.verdict = MetricVerdict::unchanged;
  } else if (!c.base || !c.head) {
    c.verdict = MetricVerdict::one_sided;
  } else if (same(*c.base, *c.head)) {
    c.verdict = MetricVerdict::unchanged;
  } else if (gated.metric->direction == MetricDirection::neutral) {
    c.verdict = MetricVerdict::neutral;
  } else {
    const double rise = *c.head - *c.base;
    const double worse = gated.metric->direction == MetricDirection::lower_is_better ? rise : -rise;
    if (worse < 0) {
      c.verdict = MetricVerdict::better;
    } else {
      // Strictly beyond: a count may rise by exactly its allowance.
      const double allowed = allowance(gated.tolerance, *c.base);
      c.verdict = worse > allowed && !same(worse, allowed) ? MetricVerdict::regression
                                                           : MetricVerdict::within_tolerance;
    }
  }
  return c;
}

std::vector<MetricComparison> headlineRegressions(const Metrics& base, const Metrics& head) {
  std::vector<MetricComparison> out;
  for (const MetricInfo* metric : gateHeadlineMetrics()) {
    MetricComparison c = compareMetric({metric, defaultTolerance(*metric), false}, base, head);
    if (c.verdict == MetricVerdict::regression) out.push_back(c);
  }
  return out;
}

std::string regressedMetricsText(std::span<const MetricComparison> regressed,
                                 const DependencyWords& words) {
  std::string text;
  for (const MetricComparison& r : regressed) {
    std::string name = inDependencyWords(r.metric->label, words);
    const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    if (name.size() > 1 && upper(name[0]) && !upper(name[1]))
      name[0] = static_cast<char>(name[0] - 'A' + 'a');
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace breakerlab
