// The gate's tolerance overrides, key moments and JSON; the comparison rules are core's
// (core/outcome/metric_compare.h).
#include "breakerlab/data/gate.h"

#include <algorithm>
#include <cmath>

#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/data/config_export.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/values.h"
#include "expectation_reader.h"

namespace breakerlab {

namespace {

std::string amountText(const MetricInfo& metric, double value) {
  std::string text = formatNumber(value);
  if (metric.unit == "%") return text + " pt";
  if (!metric.unit.empty()) text += " " + std::string(metric.unit);
  return text;
}

}  // namespace

std::string toleranceText(const MetricInfo& metric, const Tolerance& tolerance) {
  const std::string relative = formatNumber(tolerance.relative * 100) + "%";
  if (tolerance.relative == 0) return amountText(metric, tolerance.absolute);
  if (tolerance.absolute == 0) return relative;
  return "max(" + amountText(metric, tolerance.absolute) + ", " + relative + ")";
}

ToleranceOverride parseToleranceOverride(std::string_view argument) {
  const std::string origin = "--tolerance " + clipText(argument);
  const std::size_t eq = argument.find('=');
  if (eq == std::string_view::npos)
    throw LoadError(origin, 0, 0, "expected METRIC=VALUE or METRIC=VALUE%, e.g. failed_pct=2");
  const std::string_view name = argument.substr(0, eq);
  const std::string_view value = argument.substr(eq + 1);
  const MetricInfo* metric = findMetric(name);
  if (metric == nullptr) throw LoadError(origin, 0, 0, data_detail::unknownMetricMessage(name));
  std::string problem;
  const auto amount = data_detail::readAmount(value, *metric, true, problem);
  if (!amount) throw LoadError(origin, 0, 0, problem);
  if (!(amount->value >= 0))
    throw LoadError(origin, 0, 0, "expected a tolerance of 0 or more, got " + clipText(value));
  ToleranceOverride out;
  out.metric = metric;
  (amount->relative ? out.tolerance.relative : out.tolerance.absolute) = amount->value;
  return out;
}

std::vector<GatedMetric> gatedMetrics(const std::vector<ToleranceOverride>& overrides) {
  std::vector<GatedMetric> out;
  for (const MetricInfo* m : gateHeadlineMetrics()) out.push_back({m, defaultTolerance(*m), false});
  for (const ToleranceOverride& o : overrides) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const GatedMetric& g) { return g.metric == o.metric; });
    if (it == out.end()) it = out.insert(out.end(), GatedMetric{o.metric, {}, true});
    it->tolerance = o.tolerance;
    it->overridden = true;
  }
  return out;
}

KeyMoments keyMoments(const Incident& incident, const Config& config, const Result& result) {
  KeyMoments k;
  for (const CheckoutRecord& r : result.checkouts) {
    if (r.arrival >= incident.start && r.outcome == CheckoutOutcome::failed) {
      k.first_failed_checkout = r.arrival;
      break;
    }
  }
  for (const Event& e : result.events) {
    if (e.kind == EventKind::trip && e.at >= incident.start) {
      k.first_trip = e.at;
      break;
    }
  }
  k.time_to_trip = result.metrics.time_to_trip_s;
  k.trips = result.metrics.trips;

  // The pool's size over the window: the config, then each timed change in force.
  const std::vector<Config> configs = configsOverRun(config, incident.changes);
  k.has_breaker = std::any_of(configs.begin(), configs.end(),
                              [](const Config& c) { return c.breaker.enabled; });
  std::vector<Micros> from{incident.start};
  for (const TimedChange& c : orderedChanges(incident.changes))
    if (c.enabled) from.push_back(c.at);
  const auto capacityAt = [&](std::size_t i) -> std::uint64_t {
    const Config& c = configs[std::min(i, configs.size() - 1)];
    return static_cast<std::uint64_t>(c.pool.size) * c.load_balancer.pods;
  };
  const std::vector<std::uint32_t>& pool = result.per_second.pool_busy;
  k.has_pool = !pool.empty();
  std::size_t in_force = 0;
  for (std::size_t s = 0; s < pool.size(); ++s) {
    const Micros second = incident.start + static_cast<Micros>(s) * kSecond;
    // The largest pool in force during the second: a change within it never makes a full one.
    while (in_force + 1 < from.size() && from[in_force + 1] <= second) ++in_force;
    std::uint64_t capacity = capacityAt(in_force);
    for (std::size_t j = in_force + 1; j < from.size() && from[j] < second + kSecond; ++j)
      capacity = std::max(capacity, capacityAt(j));
    if (capacity > 0 && pool[s] >= capacity) {
      k.pool_first_full = second;
      break;
    }
  }
  const std::vector<std::uint32_t>& busy = result.per_second.dependency_busy;
  k.has_ceiling = !busy.empty();
  for (std::size_t s = 0; s < busy.size(); ++s) {
    if (busy[s] >= 99) {
      k.dependency_first_saturated = incident.start + static_cast<Micros>(s) * kSecond;
      break;
    }
  }
  return k;
}

std::size_t GateIncident::regressions() const {
  std::size_t n = 0;
  for (const GoalRow& g : goals) n += g.regression() ? 1 : 0;
  for (const MetricComparison& m : metrics) n += m.verdict == MetricVerdict::regression ? 1 : 0;
  return n;
}

GateIncident compareIncident(std::string name, const Incident& incident, const Config& base,
                             const Result& base_result, const Config& head,
                             const Result& head_result, const std::vector<GatedMetric>& gated) {
  GateIncident g;
  g.name = std::move(name);
  g.id = incident.id;
  g.title = incident.title;
  g.start = incident.start;
  g.end = incident.end;
  g.clock_start = incident.clock_start;
  g.checkouts = base_result.metrics.checkouts;
  if (!(base == head)) {
    const ExportTarget yaml = ExportTarget::breakerlab_yaml;
    g.config_changes = diffSettings(exportedSettings(exportConfig(base, yaml), yaml),
                                    exportedSettings(exportConfig(head, yaml), yaml));
  }
  for (const GatedMetric& m : gated)
    g.metrics.push_back(compareMetric(m, base_result.metrics, head_result.metrics));
  const std::vector<ExpectationResult> base_goals = evaluate(incident.goals, incident, base_result);
  const std::vector<ExpectationResult> head_goals = evaluate(incident.goals, incident, head_result);
  for (std::size_t i = 0; i < incident.goals.size(); ++i)
    g.goals.push_back({incident.goals[i].text, base_goals[i].passed, head_goals[i].passed,
                       base_goals[i].actual, head_goals[i].actual});
  g.base_moments = keyMoments(incident, base, base_result);
  g.head_moments = keyMoments(incident, head, head_result);
  return g;
}

std::size_t GateReport::regressions() const {
  std::size_t n = 0;
  for (const GateIncident& i : incidents) n += i.regressions();
  return n;
}

bool GateReport::configChanged() const {
  return std::any_of(incidents.begin(), incidents.end(),
                     [](const GateIncident& i) { return !i.config_changes.empty(); });
}

namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json optionalNumber(const std::optional<double>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json secondsOf(const std::optional<Micros>& t) {
  return t ? ordered_json(toSeconds(*t)) : ordered_json(nullptr);
}

ordered_json momentsJson(const KeyMoments& k) {
  ordered_json j;
  j["first_failed_checkout_s"] = secondsOf(k.first_failed_checkout);
  j["first_trip_s"] = secondsOf(k.first_trip);
  j["time_to_trip_s"] = k.time_to_trip ? ordered_json(*k.time_to_trip) : ordered_json(nullptr);
  j["trips"] = k.trips;
  j["pool_first_full_s"] = k.has_pool ? secondsOf(k.pool_first_full) : ordered_json(nullptr);
  j["dependency_first_saturated_s"] =
      k.has_ceiling ? secondsOf(k.dependency_first_saturated) : ordered_json(nullptr);
  return j;
}

}  // namespace

ordered_json gateToJson(const GateReport& report) {
  ordered_json j;
  j["format"] = kGateFormat;
  j["passed"] = report.passed();
  j["regressions"] = report.regressions();
  j["config_changed"] = report.configChanged();
  j["base"] = {{"file", report.base.file}, {"format", report.base.format}};
  j["head"] = {{"file", report.head.file}, {"format", report.head.format}};
  j["notes"] = report.notes;
  ordered_json incidents = ordered_json::array();
  for (const GateIncident& i : report.incidents) {
    ordered_json ji;
    ji["name"] = i.name;
    ji["id"] = i.id;
    ji["title"] = i.title;
    ji["passed"] = i.regressions() == 0;
    ji["regressions"] = i.regressions();
    ordered_json changes = ordered_json::array();
    for (const SettingChange& c : i.config_changes)
      changes.push_back(
          {{"key", c.key},
           {"base", c.before.empty() ? ordered_json(nullptr) : ordered_json(c.before)},
           {"head", c.after.empty() ? ordered_json(nullptr) : ordered_json(c.after)}});
    ji["config_changes"] = changes;
    ordered_json metrics = ordered_json::array();
    for (const MetricComparison& m : i.metrics) {
      ordered_json jm;
      jm["name"] = m.metric->name;
      jm["direction"] = m.metric->direction == MetricDirection::lower_is_better    ? "lower"
                        : m.metric->direction == MetricDirection::higher_is_better ? "higher"
                                                                                   : "neutral";
      jm["base"] = optionalNumber(m.base);
      jm["head"] = optionalNumber(m.head);
      jm["delta"] = m.base && m.head ? ordered_json(*m.head - *m.base) : ordered_json(nullptr);
      jm["tolerance"] = {{"absolute", m.tolerance.absolute}, {"relative", m.tolerance.relative}};
      jm["verdict"] = toString(m.verdict);
      metrics.push_back(std::move(jm));
    }
    ji["metrics"] = metrics;
    ordered_json goals = ordered_json::array();
    for (const GoalRow& g : i.goals)
      goals.push_back({{"goal", g.text},
                       {"base", {{"met", g.base_met}, {"actual", g.base_actual}}},
                       {"head", {{"met", g.head_met}, {"actual", g.head_actual}}},
                       {"regression", g.regression()}});
    ji["goals"] = goals;
    ji["moments"] = {{"base", momentsJson(i.base_moments)}, {"head", momentsJson(i.head_moments)}};
    incidents.push_back(std::move(ji));
  }
  j["incidents"] = incidents;
  return j;
}

}  // namespace breakerlab
