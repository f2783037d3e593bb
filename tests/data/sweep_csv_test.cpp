// A sensitivity map as CSV: the header, one row per cell in the map's order, knob values as
// --knob takes them, metrics read back exactly, undefined ones empty.
#include "breakerlab/data/sweep_csv.h"

#include <gtest/gtest.h>

#include <limits>

namespace breakerlab {
namespace {

SweepCell cell(std::size_t index, std::vector<double> values, std::vector<double> objectives,
               bool feasible, bool invalid = false) {
  SweepCell c;
  c.index = index;
  c.values = std::move(values);
  c.evaluation.objectives = std::move(objectives);
  c.evaluation.feasible = feasible;
  c.evaluation.invalid = invalid;
  return c;
}

TEST(SweepCsv, HeaderThenOneRowPerCellInOrder) {
  const KnobRange knobs[] = {{findKnob("breaker.open.interval"), 5, 10, false},
                             {findKnob("breaker.open.early_probe.enabled"), 0, 1, false}};
  const MetricInfo* metrics[] = {findMetric("cached_while_healthy_s"),
                                 findMetric("time_to_close_after_recovery_s")};
  const double inf = std::numeric_limits<double>::infinity();
  SweepResult sweep;
  sweep.axes = {{5, 10}, {0, 1}};
  sweep.cells = {cell(0, {5, 0}, {14.09, 14.09}, false), cell(1, {5, 1}, {2.05, 2.0}, true),
                 cell(2, {10, 0}, {0.1 + 0.2, inf}, false),
                 cell(3, {10, 1}, {inf, inf}, false, true)};
  EXPECT_EQ(sweepCsv(sweep, knobs, metrics),
            "breaker.open.interval,breaker.open.early_probe.enabled,cached_while_healthy_s,"
            "time_to_close_after_recovery_s,feasible\n"
            "5,0,14.09,14.09,0\n"
            "5,1,2.05,2,1\n"
            "10,0,0.30000000000000004,,0\n"
            "10,1,,,0\n");
}

TEST(SweepCsv, AChoiceIsWrittenAsItsConfigSpelling) {
  const KnobSpec* kind = findKnob("retry.backoff.kind");
  ASSERT_NE(kind, nullptr);
  ASSERT_GE(kind->choices.size(), 2u);
  const KnobRange knobs[] = {{kind, 0, 1, false}};
  const MetricInfo* metrics[] = {findMetric("failed_checkouts")};
  SweepResult sweep;
  sweep.axes = {{0, 1}};
  sweep.cells = {cell(0, {0}, {3}, false), cell(1, {1}, {0}, true)};
  EXPECT_EQ(sweepCsv(sweep, knobs, metrics), "retry.backoff.kind,failed_checkouts,feasible\n" +
                                                 std::string(kind->choices[0].id) + ",3,0\n" +
                                                 std::string(kind->choices[1].id) + ",0,1\n");
}

TEST(SweepCsv, ACancelledSweepHasTheRowsItReached) {
  const KnobRange knobs[] = {{findKnob("breaker.open.interval"), 1, 3, false}};
  const MetricInfo* metrics[] = {findMetric("failed_checkouts")};
  SweepResult sweep;
  sweep.axes = {{1, 2, 3}};
  sweep.cells = {cell(0, {1}, {0}, true)};
  sweep.cancelled = true;
  EXPECT_EQ(sweepCsv(sweep, knobs, metrics),
            "breaker.open.interval,failed_checkouts,feasible\n1,0,1\n");
}

}  // namespace
}  // namespace breakerlab
