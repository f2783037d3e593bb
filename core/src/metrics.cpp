#include "breakerlab/core/metrics.h"

#include <array>

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

// Definitions: docs/metrics.md. Order is the order of reports.
constexpr std::array kRegistry = {
    MetricInfo{"checkouts", "Checkouts", "", "checkout requests that arrived in the window",
               field<&Metrics::checkouts>, false},
    MetricInfo{"fresh_checkouts", "Fresh", "", "checkouts served a fresh price from the dependency",
               field<&Metrics::fresh_checkouts>, false},
    MetricInfo{"cached_checkouts", "Cached", "", "checkouts served a cached price",
               field<&Metrics::cached_checkouts>, true},
    MetricInfo{"failed_checkouts", "Failed checkouts", "",
               "checkouts that failed (no fresh or cached price)",
               field<&Metrics::failed_checkouts>, true},
    MetricInfo{"failed_pct", "Failed share", "%", "failed checkouts as a share of all checkouts",
               field<&Metrics::failed_pct>, true},
    MetricInfo{"cached_window_s", "Cached-serving window", "s",
               "time the breaker was not closed (cached serving)", field<&Metrics::cached_window_s>,
               true},
    MetricInfo{"cached_window_checkouts", "Cached while not closed", "",
               "cached checkouts that arrived while the breaker was not closed",
               field<&Metrics::cached_window_checkouts>, true},
    MetricInfo{"cached_while_healthy_s", "Cached while healthy", "s",
               "time the breaker was not closed while the dependency's health was green",
               field<&Metrics::cached_while_healthy_s>, true},
    MetricInfo{"time_to_trip_s", "Time to trip", "s",
               "from the start of the first failed call of the episode to the first trip",
               field<&Metrics::time_to_trip_s>, true},
    MetricInfo{"time_to_close_after_recovery_s", "Time to close after recovery", "s",
               "from the dependency's health turning green to the breaker closing",
               field<&Metrics::time_to_close_after_recovery_s>, true},
    MetricInfo{"oldest_cached_price_s", "Oldest cached price", "s",
               "age of the oldest cached price served", field<&Metrics::oldest_cached_price_s>,
               true},
    MetricInfo{"dependency_calls", "Calls to the dependency", "", "calls sent to the dependency",
               field<&Metrics::dependency_calls>, true},
    MetricInfo{"dependency_failures", "Failed calls", "",
               "dependency calls that ended in a counted failure",
               field<&Metrics::dependency_failures>, true},
    MetricInfo{"rejected_calls", "Rejected by the breaker", "",
               "calls the breaker rejected without reaching the dependency",
               field<&Metrics::rejected_calls>, false},
    MetricInfo{"retries", "Retries", "", "attempts after the first of a request",
               field<&Metrics::retries>, true},
    MetricInfo{"amplification", "Calls per checkout", "", "dependency calls per checkout",
               field<&Metrics::amplification>, true},
    MetricInfo{"trips", "Trips", "", "closed-to-open transitions", field<&Metrics::trips>, true},
    MetricInfo{"reopens", "Reopens", "", "half-open-to-open transitions", field<&Metrics::reopens>,
               true},
    MetricInfo{"latency_p50_ms", "Latency p50", "ms", "median checkout latency",
               field<&Metrics::latency_p50_ms>, true},
    MetricInfo{"latency_p95_ms", "Latency p95", "ms", "95th percentile checkout latency",
               field<&Metrics::latency_p95_ms>, true},
    MetricInfo{"latency_p99_ms", "Latency p99", "ms", "99th percentile checkout latency",
               field<&Metrics::latency_p99_ms>, true},
    MetricInfo{"latency_max_ms", "Latency max", "ms", "slowest checkout",
               field<&Metrics::latency_max_ms>, true},
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
