#pragma once
// What the event loop hands to the report builder besides the per-checkout records.
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <vector>

#include "breakerlab/core/breakers/breaker.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/fleet.h"
#include "breakerlab/core/outcome/result.h"
#include "dependency/health_timeline.h"

namespace breakerlab {

struct RunFacts {
  // One breaker's transitions; with per-pod breakers, the fleet's at a glance
  // (FleetBreakers::summary) and each pod's in `fleet`.
  std::vector<BreakerTransition> transitions;
  FleetBreakers fleet;
  std::vector<ProbeResult> probes;
  std::uint64_t dependency_calls = 0;
  std::uint64_t dependency_failures = 0;
  std::uint64_t rejected_calls = 0;
  std::uint64_t retries = 0;
  std::uint64_t retries_refused = 0;   // by the retry budget, token bucket or throttling
  std::uint64_t client_throttled = 0;  // attempts the client's adaptive throttling refused
  Micros oldest_cached_age = 0;

  // Resources, over the window.
  std::uint64_t failed_checkout_attempts = 0;  // attempts made by checkouts that failed
  std::uint64_t failed_checkouts_with_attempts = 0;
  std::uint64_t call_duration_sum = 0;  // of the calls sent, microseconds
  std::uint64_t pool_acquisitions = 0;
  std::uint64_t pool_waits = 0;  // acquisitions that had to wait
  std::uint64_t pool_wait_sum = 0;
  std::uint64_t pool_exhausted = 0;
  std::uint64_t worker_rejections = 0;
  std::uint64_t no_pod_rejections = 0;
  std::optional<Micros> first_trip;  // in the window
  std::vector<double> workers_second_means;
  std::vector<double> dependency_utilization;  // per second, 0..1, when it has a ceiling  //
                                               // time-average busy workers per second
  struct PodEvent {
    Micros at;
    std::uint32_t pod;
    bool ejected;
    std::uint32_t in_rotation;  // after it
  };
  std::vector<PodEvent> pod_events;
  std::uint32_t pods = 1;
  std::uint32_t pods_in_rotation_at_start = 1;
  bool health_checks = false;
  std::uint32_t worker_capacity = 0;  // all pods; 0 = unlimited
  std::uint32_t pool_capacity = 0;
  bool dependency_limited = false;
  std::uint32_t peak_workers = 0, peak_pool = 0, peak_pending_retries = 0, peak_load = 0;
  double mean_workers = 0, mean_pool = 0;
};

// The counters of RunFacts that events only ever add to. A run that joins another's tail (see
// TailRun) takes what the other's events added from then on.
inline constexpr std::uint64_t RunFacts::*kFactCounters[] = {
    &RunFacts::dependency_calls,
    &RunFacts::dependency_failures,
    &RunFacts::rejected_calls,
    &RunFacts::retries,
    &RunFacts::retries_refused,
    &RunFacts::client_throttled,
    &RunFacts::failed_checkout_attempts,
    &RunFacts::failed_checkouts_with_attempts,
    &RunFacts::call_duration_sum,
    &RunFacts::pool_acquisitions,
    &RunFacts::pool_waits,
    &RunFacts::pool_wait_sum,
    &RunFacts::pool_exhausted,
    &RunFacts::worker_rejections,
    &RunFacts::no_pod_rejections,
};
using FactCounters = std::array<std::uint64_t, std::size(kFactCounters)>;

inline FactCounters countersOf(const RunFacts& facts) {
  FactCounters counters{};
  for (std::size_t i = 0; i < counters.size(); ++i) counters[i] = facts.*kFactCounters[i];
  return counters;
}

// Adds to `facts` what another run's counters gained from `from` to `to`.
inline void addCounterGains(RunFacts& facts, const FactCounters& to, const FactCounters& from) {
  for (std::size_t i = 0; i < to.size(); ++i) facts.*kFactCounters[i] += to[i] - from[i];
}

// Fills lanes, events and metrics of `result` (whose records and series are complete); of the
// report's `parts` (metrics.h), only those given.
void buildReport(const Incident& incident, const Config& config, const HealthTimeline& health,
                 RunFacts& facts, Result& result, ReportParts parts = ReportParts::whole());

}  // namespace breakerlab
