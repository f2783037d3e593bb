#include "lanes/lane_fold.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace breakerlab::views {
namespace {

Folded fold(const std::vector<PixelBar>& bars, int left = 0, int right = 100) {
  Folded out;
  foldToPixels(bars, left, right, out);
  return out;
}

std::vector<StateShare> sharesOf(const Folded& f, const FoldedMark& m) {
  return {f.shares.begin() + m.shares_begin, f.shares.begin() + m.shares_end};
}

TEST(LaneFold, WideRunsStaySolidAndTakeTheBoundaryColumnByMajority) {
  // 0..10.3 state 0, 10.3..50.7 state 1, 50.7..100 state 2.
  const Folded f = fold({{0, 10.3, 0}, {10.3, 50.7, 1}, {50.7, 100, 2}});
  ASSERT_EQ(f.marks.size(), 3u);
  EXPECT_FALSE(f.marks[0].mixed());
  EXPECT_EQ(f.marks[0].x0, 0);
  EXPECT_EQ(f.marks[0].x1, 10);  // column 10 is 0.3 state 0, 0.7 state 1
  EXPECT_EQ(f.marks[1].state, 1u);
  EXPECT_EQ(f.marks[1].x0, 10);
  EXPECT_EQ(f.marks[1].x1, 51);  // column 50 is 0.7 state 1
  EXPECT_EQ(f.marks[2].x0, 51);
  EXPECT_EQ(f.marks[2].x1, 100);
  EXPECT_TRUE(f.shares.empty());
}

TEST(LaneFold, RunsOnColumnBoundariesDoNotSpillIntoTheNextColumn) {
  const Folded f = fold({{0, 10, 0}, {10, 20, 1}});
  ASSERT_EQ(f.marks.size(), 2u);
  EXPECT_EQ(f.marks[0].x1, 10);
  EXPECT_EQ(f.marks[1].x0, 10);
  EXPECT_EQ(f.marks[1].x1, 20);
}

TEST(LaneFold, SubPixelRunsBecomeOneMixedColumnWithEachStatesShare) {
  // Column 5 holds 0.25 of state 0, 0.5 of state 1 (a sliver) and 0.25 of state 2.
  const Folded f = fold({{0, 5.25, 0}, {5.25, 5.75, 1}, {5.75, 9, 2}});
  ASSERT_EQ(f.marks.size(), 3u);
  EXPECT_EQ(f.marks[0].x1, 5);
  ASSERT_TRUE(f.marks[1].mixed());
  EXPECT_EQ(f.marks[1].x0, 5);
  EXPECT_EQ(f.marks[1].x1, 6);
  const auto shares = sharesOf(f, f.marks[1]);
  ASSERT_EQ(shares.size(), 3u);
  EXPECT_EQ(shares[0].state, 0u);
  EXPECT_FLOAT_EQ(shares[0].share, 0.25f);
  EXPECT_EQ(shares[1].state, 1u);
  EXPECT_FLOAT_EQ(shares[1].share, 0.5f);
  EXPECT_FLOAT_EQ(shares[2].share, 0.25f);
  EXPECT_EQ(f.marks[2].x0, 6);
  EXPECT_EQ(f.marks[2].state, 2u);
}

TEST(LaneFold, AFlappingStateAddsUpItsTimeInEachColumn) {
  // 0.1 px open, 0.15 px closed, repeated: every column is 40% state 1, 60% state 0.
  std::vector<PixelBar> bars;
  for (double x = 0; x < 20 - 1e-9; x += 0.25) {
    bars.push_back({x, x + 0.1, 1});
    bars.push_back({x + 0.1, x + 0.25, 0});
  }
  const Folded f = fold(bars, 0, 20);
  ASSERT_EQ(f.marks.size(), 20u);
  for (const FoldedMark& m : f.marks) {
    ASSERT_TRUE(m.mixed());
    const auto shares = sharesOf(f, m);
    ASSERT_EQ(shares.size(), 2u);
    EXPECT_NEAR(shares[0].share, 0.6, 1e-4);  // ordered by state: 0 first
    EXPECT_NEAR(shares[1].share, 0.4, 1e-4);
  }
}

TEST(LaneFold, TenThousandTransitionsDrawAtMostOneMarkPerColumn) {
  std::vector<PixelBar> bars;
  const double width = 800;
  for (int i = 0; i < 10'000; ++i)
    bars.push_back(
        {width * i / 10'000, width * (i + 1) / 10'000, static_cast<std::uint32_t>(i % 3)});
  const Folded f = fold(bars, 0, static_cast<int>(width));
  EXPECT_LE(f.marks.size(), static_cast<std::size_t>(width));
  int previous_end = 0;
  for (const FoldedMark& m : f.marks) {
    EXPECT_EQ(m.x0, previous_end);  // no gap, no overlap
    EXPECT_GT(m.x1, m.x0);
    if (m.mixed()) {
      EXPECT_EQ(m.x1 - m.x0, 1);
    }
    previous_end = m.x1;
  }
  EXPECT_EQ(previous_end, static_cast<int>(width));
}

TEST(LaneFold, ClipsToTheAreaAndSkipsEmptyRuns) {
  const Folded f = fold({{-50, -10, 0}, {-10, 30, 1}, {30, 30, 2}, {30, 500, 0}}, 0, 100);
  ASSERT_EQ(f.marks.size(), 2u);
  EXPECT_EQ(f.marks[0].x0, 0);
  EXPECT_EQ(f.marks[0].x1, 30);
  EXPECT_EQ(f.marks[0].state, 1u);
  EXPECT_EQ(f.marks[1].x1, 100);
  EXPECT_TRUE(fold({}, 0, 100).marks.empty());
  EXPECT_TRUE(fold({{std::nan(""), 5, 0}}, 0, 100).marks.empty());
}

TEST(LaneFold, SameStateOnBothSidesOfASliverMergesNothingAcrossIt) {
  // A 0.2 px blip of state 1 inside state 0: one mixed column, solids either side.
  const Folded f = fold({{0, 10.4, 0}, {10.4, 10.6, 1}, {10.6, 20, 0}}, 0, 20);
  ASSERT_EQ(f.marks.size(), 3u);
  EXPECT_TRUE(f.marks[1].mixed());
  EXPECT_EQ(f.marks[1].x0, 10);
  const auto shares = sharesOf(f, f.marks[1]);
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_NEAR(shares[0].share, 0.8, 1e-5);
  EXPECT_NEAR(shares[1].share, 0.2, 1e-5);
}

TEST(LaneFold, ASliverAcrossAColumnBoundaryStillShows) {
  // 0.6 px of state 1 from 5.6 to 6.2: columns 5 and 6 both hold some of it.
  const Folded f = fold({{0, 5.6, 0}, {5.6, 6.2, 1}, {6.2, 20, 0}}, 0, 20);
  ASSERT_EQ(f.marks.size(), 4u);
  EXPECT_TRUE(f.marks[1].mixed());
  EXPECT_EQ(f.marks[1].x0, 5);
  EXPECT_TRUE(f.marks[2].mixed());
  EXPECT_EQ(f.marks[2].x0, 6);
  const auto shares = sharesOf(f, f.marks[1]);
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_NEAR(shares[1].share, 0.4, 1e-5);
}

TEST(LaneFold, RunsJustUnderAPixelWideAreMixedNotAFlicker) {
  std::vector<PixelBar> bars;
  for (int i = 0; i < 40; ++i)
    bars.push_back({i * 0.9, (i + 1) * 0.9, static_cast<std::uint32_t>(i % 2)});
  const Folded f = fold(bars, 0, 36);
  for (const FoldedMark& m : f.marks) EXPECT_TRUE(m.mixed()) << m.x0;
}

TEST(LaneFold, ReusesItsBuffers) {
  Folded out;
  std::vector<PixelBar> bars;
  for (int i = 0; i < 1000; ++i)
    bars.push_back({i * 0.3, (i + 1) * 0.3, static_cast<std::uint32_t>(i % 2)});
  foldToPixels(bars, 0, 300, out);
  const auto* marks = out.marks.data();
  const auto* shares = out.shares.data();
  foldToPixels(bars, 0, 300, out);
  EXPECT_EQ(out.marks.data(), marks);
  EXPECT_EQ(out.shares.data(), shares);
}

}  // namespace
}  // namespace breakerlab::views
