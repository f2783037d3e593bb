#pragma once
// The dependency as a request log recorded it: a call the log holds (the same request and
// attempt, started at about the same time) gets the answer it got then; any other call (a probe
// the original breaker never sent, an extra retry, the lead-in) gets the answer of a recorded
// call near its start within the same segment of the dependency (the change-point summary, so
// an outage's edges stay sharp), picked by the counter-based generator.
#include <cstdint>
#include <memory>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/inputs/recorded_calls.h"
#include "dependency/dependency_answer.h"
#include "dependency/random.h"

namespace breakerlab {

class RecordedDependency {
 public:
  // A recorded call answers a replayed one only when they started within this of each other;
  // further apart, the dependency may well have changed (a retry after another backoff).
  static constexpr Micros kSameCallWindow = kSecond;
  // How many recorded calls around a start time an unrecorded call draws from: enough to
  // smooth one odd answer, few enough (under a second at tens of calls per second) to keep an
  // outage's edges sharp.
  static constexpr std::size_t kNeighbours = 32;

  RecordedDependency() = default;
  // `first_arrival`: the index in Traffic::recorded of the window's first checkout, whose
  // request number in the simulation is 0. `segments`: the dependency's segments (contiguous,
  // in time order); an unrecorded call draws only from the recorded calls of its segment.
  RecordedDependency(std::shared_ptr<const RecordedCalls> calls, std::size_t first_arrival,
                     const std::vector<DependencySegment>& segments = {});

  bool active() const { return calls_ != nullptr && !calls_->start.empty(); }

  DependencyAnswer answer(Micros t, const CounterRng& rng, Stream stream, std::uint64_t request,
                          std::uint32_t attempt) const;

 private:
  DependencyAnswer answerOf(std::uint32_t call) const;

  std::shared_ptr<const RecordedCalls> calls_;
  std::size_t first_arrival_ = 0;
  // Per segment after the first: its start, and the index of its first recorded call.
  std::vector<Micros> segment_from_;
  std::vector<std::size_t> segment_first_call_;
};

}  // namespace breakerlab
