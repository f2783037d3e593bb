#pragma once
// The client side of the model besides the breaker and the pods (client_pods.h): the calls in
// flight, cache-first refreshes, each pod's adaptive throttling, and the dependency's servers as
// the client meets them. All of
// it is plain data so that the lead-in's end state can be copied into a ReplayCache.
#include <cstdint>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "dependency/dependency_servers.h"
#include "replay/parts/adaptive_throttle.h"

namespace breakerlab {

struct ClientState {
  // `ceiling_moves`: a timed change may scale the dependency's ceiling (RunShape::ceiling_moves).
  explicit ClientState(std::uint32_t keys, const DependencyCapacity& capacity,
                       bool ceiling_moves = false)
      : refreshing(keys, 0), refreshed_at(keys, kNever), servers(capacity, ceiling_moves) {}

  std::uint32_t calls_in_flight = 0;  // over all pods

  std::vector<std::uint8_t> refreshing;  // per key: a background refresh is in flight
  std::vector<Micros> refreshed_at;      // per key: when the last refresh started
  std::uint32_t refreshes = 0;           // refresh request ids

  DependencyServers servers;

  // The adaptive throttling of each pod (client_throttling), empty while it is off.
  std::vector<AdaptiveThrottle> throttles;
};

}  // namespace breakerlab
