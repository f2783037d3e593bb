#pragma once
// Hands out the cells of a two-knob map to its threads. A thread takes a whole row (the last
// knob's values, in order) at a time, so that a run kept for that knob's neighbouring values (a
// run that stands for other worker limits) serves the rest of the row on the thread that holds
// it. A thread that finds no row left takes the back half of the cells another thread has left
// of its row: the last rows, often the costliest, are then walked by every thread instead of one
// while the others wait. Which thread evaluates a cell changes nothing of the map.
#include <algorithm>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace breakerlab {

class RowScheduler {
 public:
  // `cells` numbered from 0, `row` of them a row (the last may be shorter); `threads` >= 1.
  RowScheduler(std::size_t cells, std::size_t row, unsigned threads)
      : cells_(cells), row_(std::max<std::size_t>(row, 1)), spans_(std::max(threads, 1u)) {}

  // The next cell for thread `worker`, or nullopt when every cell has been handed out.
  std::optional<std::size_t> next(unsigned worker) {
    const std::lock_guard lock(mutex_);
    Span& mine = spans_[worker];
    if (mine.next == mine.end) {
      if (next_row_start_ < cells_) {
        mine = {next_row_start_, std::min(cells_, next_row_start_ + row_)};
        next_row_start_ = mine.end;
      } else if (!stealHalf(mine)) {
        return std::nullopt;
      }
    }
    return mine.next++;
  }

 private:
  struct Span {
    std::size_t next = 0, end = 0;  // the cells [next, end) still to do
  };

  // Gives `thief` the back half of the longest span another thread has left (two cells or more).
  bool stealHalf(Span& thief) {
    Span* victim = nullptr;
    for (Span& s : spans_)
      if (&s != &thief && s.end - s.next >= 2 &&
          (victim == nullptr || s.end - s.next > victim->end - victim->next))
        victim = &s;
    if (victim == nullptr) return false;
    const std::size_t middle = victim->next + (victim->end - victim->next) / 2;
    thief = {middle, victim->end};
    victim->end = middle;
    return true;
  }

  std::mutex mutex_;
  std::size_t cells_, row_;
  std::size_t next_row_start_ = 0;
  std::vector<Span> spans_;  // per thread
};

}  // namespace breakerlab
