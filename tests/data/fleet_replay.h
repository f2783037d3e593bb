#pragma once
// 12 Sep's breaker at 40 pods, each pod with its own breaker, replayed with every call and
// rejection traced: the recorded fleet that the request-log and trace importers must read back.
#include <algorithm>
#include <cstdio>
#include <string>

#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab::test {

struct FleetReplay {
  Config config;
  CallTrace trace;
  Result result;
};

// `incident_file` (under resources/incidents) with `what_if`'s config (or the deployed one, when
// null), `pods` client pods (0: as configured), each pod with its own breaker.
inline FleetReplay perPodFleet(const char* incident_file, const char* what_if_name,
                               std::uint32_t pods = 0) {
  const Incident incident = loadIncident(resourcePath(std::string("incidents/") + incident_file));
  const WhatIf* what_if = what_if_name != nullptr ? incident.whatIf(what_if_name) : nullptr;
  EXPECT_TRUE(what_if_name == nullptr || what_if != nullptr);
  FleetReplay out;
  out.config = what_if != nullptr ? what_if->config : incident.deployed;
  out.config.breaker.scope = StateScope::per_pod;
  if (pods > 0) out.config.load_balancer.pods = pods;
  const std::vector<TimedChange>& changes =
      what_if != nullptr && what_if->changes ? *what_if->changes : incident.changes;
  out.result = simulate(incident, out.config, out.trace, &changes);
  EXPECT_FALSE(out.trace.rejections.empty());
  return out;
}

// 12 Sep's breaker at 40 pods: 16,140 s, 1,661 pod trips.
inline FleetReplay perPodFleetOf0912() {
  FleetReplay out = perPodFleet("inc-2026-0912-payment-timeout.yaml", "breaker-at-40-pods");
  EXPECT_EQ(out.result.pod_breakers.size(), 40u);
  return out;
}

// The imported pods' lanes against the replay's, the import's own `every pod` check's tolerance:
// the log starts at the first request's whole second, the replay at the incident's start.
inline PodLaneComparison comparedWithReplay(const Incident& imported, const Result& replay) {
  const auto check =
      std::find_if(imported.expect.begin(), imported.expect.end(), [](const Expectation& e) {
        return e.kind == Expectation::Kind::lane && e.lane == kEveryPodLane;
      });
  EXPECT_NE(check, imported.expect.end());
  if (check == imported.expect.end()) return {};
  EXPECT_GE(check->within, 500 * kMillisecond);
  std::vector<Lane> recorded = imported.recorded.pod_breakers;
  // The first checkout of the window (a lead-in's are before 0 and not in the record).
  const auto first = std::find_if(replay.checkouts.begin(), replay.checkouts.end(),
                                  [](const CheckoutRecord& r) { return r.arrival >= 0; });
  const Micros shift = first == replay.checkouts.end() ? 0 : first->arrival / kSecond * kSecond;
  for (Lane& lane : recorded)
    for (LaneInterval& i : lane.intervals) i.from += shift, i.to += shift;
  const PodLaneComparison c = comparePodLanes(recorded, replay.pod_breakers, check->within);
  std::printf("[ fleet ] within %.2f s: %s (states line up: %zu)\n", toSeconds(check->within),
              c.summary().c_str(), c.states_match);
  return c;
}

}  // namespace breakerlab::test
