// How a search's unit cube maps onto knob values: on the knob's step, inside the range, by
// ratio on a log range, without repeats on a grid.
#include <gtest/gtest.h>

#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/outcome/expectations.h"

namespace breakerlab {
namespace {

KnobRange range(std::string_view id, double low, double high, bool log = false) {
  const KnobSpec* knob = findKnob(id);
  EXPECT_NE(knob, nullptr) << id;
  return KnobRange{knob, low, high, log};
}

TEST(SearchSpace, ValuesLieOnTheKnobsStepInsideTheRange) {
  struct Case {
    const char* id;
    double low, high;
    bool log;
    double unit, value;
  };
  const Case cases[] = {
      {"breaker.open.interval", 1, 30, false, 0, 1},
      {"breaker.open.interval", 1, 30, false, 1, 30},
      {"breaker.open.interval", 1, 30, false, 0.5, 15.5},
      {"breaker.open.interval", 1, 100, true, 0.5, 10},    // by ratio: the middle of 1..100 is 10
      {"breaker.half_open.probes", 1, 10, false, 0.5, 6},  // a count: 5.5 rounds up
      {"breaker.half_open.probes", 1, 10, false, 0.44, 5},
      {"breaker.open.early_probe.enabled", 0, 1, false, 0.49, 0},
      {"breaker.open.early_probe.enabled", 0, 1, false, 0.51, 1},
      {"breaker.open.interval", 1, 30, false, -3, 1},  // clamped
      {"breaker.open.interval", 1, 30, false, 7, 30},
  };
  for (const Case& c : cases) {
    const KnobRange r = range(c.id, c.low, c.high, c.log);
    EXPECT_DOUBLE_EQ(valueAt(r, c.unit), c.value) << c.id << " at " << c.unit;
  }
}

TEST(SearchSpace, ValuesAreMonotoneAndRoundTripThroughTheUnitCube) {
  const KnobRange r = range("breaker.open.interval", 0.5, 60, true);
  double last = 0;
  for (int i = 0; i <= 1000; ++i) {
    const double v = valueAt(r, i / 1000.0);
    EXPECT_GE(v, last);
    EXPECT_GE(v, 0.5);
    EXPECT_LE(v, 60);
    EXPECT_DOUBLE_EQ(valueAt(r, unitOf(r, v)), v);
    last = v;
  }
}

TEST(SearchSpace, GridsSpreadTheRangeWithBothEndsAndNoRepeats) {
  EXPECT_EQ(gridValues(range("breaker.open.interval", 1, 5), 5),
            (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(gridValues(range("breaker.open.interval", 1, 100, true), 3),
            (std::vector<double>{1, 10, 100}));
  // A toggle has two values however many points are asked for.
  EXPECT_EQ(gridValues(range("breaker.open.early_probe.enabled", 0, 1), 7),
            (std::vector<double>{0, 1}));
  EXPECT_EQ(gridValues(range("breaker.half_open.probes", 1, 3), 9), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(gridValues(range("breaker.open.interval", 2, 9), 1), (std::vector<double>{2}));
}

TEST(SearchSpace, BadRangesAreNamed) {
  EXPECT_EQ(rangeProblem(range("breaker.open.interval", 1, 30)), "");
  EXPECT_NE(rangeProblem(range("breaker.open.interval", 30, 1)), "");
  EXPECT_NE(rangeProblem(range("breaker.open.interval", 0, 30, true)), "");
  EXPECT_NE(rangeProblem(range("breaker.open.early_probe.enabled", 0, 1, true)), "");
  EXPECT_NE(rangeProblem(KnobRange{}), "");
}

TEST(SearchSpace, AConfigTakesEachKnobsValue) {
  const KnobRange knobs[] = {range("breaker.open.interval", 1, 30),
                             range("breaker.open.early_probe.enabled", 0, 1)};
  const double values[] = {7, 1};
  const Config c = configWith(Config{}, knobs, values);
  EXPECT_EQ(c.breaker.open_interval, 7 * kSecond);
  EXPECT_TRUE(c.breaker.early_probe);
}

Expectation goal(std::string metric, CompareOp op, double value, double tolerance = 0) {
  Expectation e;
  e.metric = std::move(metric);
  e.op = op;
  e.value = value;
  e.tolerance = tolerance;
  return e;
}

TEST(FailedCheckoutsAllowed, TheMostFailuresThatCanStillMeetEveryGoal) {
  using O = CompareOp;
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_checkouts", O::eq, 0)}), 0u);
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_checkouts", O::le, 3)}), 3u);
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_checkouts", O::lt, 3)}), 2u);
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_checkouts", O::lt, 2.5)}), 2u);
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_checkouts", O::eq, 10, 2)}), 12u);
  EXPECT_EQ(failedCheckoutsAllowed(
                {goal("failed_checkouts", O::le, 5), goal("failed_checkouts", O::le, 2)}),
            2u);
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_checkouts", O::ge, 1)}), std::nullopt);
  EXPECT_EQ(failedCheckoutsAllowed({goal("failed_pct", O::lt, 5)}), std::nullopt);
  EXPECT_EQ(failedCheckoutsAllowed({}), std::nullopt);
}

}  // namespace
}  // namespace breakerlab
