#pragma once
// The metrics of one run (DESIGN §5), each defined precisely in docs/metrics.md, and a
// registry that names them for expectations, the CLI and the GUI.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace breakerlab {

struct Metrics {
  std::uint64_t checkouts = 0;
  std::uint64_t fresh_checkouts = 0;
  std::uint64_t cached_checkouts = 0;
  std::uint64_t failed_checkouts = 0;
  double failed_pct = 0;

  double cached_window_s = 0;                            // time the breaker was not closed
  std::uint64_t cached_window_checkouts = 0;             // cached checkouts that arrived then
  double cached_while_healthy_s = 0;                     // not closed while health was green
  std::optional<double> time_to_trip_s;                  // first failed call's start -> first open
  std::optional<double> time_to_close_after_recovery_s;  // last health green -> closed
  double oldest_cached_price_s = 0;

  std::uint64_t dependency_calls = 0;
  std::uint64_t dependency_failures = 0;  // calls that ended in a breaker-counted failure
  std::uint64_t rejected_calls = 0;       // calls the breaker refused
  std::uint64_t retries = 0;              // attempts after the first of a request
  std::uint64_t retries_refused = 0;      // retries the budget or token bucket did not allow
  double amplification = 0;               // dependency calls per checkout
  std::uint32_t trips = 0;                // closed -> open transitions
  std::uint32_t reopens = 0;              // half-open -> open transitions

  double latency_p50_ms = 0;
  double latency_p95_ms = 0;
  double latency_p99_ms = 0;
  double latency_max_ms = 0;
};

struct MetricInfo {
  std::string_view name;
  std::string_view label;  // short, for tables: "Time to trip"
  std::string_view unit;   // "", "s", "ms", "%"
  std::string_view description;
  std::optional<double> (*get)(const Metrics&);
  bool lower_is_better;
  bool integral;  // a count: shown without decimals
};

std::span<const MetricInfo> metricRegistry();
const MetricInfo* findMetric(std::string_view name);

}  // namespace breakerlab
