#pragma once
// The synthetic fleet the fleet benchmarks share (BM_ReplayFleetOf1000 in replay_bench,
// BM_ScrollPods1000 in workbench_bench): 1,000 pods at 10,000 checkouts/s for 10 minutes (6 M
// checkouts), Pricing refusing 60% of calls from 2 to 5 minutes, built on 8 Sep's incident.
#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

inline Incident fleetOf1000(Incident inc) {
  inc.end = 600 * kSecond;
  inc.traffic.lead_in = 10 * kSecond;
  inc.traffic.rate = {{0, inc.end, 10'000, 10'000}};
  DependencySegment healthy = inc.dependency.segments.front();
  healthy.health = Health::green;
  healthy.mix_start = healthy.mix_end = OutcomeMix{};
  DependencySegment failing = healthy;
  failing.state = "refused";
  failing.health = Health::red;
  failing.mix_start = failing.mix_end = OutcomeMix{0, 0.6, 0, 0};
  DependencySegment a = healthy, b = failing, c = healthy;
  a.from = -inc.traffic.lead_in, a.to = 120 * kSecond;
  b.from = 120 * kSecond, b.to = 300 * kSecond;
  c.from = 300 * kSecond, c.to = inc.end;
  inc.dependency.segments = {a, b, c};
  inc.dependency.health = {{120 * kSecond, 300 * kSecond, Health::red}};
  inc.recorded = {};
  inc.expect.clear();
  inc.deployed.load_balancer.pods = 1000;
  return inc;
}

}  // namespace breakerlab
