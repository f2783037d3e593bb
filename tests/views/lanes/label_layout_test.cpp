#include "lanes/label_layout.h"

#include <gtest/gtest.h>

#include <vector>

namespace breakerlab::views {
namespace {

struct EventCase {
  const char* what;
  std::vector<LabelRequest> requests;
  int lines;
  std::vector<int> expected_lines;
  std::vector<bool> expected_hang_left;
};

TEST(LabelLayout, EventLabelsTakeTheFirstLineWithRoom) {
  const std::vector<EventCase> cases = {
      {"apart: all on the first line",
       {{0, 50}, {100, 50}, {200, 50}},
       4,
       {0, 0, 0},
       {false, false, false}},
      {"crowded: down the lines",
       {{0, 50}, {10, 50}, {20, 50}},
       4,
       {0, 1, 2},
       {false, false, false}},
      {"no room left: dropped",
       {{0, 50}, {10, 50}, {20, 50}},
       2,
       {0, 1, -1},
       {false, false, false}},
      {"a later label fits back on line 0",
       {{0, 50}, {10, 50}, {60, 50}},
       4,
       {0, 1, 0},
       {false, false, false}},
      {"near the right edge: hangs left", {{390, 50}, {200, 50}}, 4, {0, 0}, {true, false}},
      {"touching is not overlapping", {{0, 50}, {50, 50}}, 1, {0, 0}, {false, false}},
      {"wider than the area: hangs right from its anchor", {{10, 500}}, 1, {0}, {false}},
  };
  for (const auto& c : cases) {
    const auto places = placeEventLabels(c.requests, 0, 400, c.lines);
    ASSERT_EQ(places.size(), c.requests.size()) << c.what;
    for (std::size_t i = 0; i < places.size(); ++i) {
      EXPECT_EQ(places[i].line, c.expected_lines[i]) << c.what << " #" << i;
      EXPECT_EQ(places[i].hang_left, c.expected_hang_left[i]) << c.what << " #" << i;
    }
  }
}

TEST(LabelLayout, ThousandsOfEventLabelsNeverOverlapOnALine) {
  std::vector<LabelRequest> requests;
  for (int i = 0; i < 10'000; ++i) requests.push_back({i * 0.08, 40.0 + i % 30});
  const auto places = placeEventLabels(requests, 0, 800, 4);
  for (std::size_t i = 0; i < places.size(); ++i) {
    if (places[i].line < 0) continue;
    EXPECT_GE(places[i].left, 0);
    EXPECT_LE(places[i].right, 800);
    for (std::size_t j = 0; j < i; ++j) {
      if (places[j].line != places[i].line) continue;
      ASSERT_FALSE(places[j].left < places[i].right && places[i].left < places[j].right)
          << i << " overlaps " << j;
    }
  }
}

TEST(LabelLayout, BracketLabelsSitOnTheVisiblePartOfTheirBracket) {
  struct Case {
    const char* what;
    double x0, x1;
    int line;
    double centre;
  };
  const Case cases[] = {
      {"whole bracket on screen: centred", 100, 300, 0, 200},
      {"runs off the left: centred on what is visible", -1000, 100, 0, 50},
      {"runs off the right", 300, 5000, 0, 350},
      {"off screen: hidden", -500, -10, -1, 0},
      {"off the right: hidden", 450, 900, -1, 0},
      {"narrower than the minimum on screen: hidden", 398.5, 900, -1, 0},
      {"label wider than the visible part: kept inside the area", -100, 10, 0, 30},
  };
  for (const auto& c : cases) {
    std::vector<std::pair<double, double>> taken;
    const LabelPlace p = placeBracketLabel(c.x0, c.x1, 60, 0, 400, 3, taken);
    EXPECT_EQ(p.line, c.line) << c.what;
    if (c.line == 0) {
      EXPECT_DOUBLE_EQ((p.left + p.right) / 2, c.centre) << c.what;
    }
    EXPECT_EQ(taken.size(), c.line == 0 ? 1u : 0u) << c.what;
  }
}

TEST(LabelLayout, ABracketLabelThatWouldOverlapAnotherIsLeftOut) {
  std::vector<std::pair<double, double>> taken;
  EXPECT_EQ(placeBracketLabel(100, 200, 60, 0, 400, 3, taken).line, 0);
  EXPECT_EQ(placeBracketLabel(120, 220, 60, 0, 400, 3, taken).line, -1);
  EXPECT_EQ(placeBracketLabel(250, 350, 60, 0, 400, 3, taken).line, 0);
}

TEST(LabelLayout, EventsCloserThanTheJoinFoldIntoClusters) {
  const std::vector<double> xs = {0, 5, 11, 40, 41, 100};
  const auto clusters = clusterByPixels(xs, 12);
  ASSERT_EQ(clusters.size(), 3u);
  EXPECT_EQ(clusters[0].begin, 0u);
  EXPECT_EQ(clusters[0].end, 3u);  // a chain: 0-5-11, each within 12 of the one before
  EXPECT_EQ(clusters[1].size(), 2u);
  EXPECT_EQ(clusters[2].size(), 1u);
  EXPECT_EQ(clusterByPixels(std::vector<double>{0, 12}, 12).size(), 2u);  // exactly the join
  EXPECT_TRUE(clusterByPixels({}, 12).empty());
}

// A flapping breaker: transitions 20 px apart do not join (12 px) but would stack their 100 px
// labels four deep; five or more of them, each within 48 px, fold into one cluster.
TEST(LabelLayout, ACrowdOfTransitionsFoldsIntoOneCluster) {
  struct Case {
    const char* what;
    std::vector<double> xs;
    std::vector<std::pair<std::size_t, std::size_t>> clusters;
  };
  const Case cases[] = {
      {"a flapping run of six, 20 px apart", {0, 20, 40, 60, 80, 100}, {{0, 6}}},
      {"four are too few for a crowd: each alone",
       {0, 20, 40, 60},
       {{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
      {"exactly five", {0, 40, 80, 120, 160}, {{0, 5}}},
      {"a gap of exactly the crowd distance breaks the run",
       {0, 20, 40, 60, 80, 128, 400},
       {{0, 5}, {5, 6}, {6, 7}}},
      {"joins inside a short run still join", {0, 5, 30, 300, 305, 311}, {{0, 2}, {2, 3}, {3, 6}}},
      {"two crowds", {0, 10, 20, 30, 40, 500, 510, 520, 530, 540}, {{0, 5}, {5, 10}}},
      {"none", {}, {}},
  };
  for (const Case& c : cases) {
    const auto got = clusterCrowds(c.xs, 12, 48, 5);
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const Cluster& k : got) ranges.emplace_back(k.begin, k.end);
    EXPECT_EQ(ranges, c.clusters) << c.what;
  }
}

}  // namespace
}  // namespace breakerlab::views
