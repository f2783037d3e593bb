#include <gtest/gtest.h>

#include <set>

#include "breakerlab/core/expectations.h"

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

}  // namespace
}  // namespace breakerlab
