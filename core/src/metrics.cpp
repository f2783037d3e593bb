#include "breakerlab/core/metrics.h"

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

constexpr MetricDirection kLower = MetricDirection::lower_is_better;
constexpr MetricDirection kHigher = MetricDirection::higher_is_better;
constexpr MetricDirection kNeutral = MetricDirection::neutral;

// Definitions: docs/metrics.md (with each one's direction). Order is the order of reports.
constexpr std::array kRegistry = {
    metric<&Metrics::checkouts>("checkouts", "Checkouts", "",
                                "checkout requests that arrived in the window", kNeutral),
    metric<&Metrics::fresh_checkouts>("fresh_checkouts", "Fresh", "",
                                      "checkouts served a fresh price from the dependency",
                                      kHigher),
    metric<&Metrics::cached_checkouts>("cached_checkouts", "Cached", "",
                                       "checkouts served a cached price", kNeutral),
    metric<&Metrics::failed_checkouts>("failed_checkouts", "Failed checkouts", "",
                                       "checkouts that failed (no fresh or cached price)", kLower),
    metric<&Metrics::failed_pct>("failed_pct", "Failed share", "%",
                                 "failed checkouts as a share of all checkouts", kLower),
    metric<&Metrics::cached_window_s>("cached_window_s", "Cached-serving window", "s",
                                      "time the breaker was not closed (cached serving)", kNeutral),
    metric<&Metrics::cached_window_checkouts>(
        "cached_window_checkouts", "Cached while not closed", "",
        "cached checkouts that arrived while the breaker was not closed", kNeutral),
    metric<&Metrics::cached_while_healthy_s>(
        "cached_while_healthy_s", "Cached while healthy", "s",
        "time the breaker was not closed while the dependency's health was green", kLower),
    metric<&Metrics::time_to_trip_s>(
        "time_to_trip_s", "Time to trip", "s",
        "from the start of the first failed call of the episode to the first trip", kLower),
    metric<&Metrics::time_to_close_after_recovery_s>(
        "time_to_close_after_recovery_s", "Time to close after recovery", "s",
        "from the dependency's health turning green to the breaker closing", kLower),
    metric<&Metrics::oldest_cached_price_s>("oldest_cached_price_s", "Oldest cached price", "s",
                                            "age of the oldest cached price served", kLower),
    metric<&Metrics::dependency_calls>("dependency_calls", "Calls to the dependency", "",
                                       "calls sent to the dependency", kNeutral),
    metric<&Metrics::dependency_failures>("dependency_failures", "Failed calls", "",
                                          "dependency calls that ended in a counted failure",
                                          kLower),
    metric<&Metrics::rejected_calls>("rejected_calls", "Rejected by the breaker", "",
                                     "calls the breaker rejected without reaching the dependency",
                                     kNeutral),
    metric<&Metrics::retries>("retries", "Retries", "", "attempts after the first of a request",
                              kLower),
    metric<&Metrics::retries_refused>("retries_refused", "Retries refused", "",
                                      "retries the retry budget or token bucket did not allow",
                                      kNeutral),
    metric<&Metrics::amplification>("amplification", "Calls per checkout", "",
                                    "dependency calls per checkout", kLower),
    metric<&Metrics::trips>("trips", "Trips", "", "closed-to-open transitions", kNeutral),
    metric<&Metrics::reopens>("reopens", "Reopens", "", "half-open-to-open transitions", kNeutral),
    metric<&Metrics::latency_p50_ms>("latency_p50_ms", "Latency p50", "ms",
                                     "median checkout latency", kLower, {ReportPart::latency}),
    metric<&Metrics::latency_p95_ms>("latency_p95_ms", "Latency p95", "ms",
                                     "95th percentile checkout latency", kLower,
                                     {ReportPart::latency}),
    metric<&Metrics::latency_p99_ms>("latency_p99_ms", "Latency p99", "ms",
                                     "99th percentile checkout latency", kLower,
                                     {ReportPart::latency}),
    metric<&Metrics::latency_max_ms>("latency_max_ms", "Latency max", "ms", "slowest checkout",
                                     kLower, {ReportPart::latency}),
    metric<&Metrics::calls_per_failed_checkout>(
        "calls_per_failed_checkout", "Calls per failed checkout", "",
        "attempts per failed checkout that reached the dependency (not refused a worker or pod)",
        kLower),
    metric<&Metrics::mean_call_ms>("mean_call_ms", "Mean call", "ms",
                                   "mean duration of the dependency calls sent (the pool's hold)",
                                   kLower),
    metric<&Metrics::peak_pool_utilization_pct>(
        "peak_pool_utilization_pct", "Peak pool use", "%",
        "most connections in use at once, as a share of all pods' pools", kLower,
        {ReportPart::pool_levels}),
    metric<&Metrics::mean_pool_busy>("mean_pool_busy", "Mean connections in use", "",
                                     "time-average connections in use over all pods", kLower,
                                     {ReportPart::pool_levels}),
    metric<&Metrics::pool_wait_share_pct>("pool_wait_share_pct", "Waited for a connection", "%",
                                          "share of connection acquisitions that had to wait",
                                          kLower),
    metric<&Metrics::mean_pool_wait_ms>("mean_pool_wait_ms", "Mean pool wait", "ms",
                                        "mean wait for a connection over all acquisitions", kLower),
    metric<&Metrics::pool_exhausted>("pool_exhausted", "No connection", "",
                                     "attempts that gave up waiting for a connection", kLower),
    metric<&Metrics::peak_worker_utilization_pct>(
        "peak_worker_utilization_pct", "Peak worker use", "%",
        "most workers busy at once, as a share of all pods' workers", kLower,
        {ReportPart::worker_levels}),
    metric<&Metrics::mean_workers_busy>("mean_workers_busy", "Mean workers busy", "",
                                        "time-average busy workers over all pods", kLower,
                                        {ReportPart::worker_levels}),
    metric<&Metrics::worker_utilization_at_trip_pct>(
        "worker_utilization_at_trip_pct", "Worker use at trip", "%",
        "mean busy workers over the 10 s up to the breaker's first trip in the window", kLower,
        {ReportPart::worker_levels}),
    metric<&Metrics::worker_rejections>("worker_rejections", "No worker", "",
                                        "checkouts failed: every worker busy, queue full", kLower),
    metric<&Metrics::min_pods_in_rotation>("min_pods_in_rotation", "Fewest pods in rotation", "",
                                           "fewest pods the load balancer kept in rotation",
                                           kHigher),
    metric<&Metrics::pod_ejections>("pod_ejections", "Pod ejections", "",
                                    "pods taken out of rotation by failed health checks", kLower),
    metric<&Metrics::no_pod_rejections>("no_pod_rejections", "No pod", "",
                                        "checkouts failed: no pod in rotation", kLower),
    metric<&Metrics::peak_calls_in_flight>("peak_calls_in_flight", "Peak calls in flight", "",
                                           "most dependency calls sent and not yet answered",
                                           kLower, {ReportPart::calls_in_flight}),
    metric<&Metrics::dependency_load_while_unhealthy>(
        "dependency_load_while_unhealthy", "Load while unhealthy", "/s",
        "dependency calls per second while its health check was red", kLower,
        {ReportPart::calls_per_second}),
    metric<&Metrics::peak_dependency_utilization_pct>(
        "peak_dependency_utilization_pct", "Peak dependency use", "%",
        "busiest second of a capped dependency: mean share of its ceiling in use", kLower,
        {ReportPart::dependency_use}),
    metric<&Metrics::dependency_saturated_s>(
        "dependency_saturated_s", "Dependency saturated", "s",
        "seconds a capped dependency had 99% or more of its ceiling in use", kLower,
        {ReportPart::dependency_use}),
    metric<&Metrics::peak_pending_retries>("peak_pending_retries", "Peak pending retries", "",
                                           "most retries waiting out their backoff at once", kLower,
                                           {ReportPart::pending_retries}),
    metric<&Metrics::time_to_recover_s>(
        "time_to_recover_s", "Time to recover", "s",
        "from the last red health span's end until no second fails checkouts (lane threshold)",
        kLower, {ReportPart::checkouts_per_second}),
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

ReportParts reportPartsFor(std::span<const MetricInfo* const> metrics) {
  ReportParts parts;
  for (const MetricInfo* m : metrics) parts |= m->needs;
  return parts;
}

}  // namespace breakerlab
