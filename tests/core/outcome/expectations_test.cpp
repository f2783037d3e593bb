#include <gtest/gtest.h>

#include <set>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"

namespace breakerlab {
namespace {

Expectation metric(std::string name, CompareOp op, double value, double tol = 0,
                   bool relative = false) {
  Expectation e;
  e.metric = std::move(name);
  e.op = op;
  e.value = value;
  e.tolerance = tol;
  e.tolerance_relative = relative;
  return e;
}

TEST(Expectations, MetricComparisonsWithTolerances) {
  Incident inc;
  Result r;
  r.metrics.cached_window_checkouts = 1770;
  r.metrics.failed_checkouts = 0;
  const std::vector<Expectation> e{
      metric("cached_window_checkouts", CompareOp::eq, 1760, 0.01, true),  // ±1%: pass
      metric("cached_window_checkouts", CompareOp::eq, 1760, 5),           // ±5: fail
      metric("failed_checkouts", CompareOp::le, 0),
      metric("failed_checkouts", CompareOp::gt, 0),
      metric("time_to_trip_s", CompareOp::lt, 5),  // undefined in this run: fails
  };
  const auto results = evaluate(e, inc, r);
  EXPECT_TRUE(results[0].passed);
  EXPECT_FALSE(results[1].passed);
  EXPECT_TRUE(results[2].passed);
  EXPECT_FALSE(results[3].passed);
  EXPECT_FALSE(results[4].passed);
  EXPECT_EQ(results[4].actual, "not defined in this run");
}

TEST(Expectations, LaneAgainstRecorded) {
  Incident inc;
  Lane recorded{"breaker", {}};
  recorded.append("closed", 0, 11 * kSecond);
  recorded.append("open", 11 * kSecond, 20 * kSecond);
  inc.recorded.lanes.push_back(recorded);
  Result r;
  r.breaker.name = "breaker";
  r.breaker.append("closed", 0, 11300 * kMillisecond);
  r.breaker.append("open", 11300 * kMillisecond, 20 * kSecond);
  Expectation e;
  e.kind = Expectation::Kind::lane;
  e.lane = "breaker";
  e.within = 500 * kMillisecond;
  EXPECT_TRUE(evaluate({e}, inc, r)[0].passed);
  e.within = 200 * kMillisecond;
  EXPECT_FALSE(evaluate({e}, inc, r)[0].passed);
  e.lane = "checkout";
  EXPECT_FALSE(evaluate({e}, inc, r)[0].passed);
}

TEST(Metrics, RegistryNamesEveryMetricOnce) {
  std::set<std::string_view> names;
  for (const auto& m : metricRegistry()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_EQ(findMetric(m.name), &m);
  }
  EXPECT_EQ(findMetric("no_such_metric"), nullptr);
  EXPECT_GE(names.size(), 20u);
}

// Each metric's direction, for colouring deltas: the outcome counts that move together (cached
// goes down when either fresh or failed goes up) and the breaker's own activity say nothing
// alone, so they are neutral; the rest have a better side.
TEST(Metrics, EveryMetricHasADirection) {
  const auto direction = [](std::string_view name) { return findMetric(name)->direction; };
  using D = MetricDirection;
  for (const char* name :
       {"checkouts", "cached_checkouts", "cached_window_s", "cached_window_checkouts",
        "dependency_calls", "rejected_calls", "retries_refused", "trips", "reopens"})
    EXPECT_EQ(direction(name), D::neutral) << name;
  for (const char* name : {"fresh_checkouts", "min_pods_in_rotation"})
    EXPECT_EQ(direction(name), D::higher_is_better) << name;
  for (const char* name : {"failed_checkouts", "failed_pct", "cached_while_healthy_s",
                           "time_to_close_after_recovery_s", "latency_p99_ms", "amplification",
                           "pod_ejections", "oldest_cached_price_s"})
    EXPECT_EQ(direction(name), D::lower_is_better) << name;
}

ExpectationResult outcome(bool passed) {
  return {nullptr, passed, {}, {}};
}

TEST(Goals, TheComparisonCountsTheGoalsEachRunMeets) {
  using V = GoalComparison::Verdict;
  struct Row {
    std::vector<bool> current, baseline;
    V verdict;
    std::size_t met, baseline_met;
  };
  const Row rows[] = {
      {{}, {}, V::none, 0, 0},
      {{true, true}, {false, false}, V::better, 2, 0},
      {{true, false}, {false, false}, V::better, 1, 0},
      {{false, false}, {true, false}, V::worse, 0, 1},
      {{true, false}, {true, false}, V::same, 1, 1},
      {{false, false}, {false, false}, V::same, 0, 0},
      {{true, false}, {false, true}, V::mixed, 1, 1},
  };
  for (const Row& row : rows) {
    std::vector<ExpectationResult> current, baseline;
    for (bool p : row.current) current.push_back(outcome(p));
    for (bool p : row.baseline) baseline.push_back(outcome(p));
    const GoalComparison c = compareGoals(current, baseline);
    EXPECT_EQ(c.verdict, row.verdict) << toString(row.verdict);
    EXPECT_EQ(c.total, row.current.size());
    EXPECT_EQ(c.met, row.met);
    EXPECT_EQ(c.baseline_met, row.baseline_met);
  }
  EXPECT_EQ(toString(V::better), "better");
  EXPECT_TRUE(allPassed({}));
  EXPECT_FALSE(allPassed({outcome(true), outcome(false)}));
}

TEST(Goals, ALaneCheckIsNotAGoal) {
  Incident inc;
  DependencySegment seg;
  seg.to = inc.end;
  inc.dependency.segments = {seg};
  ASSERT_EQ(validate(inc), "");
  Expectation lane;
  lane.kind = Expectation::Kind::lane;
  lane.lane = "breaker";
  lane.text = "breaker lane matches recorded within 0.5s";
  inc.goals = {metric("failed_checkouts", CompareOp::eq, 0), lane};
  EXPECT_NE(validate(inc).find("goals: 'breaker lane matches recorded within 0.5s' is a lane "
                               "check; goals compare metrics"),
            std::string::npos)
      << validate(inc);
  inc.expect = {lane};
  inc.goals.pop_back();
  EXPECT_EQ(validate(inc), "") << "a lane check is calibration";
}

}  // namespace
}  // namespace breakerlab
