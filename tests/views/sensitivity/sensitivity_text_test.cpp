#include "breakerlab/views/sensitivity_text.h"

#include <gtest/gtest.h>

#include <cmath>

#include "breakerlab/data/expectation_text.h"

namespace breakerlab::views {
namespace {

const KnobSpec& textKnob(std::string_view id) {
  const KnobSpec* k = findKnob(id);
  EXPECT_NE(k, nullptr) << id;
  return *k;
}

TEST(SensitivityText, KnobValuesReadAsTheKnobPanelWritesThem) {
  struct Case {
    const char* id;
    double value;
    const char* text;
  };
  const Case cases[] = {
      {"breaker.open.interval", 12.5, "12.5 s"},     {"breaker.open.interval", 0.5, "500 ms"},
      {"breaker.open.interval", 120, "2 min"},       {"timeout.attempt", 800, "800 ms"},
      {"breaker.open.early_probe.enabled", 1, "on"}, {"breaker.open.early_probe.enabled", 0, "off"},
      {"breaker.failure_rate", 50, "50%"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(knobValueText(textKnob(c.id), c.value), QString::fromUtf8(c.text))
        << c.id << " " << c.value;
}

TEST(SensitivityText, TitlesCarryTheUnitWhereTheTicksDoNot) {
  EXPECT_EQ(knobAxisTitle(textKnob("breaker.open.interval")), QStringLiteral("Open interval"));
  EXPECT_EQ(knobAxisTitle(textKnob("breaker.failure_rate")),
            QStringLiteral("Failure threshold (%)"));
  EXPECT_EQ(metricAxisTitle(*findMetric("cached_while_healthy_s")),
            QStringLiteral("Cached while healthy (s)"));
  EXPECT_EQ(metricAxisTitle(*findMetric("failed_checkouts")), QStringLiteral("Failed checkouts"));
}

TEST(SensitivityText, ACellsTooltipNamesItsKnobsMetricsAndTheGoalsItMisses) {
  SensitivityMap map;
  map.axes = {{findKnob("breaker.open.interval"), true, {5, 20}},
              {findKnob("breaker.open.early_probe.poll"), true, {1, 2}}};
  const MetricInfo* cached = findMetric("cached_while_healthy_s");
  map.metrics = {{cached, {1.5, 4.25, 2, std::nan("")}}};
  map.all_goals = {CellVerdict::met, CellVerdict::missed, CellVerdict::missed,
                   CellVerdict::unknown};
  map.goals = {
      {"failed_checkouts == 0",
       "failed_checkouts",
       CompareOp::eq,
       0,
       {CellVerdict::met, CellVerdict::met, CellVerdict::missed, CellVerdict::unknown}},
      {"cached_while_healthy_s <= 3",
       "cached_while_healthy_s",
       CompareOp::le,
       3,
       {CellVerdict::met, CellVerdict::missed, CellVerdict::missed, CellVerdict::unknown}}};
  EXPECT_EQ(cellToolTip(map, 0), QStringLiteral("Open interval 5 s · Health poll 1 s\n"
                                                "Cached while healthy: 1.50 s\n"
                                                "Meets all 2 goals"));
  EXPECT_EQ(cellToolTip(map, 1), QStringLiteral("Open interval 5 s · Health poll 2 s\n"
                                                "Cached while healthy: 4.25 s\n"
                                                "Misses: Cached while healthy ≤ 3 s"));
  EXPECT_EQ(cellToolTip(map, 2),
            QStringLiteral("Open interval 20 s · Health poll 1 s\n"
                           "Cached while healthy: 2.00 s\n"
                           "Misses: Failed checkouts = 0, Cached while healthy ≤ 3 s"));
  EXPECT_EQ(cellToolTip(map, 3), QStringLiteral("Open interval 20 s · Health poll 2 s\n"
                                                "Cached while healthy: —\n"
                                                "Not computed"));
  EXPECT_EQ(cellToolTip(map, 4), QString()) << "past the grid";
  EXPECT_EQ(goalBoundText(map.goals[1], cached), QStringLiteral("≤ 3 s"));
}

TEST(SensitivityText, AGoalIsNamedAsTheColourBoxNamesItAndALaneCheckAsWritten) {
  const SensitivityGoal pool{
      "peak_pool_utilization_pct < 100", "peak_pool_utilization_pct", CompareOp::lt, 100, {}};
  EXPECT_EQ(goalText(pool), QStringLiteral("Peak pool use < 100%"));
  const SensitivityGoal lane{
      "breaker lane matches recorded within 0.5s", "", CompareOp::le, 0.5, {}};
  EXPECT_EQ(goalText(lane), QStringLiteral("breaker lane matches recorded within 0.5s"));
}

}  // namespace
}  // namespace breakerlab::views
