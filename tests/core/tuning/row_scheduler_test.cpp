// RowScheduler: whole rows in order to each thread, then halves of the rows other threads have
// left; every cell exactly once, whatever the interleaving of the threads' asks.
#include "tuning/row_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace breakerlab {
namespace {

struct SchedulerCase {
  std::size_t cells, row;
  unsigned threads;
  std::vector<unsigned> asks;  // which thread asks, in turn
  std::vector<long> expected;  // the cell each ask gets, -1 for none
};

TEST(RowScheduler, HandsOutRowsThenHalvesOfWhatOthersHaveLeft) {
  const SchedulerCase cases[] = {
      // One thread: every cell in order, then none.
      {5, 2, 1, {0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 4, -1}},
      // Two threads, one row each; thread 1 is done first and takes the back half of what thread
      // 0 has left of its row (cells 1..5 left: 1, 2 stay, 3..5 go).
      {12, 6, 2, {0, 1, 1, 1, 1, 1, 1, 1}, {0, 6, 7, 8, 9, 10, 11, 3}},
      // A thread with no row of its own takes half of a lone row at once.
      {8, 8, 2, {0, 1, 0}, {0, 4, 1}},
      // Nothing to steal from a thread with one cell left: none.
      {4, 2, 2, {0, 1, 0, 1, 1}, {0, 2, 1, 3, -1}},
      // A last row shorter than the others.
      {5, 3, 2, {0, 1, 1, 1, 0, 0, 0}, {0, 3, 4, 2, 1, -1, -1}},
  };
  for (const SchedulerCase& c : cases) {
    RowScheduler scheduler(c.cells, c.row, c.threads);
    std::vector<long> got;
    for (const unsigned worker : c.asks) {
      const std::optional<std::size_t> cell = scheduler.next(worker);
      got.push_back(cell ? static_cast<long>(*cell) : -1);
    }
    EXPECT_EQ(got, c.expected) << c.cells << " cells, rows of " << c.row;
  }
}

TEST(RowScheduler, EveryCellOnceUnderAnyInterleaving) {
  for (const unsigned threads : {1u, 2u, 3u, 5u}) {
    for (const std::size_t row : {1u, 4u, 7u, 50u}) {
      const std::size_t cells = 7 * row + 3;
      RowScheduler scheduler(cells, row, threads);
      std::vector<int> seen(cells, 0);
      // A fixed, uneven interleaving: thread k asks k + 1 times in each round.
      bool any = true;
      while (any) {
        any = false;
        for (unsigned w = 0; w < threads; ++w)
          for (unsigned k = 0; k <= w; ++k)
            if (const std::optional<std::size_t> cell = scheduler.next(w)) {
              ASSERT_LT(*cell, cells);
              ++seen[*cell];
              any = true;
            }
      }
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }))
          << threads << " threads, rows of " << row;
    }
  }
}

}  // namespace
}  // namespace breakerlab
