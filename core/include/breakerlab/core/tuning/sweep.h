#pragma once
// A sensitivity map: a config's metrics over a grid of one or two knobs' values, every other
// knob as it is. Cells are numbered with the last knob fastest; a shard evaluates the cells
// whose number leaves `shard` modulo `shards`, so shards merge into the same map.
#include <atomic>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/tuning/tuning_objective.h"

namespace breakerlab {

struct SweepCell {
  std::size_t index = 0;       // in the whole grid
  std::vector<double> values;  // per knob
  Evaluation evaluation;       // objectives: the evaluator's metrics, in its order
};

struct SweepOptions {
  unsigned threads = 0;  // 0: every core
  std::size_t shard = 0;
  std::size_t shards = 1;
  const std::atomic<bool>* cancel = nullptr;
  // Cells done of this shard's; from a sweeping thread, never two at once.
  std::function<void(std::size_t done, std::size_t total)> progress;
  // Each cell as it is done, before `progress` counts it; from a sweeping thread, never two at
  // once.
  std::function<void(const SweepCell& cell)> cell_done;
  // Evaluate the cells coarse to fine (coarseToFineOrder) rather than by number, so that the
  // cells done early cover the whole grid. The map is the same either way.
  bool coarse_first = false;
  // Called on each thread the sweep starts (never the caller's), once, before the first cell
  // that thread evaluates (a thread that gets no cell never calls it): to give those threads a
  // lower priority than the caller's, say. Unlike progress and cell_done, it may run on
  // several threads at once.
  std::function<void()> extra_thread_started;
};

struct SweepResult {
  std::vector<std::vector<double>> axes;  // each knob's values, in order
  std::vector<SweepCell> cells;           // this shard's, by index; fewer when cancelled
  bool cancelled = false;
  std::size_t cellCount() const;  // in the whole grid
};

// The grid's values of each knob: `points[i]` values of knobs[i] (fewer where the knob's step
// has fewer distinct values in its range).
std::vector<std::vector<double>> sweepAxes(std::span<const KnobRange> knobs,
                                           std::span<const std::size_t> points);

// The grid's cell numbers (last axis fastest) from coarse to fine: first the cells whose place on
// every axis is a multiple of the coarsest stride (the largest power of two below the axis's
// length) or the axis's last place, then those of half that stride, and so on down to every
// cell; by number within a stride. Each cell once.
std::vector<std::size_t> coarseToFineOrder(std::span<const std::size_t> axis_sizes);

SweepResult sweep(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                  std::span<const std::size_t> points, const SweepOptions& options = {});

// The shards' cells in one map (each cell once, by index). Throws std::invalid_argument when
// the parts are not of one grid, a cell is repeated, or one is missing (unless a part was
// cancelled, which leaves its cells out).
SweepResult mergeSweepResults(std::span<const SweepResult> parts);

}  // namespace breakerlab
