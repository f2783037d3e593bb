#pragma once
// What the event loop hands to the report builder besides the per-checkout records.
#include <cstdint>
#include <vector>

#include "breakerlab/core/breaker.h"
#include "breakerlab/core/incident.h"
#include "breakerlab/core/result.h"
#include "health_timeline.h"

namespace breakerlab {

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
