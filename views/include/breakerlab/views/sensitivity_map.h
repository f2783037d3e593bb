#pragma once
// What a sensitivity map shows, as plain data: the knobs' values along each axis, the metrics
// measured in every cell, each goal's verdict per cell and the config the user has now. Made
// from a sweep (core/sweep.h) by sensitivityMapOf; the plot (sensitivity_plot.h) and the CLI's
// PNG draw it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/tuning/sweep.h"

namespace breakerlab::views {

enum class CellVerdict : std::uint8_t { unknown, met, missed };

struct SensitivityAxis {
  const KnobSpec* knob = nullptr;
  bool log = false;            // spread by ratio: drawn on a log axis
  std::vector<double> values;  // sorted, distinct, in the knob's unit
};

struct SensitivityMetric {
  const MetricInfo* metric = nullptr;
  std::vector<double> values;  // per cell; NaN where not computed or undefined for the run
};

struct SensitivityGoal {
  std::string text;    // as written: "cached_while_healthy_s <= 3"
  std::string metric;  // the metric it bounds (empty: a lane check)
  CompareOp op = CompareOp::le;
  double value = 0;
  std::vector<CellVerdict> cells;
};

struct SensitivityMap {
  // One axis (a line plot) or two (a heatmap, the first across); cells are numbered with the
  // last axis fastest: cell (x, y) is x * ny + y.
  std::vector<SensitivityAxis> axes;
  std::vector<SensitivityMetric> metrics;  // the heatmap colours the first
  std::vector<CellVerdict> all_goals;      // per cell: every goal met
  std::vector<SensitivityGoal> goals;
  std::string title;  // drawn above the plot when not empty (the CLI's PNG)
  // A preview of a map still computing: how many cells are computed (the others show their
  // nearest computed cell); 0 for a map whose every cell is its own.
  std::size_t preview_cells = 0;

  std::size_t cellCount() const;
  bool empty() const { return cellCount() == 0; }
  // The cell's index from its place along each axis, and back.
  std::size_t cellIndex(std::span<const std::size_t> at) const;
  std::vector<std::size_t> cellPlace(std::size_t index) const;
  // The knobs' values of a cell.
  std::vector<double> cellValues(std::size_t index) const;
  // The goal bounding `metric`, if one does (the first).
  const SensitivityGoal* goalOn(std::string_view metric) const;
};

// The map of `sweep`, made by turning `knobs` with an evaluator that measured `metrics` (in its
// order) under `goals` (each case's, in order, as Evaluation::goals_met has them). Cells a
// cancelled sweep did not reach are unknown.
SensitivityMap sensitivityMapOf(const SweepResult& sweep, std::span<const KnobRange> knobs,
                                std::span<const MetricInfo* const> metrics,
                                std::span<const Expectation> goals);

// The map of a sweep still under way (its cells so far), whole: every cell not yet computed takes
// the metrics and verdicts of the computed cell nearest to it on the grid (by place along each
// axis, the lower-numbered on a tie), so that a coarse-to-fine sweep (SweepOptions::coarse_first)
// shows the map's shape from its first cells. preview_cells counts the computed ones.
SensitivityMap sensitivityPreviewOf(const SweepResult& partial, std::span<const KnobRange> knobs,
                                    std::span<const MetricInfo* const> metrics,
                                    std::span<const Expectation> goals);

}  // namespace breakerlab::views
