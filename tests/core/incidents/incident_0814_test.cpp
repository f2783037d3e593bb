// INC-2026-0814: the calibration checks the checkout lane the workbench draws against the lane
// the incident file records (issue 33, item 9), and says how far off the replay is. What is
// asserted comes from the file's recorded lane; what the model replays is only compared with it.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"

namespace breakerlab {
namespace {

TEST(Incident0814, CalibrationChecksTheCheckoutLaneAgainstTheRecord) {
  const Incident inc =
      loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/inc-2026-0814-orders.yaml");
  const Lane* recorded = inc.recorded.lane("checkout");
  ASSERT_NE(recorded, nullptr);
  const Result deployed = simulate(inc, inc.deployed);
  const std::vector<ExpectationResult> checks = evaluateCalibration(inc.expect, inc, deployed);

  // The file's expect: checks no lane, so calibration adds the checkout lane's check, at the
  // lane's resolution (one bucket), with compareLanes' verdict.
  ASSERT_EQ(checks.size(), inc.expect.size() + 1);
  const ExpectationResult& lane = checks.back();
  ASSERT_NE(lane.expectation, nullptr);
  EXPECT_EQ(lane.expectation->kind, Expectation::Kind::lane);
  EXPECT_EQ(lane.expectation->lane, "checkout");
  EXPECT_EQ(lane.expectation->within, inc.checkout_lane.bucket);
  EXPECT_EQ(lane.passed,
            compareLanes(*recorded, deployed.checkout, inc.checkout_lane.bucket).matches);

  // How far off, over the whole recorded lane: each recorded state for as long as the file
  // records it, and each of the file's edges where the file puts it.
  const LaneAgreement a = laneAgreement(*recorded, deployed.checkout);
  std::map<std::string, Micros> recorded_for;
  for (const LaneInterval& i : recorded->intervals) recorded_for[i.state] += i.to - i.from;
  EXPECT_EQ(a.span, recorded->intervals.back().to - recorded->intervals.front().from);
  ASSERT_EQ(a.states.size(), recorded_for.size());
  for (const LaneStateAgreement& s : a.states) EXPECT_EQ(s.recorded, recorded_for[s.state]);
  ASSERT_EQ(a.edges.size(), recorded->intervals.size() - 1);
  for (std::size_t k = 0; k < a.edges.size(); ++k) {
    EXPECT_EQ(a.edges[k].at, recorded->intervals[k].to);
    EXPECT_EQ(a.edges[k].from, recorded->intervals[k].state);
    EXPECT_EQ(a.edges[k].to, recorded->intervals[k + 1].state);
  }
  // The report says it: the check's text holds the summary, matched or not.
  EXPECT_NE(lane.actual.find(a.summary()), std::string::npos) << lane.actual;
  // The file's own checks are evaluated as before, in its order.
  for (std::size_t k = 0; k < inc.expect.size(); ++k)
    EXPECT_EQ(checks[k].expectation, &inc.expect[k]);
}

}  // namespace
}  // namespace breakerlab
