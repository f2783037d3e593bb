#pragma once
// What the replay records over the window besides each checkout's outcome and the breaker's own
// lanes: calls and failures per second, and the levels of the client's resources (workers busy,
// connections in use, retries waiting, calls the dependency holds, pods out of rotation).
#include <cstdint>
#include <vector>

#include "breakerlab/core/outcome/result.h"
#include "outcome/run_facts.h"
#include "replay/parts/level_tracker.h"

namespace breakerlab {

// Counts one event in the second of the window that holds t. Retries of the window's last
// requests can start after the window ends: those are counted in the totals but have no second
// of their own.
inline std::size_t secondOf(Micros window_start, Micros t) {
  return static_cast<std::size_t>((t - window_start) / kSecond);
}
inline void countAt(std::vector<std::uint32_t>& series, std::size_t second) {
  if (second < series.size()) ++series[second];
}
inline void countInSecond(std::vector<std::uint32_t>& series, Micros window_start, Micros t) {
  countAt(series, secondOf(window_start, t));
}

struct ResourceLevels {
  LevelTracker<true> workers, pool;            // their means are read too
  LevelTracker<false> pending, load, ejected;  // their peaks only

  // At the window's end: every followed level's per-second peaks into `series` (pods in
  // rotation as `max_pods` less those ejected), and its peak and mean into `facts`.
  void collect(SecondSeries& series, RunFacts& facts, std::uint32_t max_pods) {
    auto take = [](auto& tracker, std::vector<std::uint32_t>& out) {
      if (!tracker.active()) return;
      tracker.finish();
      out = std::move(tracker.peaks());
    };
    take(workers, series.workers_busy);
    take(pool, series.pool_busy);
    take(pending, series.pending_retries);
    take(load, series.dependency_load);
    if (ejected.active()) {
      take(ejected, series.pods_in_rotation);
      for (auto& v : series.pods_in_rotation) v = max_pods - v;
    }
    facts.peak_workers = workers.peak();
    facts.peak_pool = pool.peak();
    facts.peak_pending_retries = pending.peak();
    facts.peak_load = load.peak();
    facts.mean_workers = workers.mean();
    if (workers.active()) facts.workers_second_means = workers.secondMeans();
    facts.mean_pool = pool.mean();
  }
};

}  // namespace breakerlab
