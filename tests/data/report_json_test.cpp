#include <gtest/gtest.h>

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/report_json.h"
#include "test_support.h"

namespace breakerlab {
namespace {

Result sampleResult() {
  Result r;
  r.breaker.name = "breaker";
  r.breaker.intervals = {{"closed", 0, 11 * kSecond, ""}, {"open", 11 * kSecond, 20 * kSecond, ""}};
  r.dependency.name = "dependency";
  r.dependency.intervals = {{"healthy", 0, 20 * kSecond, ""}};
  r.events = {{11'500'000, EventKind::trip, "breaker", "10 of 20 failed"}};
  r.per_second.checkouts = {40, 41};
  r.per_second.fresh = {40, 0};
  r.per_second.cached = {0, 41};
  r.per_second.failed = {0, 0};
  r.per_second.dependency_calls = {40, 1};
  r.per_second.dependency_failures = {0, 1};
  r.metrics.checkouts = 81;
  r.metrics.time_to_trip_s = 2.5;
  return r;
}

TEST(ReplayJson, Shape) {
  Incident inc;
  inc.id = "X-1";
  inc.title = "A title";
  Lane recorded{"breaker", {{"closed", 0, 11 * kSecond, "ok"}}};
  inc.recorded.lanes.push_back(recorded);
  Expectation e;
  e.text = "trips == 0";
  e.line = 42;
  Checks checks;
  checks.calibration = {{&e, false, "1", {}}};
  const nlohmann::json j = replayToJson(inc, sampleResult(), checks);

  EXPECT_EQ(j["format"], "breakerlab-report/1");
  EXPECT_EQ(j["incident"]["id"], "X-1");
  EXPECT_EQ(j["incident"]["title"], "A title");
  for (const MetricInfo& m : metricRegistry())
    EXPECT_TRUE(j["metrics"].contains(std::string(m.name))) << m.name;
  EXPECT_EQ(j["metrics"]["checkouts"], 81.0);
  EXPECT_EQ(j["metrics"]["time_to_trip_s"], 2.5);
  EXPECT_TRUE(j["metrics"]["time_to_close_after_recovery_s"].is_null());

  ASSERT_EQ(j["lanes"]["breaker"].size(), 2u);
  EXPECT_EQ(j["lanes"]["breaker"][1]["state"], "open");
  EXPECT_EQ(j["lanes"]["breaker"][1]["from"], 11.0);
  EXPECT_EQ(j["lanes"]["breaker"][1]["to"], 20.0);
  EXPECT_TRUE(j["lanes"]["health"].is_array());
  EXPECT_TRUE(j["lanes"]["checkout"].is_array());
  EXPECT_EQ(j["recorded_lanes"]["breaker"][0]["label"], "ok");

  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["at"], 11.5);
  EXPECT_EQ(j["events"][0]["kind"], "trip");
  EXPECT_EQ(j["events"][0]["lane"], "breaker");
  EXPECT_EQ(j["events"][0]["label"], "10 of 20 failed");

  ASSERT_EQ(j["expectations"].size(), 1u);
  EXPECT_EQ(j["expectations"][0]["text"], "trips == 0");
  EXPECT_EQ(j["expectations"][0]["line"], 42);
  EXPECT_EQ(j["expectations"][0]["passed"], false);
  EXPECT_EQ(j["expectations"][0]["actual"], "1");

  EXPECT_EQ(j["per_second"]["checkouts"], nlohmann::json({40, 41}));
  EXPECT_EQ(j["per_second"]["dependency_failures"], nlohmann::json({0, 1}));
  for (const char* key : {"fresh", "cached", "failed", "dependency_calls"})
    EXPECT_EQ(j["per_second"][key].size(), 2u) << key;
}

TEST(ReplayJson, BundledIncidentReplay) {
  const Incident inc = loadIncident(test::resourcePath(test::kPricingIncident));
  const Result result = simulate(inc, inc.deployed);
  Checks checks;
  checks.calibration = evaluate(inc.expect, inc, result);
  checks.goals = evaluate(inc.goals, inc, result);
  checks.baseline_goals = checks.goals;
  const nlohmann::json j = replayToJson(inc, result, checks);
  EXPECT_EQ(j["incident"]["id"], "INC-2026-0908");
  EXPECT_EQ(j["expectations"].size(), inc.expect.size());
  EXPECT_EQ(j["calibration"].size(), inc.expect.size());
  EXPECT_TRUE(j["checks"].empty());
  ASSERT_FALSE(inc.goals.empty());
  EXPECT_EQ(j["goals"]["total"], inc.goals.size());
  EXPECT_EQ(j["goals"]["met"], j["goals"]["deployed_met"]);
  EXPECT_EQ(j["goals"]["verdict"], "same");
  EXPECT_EQ(j["goals"]["results"].size(), inc.goals.size());
  EXPECT_EQ(j["goals"]["results"][0]["deployed_passed"], j["goals"]["results"][0]["passed"]);
  EXPECT_EQ(j["recorded_lanes"]["breaker"].size(), 6u);
  EXPECT_FALSE(j["lanes"]["breaker"].empty());
  EXPECT_EQ(j["per_second"]["checkouts"].size(), result.per_second.checkouts.size());
  // Round trip through text.
  EXPECT_EQ(nlohmann::json::parse(j.dump()), j);
}

TEST(ReplayJson, ResourceSeriesPodsLaneAndPodEvents) {
  Result r = sampleResult();
  r.pods.name = "pods";
  r.pods.intervals = {{"8 of 8", 0, 5 * kSecond, ""}, {"7 of 8", 5 * kSecond, 20 * kSecond, ""}};
  r.events.push_back({5 * kSecond, EventKind::pod_ejected, "pods", "pod 3 out"});
  r.events.push_back({9 * kSecond, EventKind::pod_returned, "pods", "pod 3 back"});
  r.per_second.workers_busy = {200, 180};
  r.per_second.pool_busy = {20, 20};
  r.per_second.pending_retries = {0, 12};
  r.per_second.dependency_load = {40, 41};
  r.per_second.pods_in_rotation = {8, 7};
  const nlohmann::json j = replayToJson(Incident{}, r, Checks{});
  ASSERT_EQ(j["lanes"]["pods"].size(), 2u);
  EXPECT_EQ(j["lanes"]["pods"][1]["state"], "7 of 8");
  EXPECT_EQ(j["lanes"]["pods"][1]["from"], 5.0);
  ASSERT_EQ(j["events"].size(), 3u);
  EXPECT_EQ(j["events"][1]["kind"], "pod_ejected");
  EXPECT_EQ(j["events"][2]["kind"], "pod_returned");
  EXPECT_EQ(j["per_second"]["workers_busy"], nlohmann::json({200, 180}));
  EXPECT_EQ(j["per_second"]["pool_busy"], nlohmann::json({20, 20}));
  EXPECT_EQ(j["per_second"]["pending_retries"], nlohmann::json({0, 12}));
  EXPECT_EQ(j["per_second"]["dependency_load"], nlohmann::json({40, 41}));
  EXPECT_EQ(j["per_second"]["pods_in_rotation"], nlohmann::json({8, 7}));
  // Without the resource the series and the lane are empty, not missing.
  const nlohmann::json plain = replayToJson(Incident{}, sampleResult(), Checks{});
  EXPECT_TRUE(plain["lanes"]["pods"].is_array());
  EXPECT_TRUE(plain["lanes"]["pods"].empty());
  for (const char* key :
       {"workers_busy", "pool_busy", "pending_retries", "dependency_load", "pods_in_rotation"}) {
    ASSERT_TRUE(plain["per_second"].contains(key)) << key;
    EXPECT_TRUE(plain["per_second"][key].empty()) << key;
  }
}

TEST(ReplayJson, PodLanesOfPerPodBreakers) {
  Result r = sampleResult();
  Lane pod1{"pod 1", {{"closed", 0, 3 * kSecond, ""}, {"open", 3 * kSecond, 20 * kSecond, ""}}};
  Lane pod2{"pod 2", {{"no pod", 0, 8 * kSecond, ""}, {"closed", 8 * kSecond, 20 * kSecond, ""}}};
  r.pod_breakers = {pod1, pod2};
  const nlohmann::json j = replayToJson(Incident{}, r, Checks{});
  ASSERT_EQ(j["pod_lanes"].size(), 2u);
  EXPECT_EQ(j["pod_lanes"][0][1]["state"], "open");
  EXPECT_EQ(j["pod_lanes"][0][1]["from"], 3.0);
  EXPECT_EQ(j["pod_lanes"][1][0]["state"], "no pod");
  // One breaker for the fleet: an empty list, not a missing key.
  const nlohmann::json plain = replayToJson(Incident{}, sampleResult(), Checks{});
  EXPECT_TRUE(plain["pod_lanes"].is_array());
  EXPECT_TRUE(plain["pod_lanes"].empty());
}

TEST(BreakerReplayJson, Shape) {
  const std::vector<LoggedCall> calls = {{0, 100, CallOutcome::success},
                                         {kSecond, 100, CallOutcome::timeout}};
  BreakerReplay replay;
  replay.permitted = {true, false};
  replay.transitions = {
      {500'000, BreakerState::closed, BreakerState::open, BreakerTransition::Cause::consecutive}};
  const nlohmann::json j = breakerReplayToJson(calls, replay);
  EXPECT_EQ(j["format"], "breakerlab-breaker-report/1");
  ASSERT_EQ(j["calls"].size(), 2u);
  EXPECT_EQ(j["calls"][1]["index"], 1);
  EXPECT_EQ(j["calls"][1]["start"], 1.0);
  EXPECT_EQ(j["calls"][1]["outcome"], "timeout");
  EXPECT_EQ(j["calls"][1]["permitted"], false);
  ASSERT_EQ(j["transitions"].size(), 1u);
  EXPECT_EQ(j["transitions"][0]["at"], 0.5);
  EXPECT_EQ(j["transitions"][0]["from"], std::string(toString(BreakerState::closed)));
  EXPECT_EQ(j["transitions"][0]["to"], std::string(toString(BreakerState::open)));
  EXPECT_EQ(j["transitions"][0]["cause"],
            std::string(toString(BreakerTransition::Cause::consecutive)));
  EXPECT_EQ(j["summary"]["rejected"], 1);
}

}  // namespace
}  // namespace breakerlab
