// A map still computing, shown whole: the cells not yet computed copy their nearest computed one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/views/sensitivity_map.h"

namespace breakerlab::views {
namespace {

// A 5 x 3 grid (interval across, poll up) with the given cells computed; a cell's metric is its
// number, and it meets the goal when that number is even.
struct Grid {
  std::vector<KnobRange> knobs{{findKnob("breaker.open.interval"), 1, 5, false},
                               {findKnob("breaker.open.early_probe.poll"), 1, 3, false}};
  std::vector<const MetricInfo*> metrics{findMetric("cached_while_healthy_s")};
  std::vector<Expectation> goals;
  SweepResult sweep;

  explicit Grid(const std::vector<std::size_t>& computed) {
    Expectation goal;
    goal.kind = Expectation::Kind::metric;
    goal.metric = "cached_while_healthy_s";
    goal.text = "cached_while_healthy_s <= 3";
    goals.push_back(goal);
    sweep.axes = {{1, 2, 3, 4, 5}, {1, 2, 3}};
    for (const std::size_t index : computed) {
      SweepCell cell;
      cell.index = index;
      cell.evaluation.objectives = {static_cast<double>(index)};
      cell.evaluation.feasible = index % 2 == 0;
      cell.evaluation.goals_met = {cell.evaluation.feasible};
      sweep.cells.push_back(cell);
    }
  }
  SensitivityMap preview() const { return sensitivityPreviewOf(sweep, knobs, metrics, goals); }
};

// The metric of each cell, by number: which computed cell it shows.
std::vector<double> shown(const SensitivityMap& map) {
  return map.metrics[0].values;
}

TEST(SensitivityPreview, EachCellShowsItsNearestComputedCell) {
  struct Case {
    const char* what;
    std::vector<std::size_t> computed;
    std::vector<double> shows;  // per cell (x * 3 + y), the number of the cell it shows
  };
  const Case cases[] = {
      {"one cell: all of the map", {7}, {7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}},
      // The corners (x 0 and 4, y 0 and 2): each quarter shows its corner; the middle column
      // (x 2) is as near to the left corners as to the right, and the lower number wins.
      {"the corners", {0, 2, 12, 14}, {0, 0, 2, 0, 0, 2, 0, 0, 2, 12, 12, 14, 12, 12, 14}},
      // The middle row (y 1) is as near to y 0 as to y 2: the lower number.
      {"a column each end",
       {0, 1, 2, 12, 13, 14},
       {0, 1, 2, 0, 1, 2, 0, 1, 2, 12, 13, 14, 12, 13, 14}},
      {"by distance squared: (1,1) is nearer (1,0) than (0,0)",
       {0, 3},
       {0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
  };
  for (const Case& c : cases) {
    const SensitivityMap map = Grid(c.computed).preview();
    EXPECT_EQ(shown(map), c.shows) << c.what;
    EXPECT_EQ(map.preview_cells, c.computed.size()) << c.what;
    // The verdicts come along with the metric: even cells meet the goal.
    for (std::size_t i = 0; i < map.cellCount(); ++i) {
      const auto met = static_cast<std::size_t>(c.shows[i]) % 2 == 0;
      EXPECT_EQ(map.all_goals[i], met ? CellVerdict::met : CellVerdict::missed) << c.what << i;
      EXPECT_EQ(map.goals[0].cells[i], map.all_goals[i]) << c.what << i;
    }
  }
}

TEST(SensitivityPreview, AWholeSweepIsItsMapAndAnEmptyOneStaysUnknown) {
  std::vector<std::size_t> every;
  for (std::size_t i = 0; i < 15; ++i) every.push_back(14 - i);  // in any order
  const Grid whole(every);
  const SensitivityMap preview = whole.preview();
  const SensitivityMap map = sensitivityMapOf(whole.sweep, whole.knobs, whole.metrics, whole.goals);
  EXPECT_EQ(shown(preview), shown(map));
  EXPECT_EQ(preview.all_goals, map.all_goals);
  EXPECT_EQ(preview.preview_cells, 15u);
  EXPECT_EQ(map.preview_cells, 0u) << "a map made whole is no preview";

  const SensitivityMap none = Grid({}).preview();
  EXPECT_EQ(none.preview_cells, 0u);
  for (const double v : shown(none)) EXPECT_TRUE(std::isnan(v));
  for (const CellVerdict v : none.all_goals) EXPECT_EQ(v, CellVerdict::unknown);
}

TEST(SensitivityPreview, AnInvalidComputedCellPassesOnItsUnknown) {
  // A config the model refuses measured nothing: the cells it stands for are unknown too, not
  // filled from a farther cell (the preview says what the finished map will say near it).
  Grid grid({0, 14});
  grid.sweep.cells[1].evaluation.invalid = true;
  const SensitivityMap map = grid.preview();
  EXPECT_EQ(map.metrics[0].values[0], 0);
  EXPECT_TRUE(std::isnan(map.metrics[0].values[13]));
  EXPECT_EQ(map.all_goals[13], CellVerdict::unknown);
  EXPECT_EQ(map.all_goals[1], CellVerdict::met);
}

}  // namespace
}  // namespace breakerlab::views
