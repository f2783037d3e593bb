#pragma once
// The dependency calls of a request log, as a counterfactual replay consults them: each recorded
// call's answer is what the dependency answers at that time. Packed as parallel arrays (18 bytes
// a call, 16 an arrival with its key) because a log holds tens of millions of calls.
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

struct RecordedCalls {
  static constexpr std::uint32_t kNone = 0xffffffffu;

  // The calls that reached the dependency (success, timeout, refused, server_error,
  // client_error), sorted by start; ties keep the log's order.
  std::vector<Micros> start;
  std::vector<std::uint32_t> duration;  // microseconds; a timeout's is how long the client waited
  std::vector<CallOutcome> outcome;
  std::vector<std::uint8_t> attempt;  // 0 = the request's first call
  // The same request's next recorded call (a higher attempt), or kNone.
  std::vector<std::uint32_t> next_of_request;
  // Per arrival (Traffic::recorded, same index): its first recorded call, or kNone when it made
  // none that reached the dependency (rejected by the client's breaker, no worker, no
  // connection, served from the cache).
  std::vector<std::uint32_t> first_of_request;

  std::size_t size() const { return start.size(); }
  std::uint64_t bytes() const {
    return start.capacity() * sizeof(Micros) + duration.capacity() * 4 + outcome.capacity() +
           attempt.capacity() + next_of_request.capacity() * 4 + first_of_request.capacity() * 4;
  }
};

// Empty when the calls are consistent with `arrivals` requests, else the first problem.
std::string validate(const RecordedCalls& calls, std::size_t arrivals);

}  // namespace breakerlab
