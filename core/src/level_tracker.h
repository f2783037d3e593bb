#pragma once
// Follows a level that changes at events (workers busy, connections in use, retries pending):
// its peak within each second of the window and its time integral, for per-second series,
// peaks and Little's-law averages.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "breakerlab/core/time.h"

namespace breakerlab {

class LevelTracker {
 public:
  // Starts following at the window start with the level the lead-in left.
  void begin(Micros start, Micros end, std::uint32_t level) {
    start_ = start;
    end_ = end;
    level_ = level;
    last_ = start;
    seconds_ = static_cast<std::size_t>((end - start + kSecond - 1) / kSecond);
    peaks_.assign(seconds_, 0);
    areas_.assign(seconds_, 0.0);
    if (seconds_ > 0) peaks_[0] = level;
    filled_ = 0;
    second_ = 0;
    boundary_ = start + kSecond;
    active_ = true;
  }
  bool active() const { return active_; }

  // The level is `level` from time t on (t never decreases).
  [[gnu::always_inline]] void set(Micros t, std::uint32_t level) {
    if (!active_ || t < start_) return;
    accumulate(std::min(t, end_));
    if (t >= end_) {
      level_ = level;
      return;
    }
    // accumulate() left last_ at t (in second_) unless t came before it.
    const std::size_t second =
        t == last_ ? second_ : static_cast<std::size_t>((t - start_) / kSecond);
    // Seconds without a change held the old level throughout.
    while (filled_ < second) {
      ++filled_;
      peaks_[filled_] = std::max(peaks_[filled_], level_);
    }
    level_ = level;
    peaks_[second] = std::max(peaks_[second], level);
  }

  // Closes the window: the remaining seconds held the last level.
  void finish() {
    if (!active_) return;
    accumulate(end_);
    while (filled_ + 1 < seconds_) {
      ++filled_;
      peaks_[filled_] = std::max(peaks_[filled_], level_);
    }
    for (auto p : peaks_) peak_ = std::max(peak_, p);
  }

  std::uint32_t peak() const { return peak_; }
  // Time-average level over the window.
  double mean() const { return end_ > start_ ? area_ / static_cast<double>(end_ - start_) : 0.0; }
  std::vector<std::uint32_t>& peaks() { return peaks_; }
  // Time-average level within each second.
  std::vector<double> secondMeans() const {
    std::vector<double> means(areas_.size());
    for (std::size_t i = 0; i < areas_.size(); ++i) means[i] = areas_[i] / kSecond;
    return means;
  }

 private:
  // Adds the current level from last_ to `to`, split at second boundaries. second_ is the second
  // that holds last_ ((last_ - start_) / kSecond) and boundary_ its end, kept up as last_ moves.
  void accumulate(Micros to) {
    while (to > last_) {
      const Micros boundary = std::min(to, boundary_);
      const double area = static_cast<double>(level_) * static_cast<double>(boundary - last_);
      area_ += area;
      if (second_ < areas_.size()) areas_[second_] += area;
      last_ = boundary;
      if (last_ == boundary_) {
        ++second_;
        boundary_ += kSecond;
      }
    }
  }

  Micros start_ = 0, end_ = 0, last_ = 0;
  std::uint32_t level_ = 0;
  std::uint32_t peak_ = 0;
  double area_ = 0;
  std::size_t seconds_ = 0, filled_ = 0;
  std::size_t second_ = 0;  // of last_
  Micros boundary_ = 0;     // the end of second_
  std::vector<std::uint32_t> peaks_;
  std::vector<double> areas_;
  bool active_ = false;
};

}  // namespace breakerlab
