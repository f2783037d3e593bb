// The brackets' text and spans from hand-made breaker lanes and metrics, no widget and no replay
// (as hotspot tests its TimeLineData apart from the delegate).
#include "lanes/lane_brackets.h"

#include <gtest/gtest.h>

namespace breakerlab::views {
namespace {

// A breaker lane of (state, from, to) in seconds.
Result withBreaker(std::initializer_list<std::tuple<const char*, double, double>> spans) {
  Result r;
  for (const auto& [state, from, to] : spans)
    r.breaker.intervals.push_back({state, fromSeconds(from), fromSeconds(to), ""});
  return r;
}

std::vector<std::string> labelsOf(const std::vector<LaneBracket>& brackets) {
  std::vector<std::string> labels;
  for (const LaneBracket& b : brackets) labels.push_back(b.label.toStdString());
  return labels;
}

TEST(LaneBrackets, SecondsHaveOneDecimalBelowTenAndNoneAbove) {
  const std::pair<double, const char*> cases[] = {
      {2.9, "2.9"}, {2.0, "2"},   {0.05, "0.1"}, {9.94, "9.9"},
      {9.96, "10"}, {14.4, "14"}, {20.0, "20"},  {125.6, "126"},
  };
  for (const auto& [s, text] : cases) EXPECT_EQ(bracketSeconds(s).toStdString(), text) << s;
}

TEST(LaneBrackets, TimeToTripComesFirstThenEachOpenSpellThenTheCachedWhileHealthyStretch) {
  Result r = withBreaker({{"closed", 0, 10},
                          {"open", 10, 30},
                          {"half-open", 30, 31},
                          {"open", 31, 40},
                          {"closed", 40, 60}});
  r.metrics.time_to_trip_s = 2.9;
  r.metrics.time_to_close_after_recovery_s = 14;
  const std::vector<LaneBracket> b = laneBrackets(r, "Pricing");
  EXPECT_EQ(labelsOf(b), (std::vector<std::string>{"2.9 s to trip", "open 20 s", "open 9 s",
                                                   "14 s cached while Pricing healthy"}));
  ASSERT_EQ(b.size(), 4u);
  // The trip bracket ends where the breaker first opened and reaches back the time to trip.
  EXPECT_DOUBLE_EQ(b[0].to, 10);
  EXPECT_DOUBLE_EQ(b[0].from, 10 - 2.9);
  EXPECT_EQ(b[0].line, 0);
  EXPECT_DOUBLE_EQ(b[1].from, 10);
  EXPECT_DOUBLE_EQ(b[1].to, 30);
  // The cached stretch ends at the last close and sits on the line above.
  EXPECT_DOUBLE_EQ(b[3].to, 40);
  EXPECT_DOUBLE_EQ(b[3].from, 26);
  EXPECT_EQ(b[3].line, 1);
}

TEST(LaneBrackets, WhatTheReplayDoesNotDefineIsNotBracketed) {
  // Never opened: no trip and no open spell, whatever the metric says.
  Result closed = withBreaker({{"closed", 0, 60}});
  closed.metrics.time_to_trip_s = 3;
  EXPECT_TRUE(laneBrackets(closed, "Pricing").empty());
  // Open with no time to trip (the first failure is not in the window): the spell alone.
  Result open = withBreaker({{"closed", 0, 5}, {"open", 5, 12}});
  EXPECT_EQ(labelsOf(laneBrackets(open, "Pricing")), std::vector<std::string>{"open 7 s"});
  // Closing at once after recovery (50 ms or less) is not a stretch worth a bracket.
  Result quick = withBreaker({{"closed", 0, 5}, {"open", 5, 12}, {"closed", 12, 20}});
  quick.metrics.time_to_close_after_recovery_s = 0.05;
  EXPECT_EQ(laneBrackets(quick, "Pricing").size(), 1u);
  // Never closed again: no cached-while-healthy stretch to end.
  Result stuck = withBreaker({{"closed", 0, 5}, {"open", 5, 60}});
  stuck.metrics.time_to_close_after_recovery_s = 30;
  EXPECT_EQ(laneBrackets(stuck, "Pricing").size(), 1u);
}

TEST(LaneBrackets, AnUnnamedDependencyIsTheDependency) {
  Result r = withBreaker({{"closed", 0, 5}, {"open", 5, 12}, {"closed", 12, 20}});
  r.metrics.time_to_close_after_recovery_s = 3;
  EXPECT_EQ(labelsOf(laneBrackets(r, QString())).back(), "3 s cached while the dependency healthy");
}

}  // namespace
}  // namespace breakerlab::views
