// Calibration against a recorded fleet (issue 31, item 4): when the incident records each pod's
// breaker (Recorded::pod_breakers), calibrateShares fits the unknown failure shares so that every
// pod's lane comes out as recorded, not only the fleet at a glance.
#include <gtest/gtest.h>

#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/calibrate.h"
#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

// 8 Sep with four client pods, each with its own breaker: the failover's "timing out" segment
// ramps from 10% to 100% timeouts (the document). Its pods' lanes are the record; the ramp is
// then forgotten and fitted again from the record alone.
TEST(CalibrateFleet, TheSharesAreFittedSoThatEveryRecordedPodsLaneComesOutAgain) {
  Incident incident = loadIncident(test::resourcePath("incidents/inc-2026-0908-pricing.yaml"));
  Config config = incident.deployed;
  config.load_balancer.pods = 4;
  config.breaker.scope = StateScope::per_pod;
  const Result truth = simulate(incident, config);
  ASSERT_EQ(truth.pod_breakers.size(), 4u);
  incident.recorded.pod_breakers = truth.pod_breakers;
  const Lane fleet = fleetLaneOfPods(truth.pod_breakers, "breaker");
  std::size_t segment = 0;
  while (incident.dependency.segments[segment].state != "timing out") ++segment;

  Incident forgotten = incident;
  const CalibrationResult fit =
      calibrateShares(forgotten, config, {{segment, FittedShare::Outcome::timeout, 0, 0}}, fleet);
  ASSERT_EQ(fit.shares.size(), 1u);
  EXPECT_TRUE(fit.lane_matches) << fit.explanation;
  EXPECT_LE(fit.runs, plannedCalibrationRuns(1));
  const Result fitted = simulate(forgotten, config);
  const PodLaneComparison pods =
      comparePodLanes(incident.recorded.pod_breakers, fitted.pod_breakers, kSecond / 2);
  EXPECT_TRUE(pods.allMatch()) << pods.summary();
  EXPECT_LE(fit.worst_boundary_error, kSecond / 2);
  // Without the segment's timeouts the pods trip later: the record tells them apart.
  std::printf("[ calibrate fleet ] timeouts %.2f -> %.2f over the segment; %s\n",
              fit.shares[0].start, fit.shares[0].end, pods.summary().c_str());

  Incident no_timeouts = incident;
  no_timeouts.dependency.segments[segment].mix_start = OutcomeMix{};
  no_timeouts.dependency.segments[segment].mix_end = OutcomeMix{};
  EXPECT_FALSE(comparePodLanes(incident.recorded.pod_breakers,
                               simulate(no_timeouts, config).pod_breakers, kSecond / 2)
                   .allMatch());
}

}  // namespace
}  // namespace breakerlab
