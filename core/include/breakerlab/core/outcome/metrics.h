#pragma once
// The metrics of one run, each defined precisely in docs/metrics.md, and a
// registry that names them for expectations, the CLI and the GUI.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

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
  std::uint64_t retries_refused = 0;      // retries the budget, token bucket or throttling refused
  std::uint64_t client_throttled = 0;     // attempts the client's adaptive throttling refused
  double amplification = 0;               // dependency calls per checkout
  std::optional<double> calls_per_failed_checkout;  // attempts of the failed checkouts
  std::uint32_t trips = 0;                          // closed -> open transitions
  std::uint32_t reopens = 0;                        // half-open -> open transitions
  // The fleet's breakers (one per pod, or one shared that every pod in service stands behind).
  std::uint32_t pod_trips = 0;           // closed -> open over all pods
  double pod_seconds_open = 0;           // summed over pods in service
  double any_pod_open_s = 0;             // at least one pod's breaker open
  double all_pods_open_s = 0;            // every pod's breaker open
  std::optional<double> trip_spread_s;   // first trips: last pod's minus first pod's
  std::optional<double> close_spread_s;  // last closes: last pod's minus first pod's
  // Per pod: its breaker not closed while the dependency's health was green (max, mean).
  std::optional<double> pod_cached_while_healthy_max_s;
  std::optional<double> pod_cached_while_healthy_mean_s;

  double latency_p50_ms = 0;
  double latency_p95_ms = 0;
  double latency_p99_ms = 0;
  double latency_max_ms = 0;

  // Resources (absent when unlimited).
  std::optional<double> peak_pool_utilization_pct;
  std::optional<double> pool_wait_share_pct;  // attempts that waited for a connection
  std::optional<double> mean_pool_wait_ms;    // over all attempts that took a connection
  std::uint64_t pool_exhausted = 0;           // attempts that gave up waiting
  std::optional<double> peak_worker_utilization_pct;
  std::optional<double> worker_utilization_at_trip_pct;  // at the first trip in the window
  std::uint64_t worker_rejections = 0;                   // checkouts failed: no worker
  std::optional<std::uint32_t> min_pods_in_rotation;
  std::uint32_t pod_ejections = 0;
  std::uint64_t no_pod_rejections = 0;                    // checkouts failed: no pod in rotation
  std::optional<std::uint32_t> peak_calls_in_flight;      // attempts sent and not yet answered
  std::optional<double> mean_workers_busy;                // time average over the window
  std::optional<double> mean_pool_busy;                   // connections, time average
  double mean_call_ms = 0;                                // mean duration of the calls sent
  std::optional<double> dependency_load_while_unhealthy;  // calls/s while health is red
  std::optional<double> calls_to_failing_dependency;      // calls sent while health is red
  std::optional<double> peak_dependency_utilization_pct;  // busiest second, capped dependency
  std::optional<double> dependency_saturated_s;           // seconds at 99% of its ceiling or more
  std::uint32_t peak_pending_retries = 0;
  std::optional<double> time_to_recover_s;  // last health red -> green to failures settling
};

// Which way a metric's change is good, for colouring deltas and comparing runs. `neutral`: the
// change alone says nothing good or bad (checkouts served from cache go down both when more get
// a fresh price and when more fail; a breaker that trips more often may be doing its job), so
// its delta is not coloured; read it with the metrics that have a direction.
enum class MetricDirection : std::uint8_t { lower_is_better, higher_is_better, neutral };

// The parts of a replay's report that cost something on every call or checkout, beyond the
// outcomes and the counters every metric can be computed from. A replay that serves a few
// metrics only (each cell of a map, each config of a tune) follows just the parts they read.
enum class ReportPart : std::uint32_t {
  latency = 1u << 0,               // the checkout latency histogram (latency_p50_ms ...)
  worker_levels = 1u << 1,         // busy workers over time (peaks, means, per second)
  pool_levels = 1u << 2,           // connections in use over time
  pending_retries = 1u << 3,       // retries waiting out their backoff over time
  calls_in_flight = 1u << 4,       // calls sent and not yet answered over time
  pods_in_rotation = 1u << 5,      // pods in rotation per second (a series, no metric)
  calls_per_second = 1u << 6,      // dependency calls and failures per second
  dependency_use = 1u << 7,        // a capped dependency's servers in use per second
  lanes_and_events = 1u << 8,      // the checkout and pods lanes and the events
  checkouts_per_second = 1u << 9,  // checkouts and their outcomes per second
};

// A set of report parts.
class ReportParts {
 public:
  constexpr ReportParts() = default;
  constexpr ReportParts(std::initializer_list<ReportPart> parts) {
    for (const ReportPart p : parts) bits_ |= static_cast<std::uint32_t>(p);
  }
  static constexpr ReportParts whole() { return ReportParts(kAll); }
  constexpr bool has(ReportPart p) const { return (bits_ & static_cast<std::uint32_t>(p)) != 0; }
  constexpr bool isWhole() const { return bits_ == kAll; }
  constexpr bool contains(ReportParts other) const { return (other.bits_ & ~bits_) == 0; }
  constexpr ReportParts& operator|=(ReportParts other) {
    bits_ |= other.bits_;
    return *this;
  }
  constexpr bool operator==(const ReportParts&) const = default;

 private:
  static constexpr std::uint32_t kAll = (1u << 10) - 1;
  constexpr explicit ReportParts(std::uint32_t bits) : bits_(bits) {}
  std::uint32_t bits_ = 0;
};

// The short lists a metric appears in besides the full tables, each ordered by rank (1 first;
// 0: not in the list). Every list is derived from the registry (metricsIn), never typed again.
enum class MetricList : std::uint8_t {
  workbench_headline,  // the metrics panel's first rows and the report's, in this order
  tune_summary,        // a tuned config's table, after the goals' and the minimised metrics
  gate_headline,       // what `breakerlab-cli gate` compares by default (docs/ci-gate.md)
};

struct MetricRoles {
  std::uint8_t workbench_rank = 0;
  std::uint8_t tune_rank = 0;
  std::uint8_t gate_rank = 0;
  // Its "—" says something about the run (the breaker never tripped, never closed again): the
  // row is shown even when neither run defines it. Other metrics undefined in both runs measure
  // something neither run has, and their rows are hidden.
  bool shown_undefined = false;
  // A count of a resource (connections, workers, health-checked pods, retries): zero rather than
  // undefined without it, so its row is hidden while no run has the resource and the count is
  // zero in both. nullptr for other metrics.
  bool (*resource_present)(const Metrics&) = nullptr;
};

struct MetricInfo {
  std::string_view name;
  std::string_view label;  // short, for tables: "Time to trip"
  std::string_view unit;   // "", "s", "ms", "%"
  std::string_view description;
  std::optional<double> (*get)(const Metrics&);
  MetricDirection direction;
  bool integral;      // a count: shown without decimals
  ReportParts needs;  // what a replay must follow for this metric to be right
  MetricRoles roles = {};
};

std::span<const MetricInfo> metricRegistry();
const MetricInfo* findMetric(std::string_view name);

// The metrics of `list`, in its order.
std::vector<const MetricInfo*> metricsIn(MetricList list);
// A metric's rank in `list` (0: not in it).
std::uint8_t rankIn(const MetricInfo& metric, MetricList list);

// Whether the metrics panel (and the report) shows `metric`'s row for a run against its
// baseline: defined in either, shown when undefined, or a resource either run has.
bool metricRowApplies(const MetricInfo& metric, const Metrics& current, const Metrics& baseline);

// What a replay must follow for every one of `metrics` to be right.
ReportParts reportPartsFor(std::span<const MetricInfo* const> metrics);

}  // namespace breakerlab
