#include "breakerlab/core/tuning/sweep.h"

#include <algorithm>
#include <bit>
#include <mutex>
#include <stdexcept>

#include "breakerlab/core/replay/simulate.h"
#include "tuning/parallel_for.h"
#include "tuning/row_scheduler.h"

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

std::vector<std::size_t> coarseToFineOrder(std::span<const std::size_t> axis_sizes) {
  std::size_t total = axis_sizes.empty() ? 0 : 1;
  for (const std::size_t n : axis_sizes) total *= n;
  // The stride at which a place first lies on the lattice: log2 of the coarsest stride less the
  // place's trailing zero bits (a multiple of 2^z is on every lattice of stride 2^z or finer).
  const auto levelOf = [](std::size_t place, std::size_t n) -> int {
    if (place == 0 || place + 1 == n || n <= 2) return 0;
    const int coarsest = std::bit_width(n - 1) - 1;  // log2 of the largest power of two below n
    return std::max(0, coarsest - std::countr_zero(place));
  };
  std::vector<std::pair<int, std::size_t>> ranked(total);
  for (std::size_t index = 0; index < total; ++index) {
    int level = 0;
    std::size_t rest = index;
    for (std::size_t d = axis_sizes.size(); d-- > 0;) {
      level = std::max(level, levelOf(rest % axis_sizes[d], axis_sizes[d]));
      rest /= axis_sizes[d];
    }
    ranked[index] = {level, index};
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::size_t> order(total);
  for (std::size_t i = 0; i < total; ++i) order[i] = ranked[i].second;
  return order;
}

SweepResult sweep(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                  std::span<const std::size_t> points, const SweepOptions& options) {
  SweepResult result;
  result.axes = sweepAxes(knobs, points);
  const std::size_t total = result.cellCount();
  const std::size_t shards = std::max<std::size_t>(1, options.shards);
  std::vector<std::size_t> mine;
  if (options.coarse_first) {
    std::vector<std::size_t> sizes;
    for (const auto& axis : result.axes) sizes.push_back(axis.size());
    for (const std::size_t i : coarseToFineOrder(sizes))
      if (i % shards == options.shard) mine.push_back(i);
  } else {
    for (std::size_t i = options.shard; i < total; i += shards) mine.push_back(i);
  }
  std::vector<SweepCell> cells(mine.size());
  std::vector<char> done(mine.size(), 0);
  const unsigned threads = threadsToUse(options.threads, mine.size());
  std::vector<Evaluator::Scratch> scratch;
  for (unsigned t = 0; t < threads; ++t) scratch.push_back(evaluator.scratch());
  std::mutex progress_mutex;
  std::size_t finished = 0;
  std::atomic<bool> stopped{false};
  // Worker 0 is the caller's thread; each other worker is one thread, the only one to touch its
  // flag.
  std::vector<char> set_up(threads, 0);
  // Evaluates cell i of mine on `worker`'s scratch; false once the sweep is to stop.
  const auto evaluateCell = [&](std::size_t i, unsigned worker) {
    if (worker != 0 && !set_up[worker]) {
      set_up[worker] = 1;
      if (options.extra_thread_started) options.extra_thread_started();
    }
    if (stopped.load() || (options.cancel != nullptr && options.cancel->load())) {
      stopped = true;
      return false;
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
      return false;
    }
    done[i] = 1;
    if (options.progress || options.cell_done) {
      const std::lock_guard lock(progress_mutex);
      if (options.cell_done) options.cell_done(cell);
      ++finished;
      if (options.progress) options.progress(finished, mine.size());
    }
    return true;
  };
  // Threads take whole rows (RowScheduler): a replay kept for the neighbouring values of the last
  // knob (a run that stands for other worker limits) then serves the rest of its row on that
  // thread rather than once per thread. Rows are few only in odd maps; those, line plots, shards
  // and coarse-first sweeps go a cell at a time.
  const std::size_t row = result.axes.empty() ? 1 : result.axes.back().size();
  const std::size_t rows = row == 0 ? 0 : mine.size() / row;
  if (!options.coarse_first && shards == 1 && result.axes.size() >= 2 &&
      rows >= 4 * std::size_t{threads}) {
    RowScheduler scheduler(mine.size(), row, threads);
    onEachThread(threads, [&](unsigned worker) {
      try {
        while (const std::optional<std::size_t> i = scheduler.next(worker))
          if (!evaluateCell(*i, worker)) return;
      } catch (...) {
        stopped = true;  // the other threads stop at their next cell
        throw;
      }
    });
  } else {
    parallelFor(mine.size(), threads,
                [&](std::size_t i, unsigned worker) { evaluateCell(i, worker); });
  }
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (done[i]) result.cells.push_back(std::move(cells[i]));
  // By number, whichever order they were done in.
  if (options.coarse_first)
    std::sort(result.cells.begin(), result.cells.end(),
              [](const SweepCell& a, const SweepCell& b) { return a.index < b.index; });
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
