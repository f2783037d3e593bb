#include <gtest/gtest.h>

#include "breakerlab/core/inputs/lanes.h"

namespace breakerlab {
namespace {

Lane lane(std::initializer_list<std::tuple<const char*, double, double>> spans) {
  Lane l{"breaker", {}};
  for (auto [state, from, to] : spans) l.append(state, fromSeconds(from), fromSeconds(to));
  return l;
}

TEST(Lanes, AppendMergesEqualNeighbours) {
  Lane l = lane({{"closed", 0, 5}, {"closed", 5, 8}, {"open", 8, 9}});
  ASSERT_EQ(l.intervals.size(), 2u);
  EXPECT_EQ(l.intervals[0].to, 8 * kSecond);
  EXPECT_EQ(l.stateAt(7 * kSecond), "closed");
  EXPECT_EQ(l.stateAt(8 * kSecond), "open");
  EXPECT_TRUE(l.stateAt(9 * kSecond).empty());
}

TEST(Lanes, CompareWithinTolerance) {
  const Lane recorded = lane({{"closed", 0, 11}, {"open", 11, 31}, {"closed", 31, 60}});
  const Lane close = lane({{"closed", 0, 11.4}, {"open", 11.4, 31.4}, {"closed", 31.4, 60}});
  EXPECT_TRUE(compareLanes(recorded, close, 500 * kMillisecond).matches);
  const auto far = compareLanes(recorded, close, 300 * kMillisecond);
  EXPECT_FALSE(far.matches);
  EXPECT_EQ(far.worst_boundary_error, 400 * kMillisecond);
}

TEST(Lanes, CompareReportsDifferentStateSequences) {
  const Lane recorded = lane({{"closed", 0, 11}, {"open", 11, 60}});
  const Lane replayed = lane({{"closed", 0, 60}});
  const auto c = compareLanes(recorded, replayed, kSecond);
  EXPECT_FALSE(c.matches);
  EXPECT_NE(c.explanation.find("2 intervals"), std::string::npos) << c.explanation;
}

}  // namespace
}  // namespace breakerlab
