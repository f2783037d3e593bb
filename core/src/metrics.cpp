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

template <auto Member>
constexpr MetricInfo metric(std::string_view name, std::string_view label, std::string_view unit,
                            std::string_view description, bool lower_is_better) {
  using Field = std::remove_cvref_t<decltype(std::declval<Metrics>().*Member)>;
  return {
      name, label, unit, description, field<Member>, lower_is_better, std::is_integral_v<Field>};
}

// Definitions: docs/metrics.md. Order is the order of reports.
constexpr std::array kRegistry = {
    metric<&Metrics::checkouts>("checkouts", "Checkouts", "",
                                "checkout requests that arrived in the window", false),
    metric<&Metrics::fresh_checkouts>("fresh_checkouts", "Fresh", "",
                                      "checkouts served a fresh price from the dependency", false),
    metric<&Metrics::cached_checkouts>("cached_checkouts", "Cached", "",
                                       "checkouts served a cached price", true),
    metric<&Metrics::failed_checkouts>("failed_checkouts", "Failed checkouts", "",
                                       "checkouts that failed (no fresh or cached price)", true),
    metric<&Metrics::failed_pct>("failed_pct", "Failed share", "%",
                                 "failed checkouts as a share of all checkouts", true),
    metric<&Metrics::cached_window_s>("cached_window_s", "Cached-serving window", "s",
                                      "time the breaker was not closed (cached serving)", true),
    metric<&Metrics::cached_window_checkouts>(
        "cached_window_checkouts", "Cached while not closed", "",
        "cached checkouts that arrived while the breaker was not closed", true),
    metric<&Metrics::cached_while_healthy_s>(
        "cached_while_healthy_s", "Cached while healthy", "s",
        "time the breaker was not closed while the dependency's health was green", true),
    metric<&Metrics::time_to_trip_s>(
        "time_to_trip_s", "Time to trip", "s",
        "from the start of the first failed call of the episode to the first trip", true),
    metric<&Metrics::time_to_close_after_recovery_s>(
        "time_to_close_after_recovery_s", "Time to close after recovery", "s",
        "from the dependency's health turning green to the breaker closing", true),
    metric<&Metrics::oldest_cached_price_s>("oldest_cached_price_s", "Oldest cached price", "s",
                                            "age of the oldest cached price served", true),
    metric<&Metrics::dependency_calls>("dependency_calls", "Calls to the dependency", "",
                                       "calls sent to the dependency", true),
    metric<&Metrics::dependency_failures>("dependency_failures", "Failed calls", "",
                                          "dependency calls that ended in a counted failure", true),
    metric<&Metrics::rejected_calls>("rejected_calls", "Rejected by the breaker", "",
                                     "calls the breaker rejected without reaching the dependency",
                                     false),
    metric<&Metrics::retries>("retries", "Retries", "", "attempts after the first of a request",
                              true),
    metric<&Metrics::retries_refused>("retries_refused", "Retries refused", "",
                                      "retries the retry budget or token bucket did not allow",
                                      false),
    metric<&Metrics::amplification>("amplification", "Calls per checkout", "",
                                    "dependency calls per checkout", true),
    metric<&Metrics::trips>("trips", "Trips", "", "closed-to-open transitions", true),
    metric<&Metrics::reopens>("reopens", "Reopens", "", "half-open-to-open transitions", true),
    metric<&Metrics::latency_p50_ms>("latency_p50_ms", "Latency p50", "ms",
                                     "median checkout latency", true),
    metric<&Metrics::latency_p95_ms>("latency_p95_ms", "Latency p95", "ms",
                                     "95th percentile checkout latency", true),
    metric<&Metrics::latency_p99_ms>("latency_p99_ms", "Latency p99", "ms",
                                     "99th percentile checkout latency", true),
    metric<&Metrics::latency_max_ms>("latency_max_ms", "Latency max", "ms", "slowest checkout",
                                     true),
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

}  // namespace breakerlab
