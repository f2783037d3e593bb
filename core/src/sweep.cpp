#include "breakerlab/core/sweep.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "breakerlab/core/simulate.h"
#include "parallel_for.h"

namespace breakerlab {

std::size_t SweepResult::cellCount() const {
  if (axes.empty()) return 0;
  std::size_t n = 1;
  for (const auto& axis : axes) n *= axis.size();
  return n;
}

std::vector<std::vector<double>> sweepAxes(std::span<const KnobRange> knobs,
                                           std::span<const std::size_t> points) {
  std::vector<std::vector<double>> axes;
  for (std::size_t i = 0; i < knobs.size(); ++i)
    axes.push_back(gridValues(knobs[i], i < points.size() ? points[i] : 1));
  return axes;
}

namespace {
std::vector<double> cellValues(const std::vector<std::vector<double>>& axes, std::size_t index) {
  std::vector<double> values(axes.size());
  for (std::size_t d = axes.size(); d-- > 0;) {
    values[d] = axes[d][index % axes[d].size()];
    index /= axes[d].size();
  }
  return values;
}
}  // namespace

SweepResult sweep(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                  std::span<const std::size_t> points, const SweepOptions& options) {
  SweepResult result;
  result.axes = sweepAxes(knobs, points);
  const std::size_t total = result.cellCount();
  const std::size_t shards = std::max<std::size_t>(1, options.shards);
  std::vector<std::size_t> mine;
  for (std::size_t i = options.shard; i < total; i += shards) mine.push_back(i);
  std::vector<SweepCell> cells(mine.size());
  std::vector<char> done(mine.size(), 0);
  const unsigned threads = threadsToUse(options.threads, mine.size());
  std::vector<Evaluator::Scratch> scratch;
  for (unsigned t = 0; t < threads; ++t) scratch.push_back(evaluator.scratch());
  std::mutex progress_mutex;
  std::size_t finished = 0;
  std::atomic<bool> stopped{false};
  parallelFor(mine.size(), threads, [&](std::size_t i, unsigned worker) {
    if (stopped.load() || (options.cancel != nullptr && options.cancel->load())) {
      stopped = true;
      return;
    }
    SweepCell& cell = cells[i];
    cell.index = mine[i];
    cell.values = cellValues(result.axes, mine[i]);
    try {
      cell.evaluation = evaluator.evaluate(
          [&](Config& c) {
            for (std::size_t d = 0; d < knobs.size(); ++d) knobs[d].knob->set(c, cell.values[d]);
          },
          false, scratch[worker], options.cancel);
    } catch (const ReplayCancelled&) {
      stopped = true;
      return;
    }
    done[i] = 1;
    if (options.progress) {
      const std::lock_guard lock(progress_mutex);
      options.progress(++finished, mine.size());
    }
  });
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (done[i]) result.cells.push_back(std::move(cells[i]));
  result.cancelled = stopped.load();
  return result;
}

SweepResult mergeSweepResults(std::span<const SweepResult> parts) {
  SweepResult merged;
  if (parts.empty()) return merged;
  merged.axes = parts[0].axes;
  const std::size_t total = merged.cellCount();
  std::vector<const SweepCell*> by_index(total, nullptr);
  for (const SweepResult& part : parts) {
    if (part.axes != merged.axes)
      throw std::invalid_argument("the parts are maps of different grids");
    merged.cancelled = merged.cancelled || part.cancelled;
    for (const SweepCell& cell : part.cells) {
      if (cell.index >= total) throw std::invalid_argument("a cell lies outside the grid");
      if (by_index[cell.index] != nullptr)
        throw std::invalid_argument("cell " + std::to_string(cell.index) + " is in two parts");
      by_index[cell.index] = &cell;
    }
  }
  std::size_t missing = 0;
  for (const SweepCell* cell : by_index) {
    if (cell != nullptr) {
      merged.cells.push_back(*cell);
    } else {
      ++missing;
    }
  }
  if (missing > 0 && !merged.cancelled)
    throw std::invalid_argument(std::to_string(missing) + " of " + std::to_string(total) +
                                " cells are in no part: merge every shard");
  return merged;
}

}  // namespace breakerlab
