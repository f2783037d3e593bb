#include "sensitivity/sensitivity_grid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace breakerlab::views {
namespace {

void expectNear(const std::vector<double>& actual, const std::vector<double>& expected,
                const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-9 * std::max(1.0, std::abs(expected[i])))
        << what << " edge " << i;
}

TEST(SensitivityGrid, CellEdgesLieHalfwayOnTheAxissScale) {
  struct Case {
    const char* what;
    std::vector<double> values;
    bool log;
    std::vector<double> edges;
  };
  const Case cases[] = {
      {"even, linear", {5, 10, 15}, false, {2.5, 7.5, 12.5, 17.5}},
      {"uneven, linear: each edge between its neighbours", {1, 2, 4}, false, {0.5, 1.5, 3, 5}},
      {"log: geometric means, the ends by the next ratio",
       {1, 10, 100},
       true,
       {std::sqrt(0.1), std::sqrt(10.0), std::sqrt(1000.0), std::sqrt(100000.0)}},
      {"log on a step: uneven ratios",
       {0.5, 1, 2, 3},
       true,
       {0.5 / std::sqrt(2.0), std::sqrt(0.5), std::sqrt(2.0), std::sqrt(6.0), 3 * std::sqrt(1.5)}},
      {"a toggle", {0, 1}, false, {-0.5, 0.5, 1.5}},
      {"one value, linear", {20}, false, {18, 22}},
      {"one small value, linear: at least half a unit", {1}, false, {0.5, 1.5}},
      {"one value, log", {2}, true, {2 / 1.1, 2 * 1.1}},
      {"none", {}, false, {}},
  };
  for (const Case& c : cases) expectNear(cellEdges(c.values, AxisScale{c.log}), c.edges, c.what);
}

TEST(SensitivityGrid, APointFallsInTheCellBetweenItsEdges) {
  const std::vector<double> edges{0, 1, 3, 6};
  struct Case {
    double value;
    std::optional<std::size_t> cell;
  };
  const Case cases[] = {{-0.1, std::nullopt},
                        {0, 0},
                        {0.99, 0},
                        {1, 1},
                        {2.5, 1},
                        {3, 2},
                        {6, 2},
                        {6.01, std::nullopt},
                        {std::nan(""), std::nullopt}};
  for (const Case& c : cases) EXPECT_EQ(cellAt(edges, c.value), c.cell) << c.value;
  EXPECT_EQ(cellAt(std::vector<double>{}, 1.0), std::nullopt);
}

TEST(SensitivityGrid, EvenImageColumnsTakeTheCellTheirCentreFallsIn) {
  struct Case {
    const char* what;
    std::vector<double> edges;
    bool log;
    std::size_t columns;
    std::vector<std::size_t> cells;
  };
  const Case cases[] = {
      {"as many columns as even cells", {0, 1, 2, 3}, false, 3, {0, 1, 2}},
      {"twice as many", {0, 1, 2}, false, 4, {0, 0, 1, 1}},
      {"an uneven cell takes its share", {0, 1, 4}, false, 4, {0, 1, 1, 1}},
      {"log: even by ratio", {1, 10, 100}, true, 4, {0, 0, 1, 1}},
      {"log, a narrow first cell", {1, 2, 100}, true, 6, {0, 1, 1, 1, 1, 1}},
  };
  for (const Case& c : cases)
    EXPECT_EQ(columnCells(c.edges, AxisScale{c.log}, c.columns), c.cells) << c.what;
}

TEST(SensitivityGrid, AnImageHasAColumnAPixelAndEnoughForEachCell) {
  EXPECT_EQ(imageColumns(25, 600), 600u);
  EXPECT_EQ(imageColumns(100, 600), 800u);  // 8 a cell
  EXPECT_EQ(imageColumns(2, 10), 64u);      // never fewer than 64
  EXPECT_EQ(imageColumns(1000, 600), 2048u);
  EXPECT_EQ(imageColumns(10, 5000, 1024), 1024u);
}

TEST(SensitivityGrid, RunsAreTheStretchesOfTrue) {
  EXPECT_EQ(runsOf({}), std::vector<IndexRun>{});
  EXPECT_EQ(runsOf({false, false}), std::vector<IndexRun>{});
  EXPECT_EQ(runsOf({true, true, false, true}), (std::vector<IndexRun>{{0, 2}, {3, 4}}));
  EXPECT_EQ(runsOf({false, true, true, true}), (std::vector<IndexRun>{{1, 4}}));
}

TEST(SensitivityGrid, TheScaleRoundTrips) {
  for (bool log : {false, true})
    for (double v : {0.5, 1.0, 33.3, 120.0})
      EXPECT_NEAR(AxisScale{log}.fromScreen(AxisScale{log}.toScreen(v)), v, 1e-12);
}

}  // namespace
}  // namespace breakerlab::views
