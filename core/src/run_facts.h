#pragma once
// What the event loop hands to the report builder besides the per-checkout records.
#include <cstdint>
#include <vector>

#include "breakerlab/core/breaker.h"
#include "breakerlab/core/incident.h"
#include "breakerlab/core/result.h"
#include "health_timeline.h"
#include "latency_histogram.h"

namespace breakerlab {

// Outcomes of the checkouts that arrived in one bucket of the checkout lane.
struct LaneBucket {
  std::uint32_t total = 0;
  std::uint32_t cached = 0;
  std::uint32_t failed = 0;
  std::uint32_t slow = 0;
};

struct RunFacts {
  std::vector<BreakerTransition> transitions;
  std::vector<ProbeResult> probes;
  std::uint64_t dependency_calls = 0;
  std::uint64_t dependency_failures = 0;
  std::uint64_t rejected_calls = 0;
  std::uint64_t retries = 0;
  std::uint64_t retries_refused = 0;  // by the retry budget or token bucket
  Micros oldest_cached_age = 0;
};

// Fills lanes, events and metrics of `result` (whose records and series are complete).
void buildReport(const Incident& incident, const Config& config, const HealthTimeline& health,
                 RunFacts& facts, Result& result);

}  // namespace breakerlab
