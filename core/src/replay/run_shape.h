#pragma once
// What a run needs set up from its start, over its deployed config and timed changes.
#include <cstdint>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/timed_change.h"

namespace breakerlab {

// opossum times each call it wraps with its own timer: inside the retry loop that is every
// attempt; outside it the whole loop, as a deadline (opossum answers the caller then and lets the
// loop run on; the replay stops the loop there).
TimeoutConfig effectiveTimeout(const Config& c);

// What the whole run needs set up from its start, over the deployed config and every config
// its timed changes lead to: a pool that only a change limits must count connections from the
// start, the calls-in-flight wheel must span the longest timeout, and so on.
struct RunShape {
  bool resources = false;
  bool pool_tracked = false;  // some config limits the pool
  bool retries = false;       // some config retries
  bool breaker_switches = false;
  bool ceiling_moves = false;  // a change scales the dependency's ceiling (DependencyServers)
  Micros longest_timeout = 0;
  std::uint32_t max_pods = 1;
  std::uint32_t max_pool_capacity = 0;  // connections over all pods, at the most
  bool operator==(const RunShape&) const = default;

  // `changes` in time order.
  static RunShape of(const Config& deployed, const std::vector<TimedChange>& changes) {
    RunShape shape;
    Config c = deployed;
    shape.add(c, deployed);
    for (const TimedChange& change : changes) {
      applyChange(c, change);
      shape.add(c, deployed);
      for (const ConfigEdit& e : change.edits)
        shape.ceiling_moves = shape.ceiling_moves || e.key == TimedKey::dependency_capacity_scale;
    }
    return shape;
  }

 private:
  void add(const Config& c, const Config& deployed) {
    resources = resources || c.load_balancer.pods > 1 || c.workers.per_pod > 0 || c.pool.size > 0 ||
                c.load_balancer.health_check.enabled;
    pool_tracked = pool_tracked || c.pool.size > 0;
    retries = retries || c.retry.max_attempts > 1;
    breaker_switches = breaker_switches || c.breaker.enabled != deployed.breaker.enabled;
    longest_timeout = std::max(longest_timeout, effectiveTimeout(c).attempt);
    max_pods = std::max(max_pods, c.load_balancer.pods);
    max_pool_capacity = std::max(max_pool_capacity, c.pool.size * c.load_balancer.pods);
  }
};

}  // namespace breakerlab
