#include "breakerlab/core/outcome/metrics.h"

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

namespace breakerlab {

namespace {
template <auto Member>
std::optional<double> field(const Metrics& m) {
  const auto& v = m.*Member;
  if constexpr (requires { v.has_value(); }) {
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
  } else {
    return static_cast<double>(v);
  }
}

template <typename T>
struct Unwrapped {
  using type = T;
};
template <typename T>
struct Unwrapped<std::optional<T>> {
  using type = T;
};

template <auto Member>
constexpr MetricInfo metric(std::string_view name, std::string_view label, std::string_view unit,
                            std::string_view description, MetricDirection direction,
                            ReportParts needs = {}) {
  using Field =
      typename Unwrapped<std::remove_cvref_t<decltype(std::declval<Metrics>().*Member)>>::type;
  return {name, label, unit, description, field<Member>, direction, std::is_integral_v<Field>,
          needs};
}

// The resources whose counts are zero, not undefined, in a run without them.
bool hasPool(const Metrics& m) {
  return m.peak_pool_utilization_pct.has_value();
}
bool hasWorkerLimit(const Metrics& m) {
  return m.peak_worker_utilization_pct.has_value();
}
bool hasHealthChecks(const Metrics& m) {
  return m.min_pods_in_rotation.has_value();
}
bool hasRetries(const Metrics& m) {
  return m.retries > 0;
}
bool hasClientThrottling(const Metrics& m) {
  return m.client_throttled > 0;
}

constexpr MetricInfo withRoles(MetricInfo info, MetricRoles roles) {
  info.roles = roles;
  return info;
}

constexpr MetricDirection kLower = MetricDirection::lower_is_better;
constexpr MetricDirection kHigher = MetricDirection::higher_is_better;
constexpr MetricDirection kNeutral = MetricDirection::neutral;

// Definitions: docs/metrics.md (with each one's direction). Order is the order of reports.
constexpr std::array kRegistry = {
    metric<&Metrics::checkouts>("checkouts", "Checkouts", "",
                                "checkout requests that arrived in the window", kNeutral),
    withRoles(metric<&Metrics::fresh_checkouts>(
                  "fresh_checkouts", "Fresh", "",
                  "checkouts served a fresh price from the dependency", kHigher),
              {.gate_rank = 3}),
    withRoles(metric<&Metrics::cached_checkouts>("cached_checkouts", "Cached", "",
                                                 "checkouts served a cached price", kNeutral),
              {.gate_rank = 4}),
    withRoles(metric<&Metrics::failed_checkouts>("failed_checkouts", "Failed checkouts", "",
                                                 "checkouts that failed (no fresh or cached price)",
                                                 kLower),
              {.workbench_rank = 1, .tune_rank = 1, .gate_rank = 1}),
    withRoles(metric<&Metrics::failed_pct>("failed_pct", "Failed share", "%",
                                           "failed checkouts as a share of all checkouts", kLower),
              {.tune_rank = 2, .gate_rank = 2}),
    withRoles(metric<&Metrics::cached_window_s>("cached_window_s", "Cached-serving window", "s",
                                                "time the breaker was not closed (cached serving)",
                                                kNeutral),
              {.workbench_rank = 2}),
    metric<&Metrics::cached_window_checkouts>(
        "cached_window_checkouts", "Cached while not closed", "",
        "cached checkouts that arrived while the breaker was not closed", kNeutral),
    withRoles(
        metric<&Metrics::cached_while_healthy_s>(
            "cached_while_healthy_s", "Cached while healthy", "s",
            "time the breaker was not closed while the dependency's health was green", kLower),
        {.workbench_rank = 3, .tune_rank = 3, .gate_rank = 5}),
    withRoles(
        metric<&Metrics::time_to_trip_s>(
            "time_to_trip_s", "Time to trip", "s",
            "from the start of the first failed call of the episode to the first trip", kLower),
        {.workbench_rank = 4, .shown_undefined = true}),
    withRoles(metric<&Metrics::time_to_close_after_recovery_s>(
                  "time_to_close_after_recovery_s", "Time to close after recovery", "s",
                  "from the dependency's health turning green to the breaker closing", kLower),
              {.workbench_rank = 5, .tune_rank = 4, .gate_rank = 7, .shown_undefined = true}),
    withRoles(
        metric<&Metrics::oldest_cached_price_s>("oldest_cached_price_s", "Oldest cached price", "s",
                                                "age of the oldest cached price served", kLower),
        {.workbench_rank = 6, .tune_rank = 9, .gate_rank = 6}),
    withRoles(metric<&Metrics::dependency_calls>("dependency_calls", "Calls to the dependency", "",
                                                 "calls sent to the dependency", kNeutral),
              {.workbench_rank = 8, .tune_rank = 5, .gate_rank = 14}),
    metric<&Metrics::dependency_failures>("dependency_failures", "Failed calls", "",
                                          "dependency calls that ended in a counted failure",
                                          kLower),
    metric<&Metrics::rejected_calls>("rejected_calls", "Rejected by the breaker", "",
                                     "calls the breaker rejected without reaching the dependency",
                                     kNeutral),
    metric<&Metrics::retries>("retries", "Retries", "", "attempts after the first of a request",
                              kLower),
    metric<&Metrics::retries_refused>(
        "retries_refused", "Retries refused", "",
        "retries the retry budget, token bucket or retry throttling did not allow", kNeutral),
    withRoles(metric<&Metrics::client_throttled>(
                  "client_throttled", "Throttled by the client", "",
                  "checkout attempts the client's adaptive throttling refused before sending them",
                  kNeutral),
              {.resource_present = hasClientThrottling}),
    withRoles(metric<&Metrics::amplification>("amplification", "Calls per checkout", "",
                                              "dependency calls per checkout", kLower),
              {.tune_rank = 6}),
    metric<&Metrics::trips>("trips", "Trips", "", "closed-to-open transitions", kNeutral),
    metric<&Metrics::reopens>("reopens", "Reopens", "", "half-open-to-open transitions", kNeutral),
    metric<&Metrics::pod_trips>("pod_trips", "Pod trips", "",
                                "closed-to-open transitions of every pod's breaker (a shared "
                                "breaker's trip counts once per pod in service)",
                                kNeutral),
    metric<&Metrics::pod_seconds_open>("pod_seconds_open", "Pod-seconds open", "s",
                                       "time each pod's breaker was open, summed over the pods "
                                       "in service",
                                       kNeutral),
    metric<&Metrics::any_pod_open_s>("any_pod_open_s", "Any pod open", "s",
                                     "time at least one pod's breaker was open", kNeutral),
    metric<&Metrics::all_pods_open_s>("all_pods_open_s", "All pods open", "s",
                                      "time every pod in service had its breaker open", kNeutral),
    metric<&Metrics::trip_spread_s>("trip_spread_s", "Trip spread", "s",
                                    "from the first pod's first trip to the last pod's first trip",
                                    kNeutral),
    metric<&Metrics::close_spread_s>("close_spread_s", "Close spread", "s",
                                     "from the first pod's last close to the last pod's last close",
                                     kNeutral),
    metric<&Metrics::pod_cached_while_healthy_max_s>(
        "pod_cached_while_healthy_max_s", "Pod cached while healthy (max)", "s",
        "the most time one pod's breaker was not closed while the dependency was healthy", kLower),
    metric<&Metrics::pod_cached_while_healthy_mean_s>(
        "pod_cached_while_healthy_mean_s", "Pod cached while healthy (mean)", "s",
        "time a pod's breaker was not closed while the dependency was healthy, mean over the pods",
        kLower),
    metric<&Metrics::latency_p50_ms>("latency_p50_ms", "Latency p50", "ms",
                                     "median checkout latency", kLower, {ReportPart::latency}),
    metric<&Metrics::latency_p95_ms>("latency_p95_ms", "Latency p95", "ms",
                                     "95th percentile checkout latency", kLower,
                                     {ReportPart::latency}),
    withRoles(metric<&Metrics::latency_p99_ms>("latency_p99_ms", "Latency p99", "ms",
                                               "99th percentile checkout latency", kLower,
                                               {ReportPart::latency}),
              {.workbench_rank = 7, .gate_rank = 9}),
    metric<&Metrics::latency_max_ms>("latency_max_ms", "Latency max", "ms", "slowest checkout",
                                     kLower, {ReportPart::latency}),
    withRoles(metric<&Metrics::calls_per_failed_checkout>(
                  "calls_per_failed_checkout", "Calls per failed checkout", "",
                  "attempts per failed checkout that reached the dependency (not refused a worker "
                  "or pod)",
                  kLower),
              {.shown_undefined = true}),
    metric<&Metrics::mean_call_ms>("mean_call_ms", "Mean call", "ms",
                                   "mean duration of the dependency calls sent (the pool's hold)",
                                   kLower),
    withRoles(metric<&Metrics::peak_pool_utilization_pct>(
                  "peak_pool_utilization_pct", "Peak pool use", "%",
                  "most connections in use at once, as a share of all pods' pools", kLower,
                  {ReportPart::pool_levels}),
              {.tune_rank = 7, .gate_rank = 10}),
    metric<&Metrics::mean_pool_busy>("mean_pool_busy", "Mean connections in use", "",
                                     "time-average connections in use over all pods", kLower,
                                     {ReportPart::pool_levels}),
    metric<&Metrics::pool_wait_share_pct>("pool_wait_share_pct", "Waited for a connection", "%",
                                          "share of connection acquisitions that had to wait",
                                          kLower),
    metric<&Metrics::mean_pool_wait_ms>("mean_pool_wait_ms", "Mean pool wait", "ms",
                                        "mean wait for a connection over all acquisitions", kLower),
    withRoles(
        metric<&Metrics::pool_exhausted>("pool_exhausted", "No connection", "",
                                         "attempts that gave up waiting for a connection", kLower),
        {.resource_present = hasPool}),
    withRoles(metric<&Metrics::peak_worker_utilization_pct>(
                  "peak_worker_utilization_pct", "Peak worker use", "%",
                  "most workers busy at once, as a share of all pods' workers", kLower,
                  {ReportPart::worker_levels}),
              {.gate_rank = 11}),
    metric<&Metrics::mean_workers_busy>("mean_workers_busy", "Mean workers busy", "",
                                        "time-average busy workers over all pods", kLower,
                                        {ReportPart::worker_levels}),
    metric<&Metrics::worker_utilization_at_trip_pct>(
        "worker_utilization_at_trip_pct", "Worker use at trip", "%",
        "mean busy workers over the 10 s up to the breaker's first trip in the window", kLower,
        {ReportPart::worker_levels}),
    withRoles(metric<&Metrics::worker_rejections>("worker_rejections", "No worker", "",
                                                  "checkouts failed: every worker busy, queue full",
                                                  kLower),
              {.resource_present = hasWorkerLimit}),
    withRoles(metric<&Metrics::min_pods_in_rotation>(
                  "min_pods_in_rotation", "Fewest pods in rotation", "",
                  "fewest pods the load balancer kept in rotation", kHigher),
              {.gate_rank = 13}),
    withRoles(metric<&Metrics::pod_ejections>("pod_ejections", "Pod ejections", "",
                                              "pods taken out of rotation by failed health checks",
                                              kLower),
              {.tune_rank = 8, .resource_present = hasHealthChecks}),
    withRoles(metric<&Metrics::no_pod_rejections>("no_pod_rejections", "No pod", "",
                                                  "checkouts failed: no pod in rotation", kLower),
              {.resource_present = hasHealthChecks}),
    metric<&Metrics::peak_calls_in_flight>("peak_calls_in_flight", "Peak calls in flight", "",
                                           "most dependency calls sent and not yet answered",
                                           kLower, {ReportPart::calls_in_flight}),
    metric<&Metrics::dependency_load_while_unhealthy>(
        "dependency_load_while_unhealthy", "Load while unhealthy", "/s",
        "dependency calls per second while its health check was red", kLower,
        {ReportPart::calls_per_second}),
    metric<&Metrics::calls_to_failing_dependency>(
        "calls_to_failing_dependency", "Calls to failing dependency", "",
        "dependency calls the fleet's breakers let through while its health check was red", kLower,
        {ReportPart::calls_per_second}),
    metric<&Metrics::peak_dependency_utilization_pct>(
        "peak_dependency_utilization_pct", "Peak dependency use", "%",
        "busiest second of a capped dependency: mean share of its ceiling in use", kLower,
        {ReportPart::dependency_use}),
    withRoles(metric<&Metrics::dependency_saturated_s>(
                  "dependency_saturated_s", "Dependency saturated", "s",
                  "seconds a capped dependency had 99% or more of its ceiling in use", kLower,
                  {ReportPart::dependency_use}),
              {.gate_rank = 12}),
    withRoles(
        metric<&Metrics::peak_pending_retries>("peak_pending_retries", "Peak pending retries", "",
                                               "most retries waiting out their backoff at once",
                                               kLower, {ReportPart::pending_retries}),
        {.resource_present = hasRetries}),
    withRoles(
        metric<&Metrics::time_to_recover_s>(
            "time_to_recover_s", "Time to recover", "s",
            "from the last red health span's end until no second fails checkouts (lane threshold)",
            kLower, {ReportPart::checkouts_per_second}),
        {.gate_rank = 8, .shown_undefined = true}),
};
}  // namespace

std::span<const MetricInfo> metricRegistry() {
  return kRegistry;
}

const MetricInfo* findMetric(std::string_view name) {
  for (const auto& m : kRegistry)
    if (m.name == name) return &m;
  return nullptr;
}

std::uint8_t rankIn(const MetricInfo& metric, MetricList list) {
  switch (list) {
    case MetricList::workbench_headline:
      return metric.roles.workbench_rank;
    case MetricList::tune_summary:
      return metric.roles.tune_rank;
    case MetricList::gate_headline:
      return metric.roles.gate_rank;
  }
  return 0;
}

std::vector<const MetricInfo*> metricsIn(MetricList list) {
  std::vector<const MetricInfo*> out;
  for (const MetricInfo& m : kRegistry)
    if (rankIn(m, list) > 0) out.push_back(&m);
  std::sort(out.begin(), out.end(), [list](const MetricInfo* a, const MetricInfo* b) {
    return rankIn(*a, list) < rankIn(*b, list);
  });
  return out;
}

bool metricRowApplies(const MetricInfo& metric, const Metrics& current, const Metrics& baseline) {
  const auto now = metric.get(current), before = metric.get(baseline);
  if (metric.roles.resource_present != nullptr)
    return metric.roles.resource_present(current) || metric.roles.resource_present(baseline) ||
           now.value_or(0) != 0 || before.value_or(0) != 0;
  return now || before || metric.roles.shown_undefined;
}

ReportParts reportPartsFor(std::span<const MetricInfo* const> metrics) {
  ReportParts parts;
  for (const MetricInfo* m : metrics) parts |= m->needs;
  return parts;
}

}  // namespace breakerlab
