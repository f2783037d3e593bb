#include "sensitivity/goal_boundary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace breakerlab::views {
namespace {

// A grid drawn as text, top row first as it is seen: '+' met, '-' missed, '?' unknown.
VerdictGrid grid(const std::vector<std::string>& rows) {
  VerdictGrid g;
  g.ny = rows.size();
  g.nx = rows.empty() ? 0 : rows[0].size();
  g.cells.resize(g.nx * g.ny);
  for (std::size_t row = 0; row < g.ny; ++row) {
    const std::size_t y = g.ny - 1 - row;
    for (std::size_t x = 0; x < g.nx; ++x) {
      const char c = rows[row][x];
      g.cells[x * g.ny + y] = c == '+'   ? CellVerdict::met
                              : c == '-' ? CellVerdict::missed
                                         : CellVerdict::unknown;
    }
  }
  return g;
}

using Line = std::vector<GridPoint>;

struct Case {
  const char* what;
  std::vector<std::string> rows;
  std::size_t segments;
  std::vector<Line> lines;
};

TEST(GoalBoundary, RunsBetweenMetAndMissedCellsAndJoinsIntoLines) {
  const std::vector<Case> cases = {
      {"all met: no boundary", {"+++", "+++"}, 0, {}},
      {"all missed: no boundary", {"--", "--"}, 0, {}},
      {"left met, right missed: one straight line up the map",
       {"++--", "++--", "++--"},
       3,
       {{{2, 0}, {2, 3}}}},
      {"bottom met: one line across", {"---", "+++"}, 3, {{{0, 1}, {3, 1}}}},
      {"a staircase: one line with its corners",
       {"+--", "++-", "+++"},
       4,
       {{{1, 3}, {1, 2}, {2, 2}, {2, 1}, {3, 1}}}},
      {"one missed cell inside: a closed square",
       {"+++", "+-+", "+++"},
       4,
       {{{1, 1}, {1, 2}, {2, 2}, {2, 1}, {1, 1}}}},
      {"unknown cells make no boundary", {"+?-", "+?-"}, 0, {}},
      {"unknown beside met, missed beside both", {"+?", "+-"}, 1, {{{1, 0}, {1, 1}}}},
      {"a checkerboard's middle: four sides meet, the lines go straight through",
       {"+-", "-+"},
       4,
       {{{0, 1}, {2, 1}}, {{1, 0}, {1, 2}}}},
      {"a single cell: nothing to part", {"+"}, 0, {}},
      {"two separate regions: two lines", {"+-+", "+-+"}, 4, {{{1, 0}, {1, 2}}, {{2, 0}, {2, 2}}}},
  };
  for (const Case& c : cases) {
    const VerdictGrid g = grid(c.rows);
    const auto segments = boundarySegments(g);
    EXPECT_EQ(segments.size(), c.segments) << c.what;
    const auto lines = boundaryLines(segments);
    EXPECT_EQ(lines, c.lines) << c.what;
  }
}

TEST(GoalBoundary, EverySegmentIsInOneLineOnce) {
  // A noisy grid: whatever the shapes, the lines cover the segments exactly.
  VerdictGrid g;
  g.nx = 23;
  g.ny = 17;
  for (std::size_t i = 0; i < g.nx * g.ny; ++i)
    g.cells.push_back((i * 2654435761u >> 7) % 3 == 0 ? CellVerdict::missed
                      : (i * 40503u >> 3) % 11 == 0   ? CellVerdict::unknown
                                                      : CellVerdict::met);
  const auto segments = boundarySegments(g);
  ASSERT_FALSE(segments.empty());
  std::size_t covered = 0;
  for (const auto& line : boundaryLines(segments)) {
    ASSERT_GE(line.size(), 2u);
    for (std::size_t i = 1; i < line.size(); ++i) {
      const GridPoint a = line[i - 1], b = line[i];
      EXPECT_TRUE(a.x == b.x || a.y == b.y) << "lines run along the cells' sides";
      covered += static_cast<std::size_t>(std::abs(b.x - a.x) + std::abs(b.y - a.y));
    }
  }
  EXPECT_EQ(covered, segments.size());
}

TEST(GoalBoundary, AGridOfTheWrongSizeHasNoBoundary) {
  VerdictGrid g{3, 3, {CellVerdict::met, CellVerdict::missed}};
  EXPECT_TRUE(boundarySegments(g).empty());
}

}  // namespace
}  // namespace breakerlab::views
