#pragma once
// Follows a level that changes at events (workers busy, connections in use, retries pending):
// its peak within each second of the window and its time integral, for per-second series,
// peaks and Little's-law averages.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// kMeans: whether it also follows the time integral (mean() and secondMeans()); a level whose
// peaks alone are read skips it.
template <bool kMeans = true>
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
    if constexpr (kMeans) areas_.assign(seconds_, 0.0);
    if (seconds_ > 0) peaks_[0] = level;
    filled_ = 0;
    second_ = 0;
    boundary_ = start + kSecond;
    second_area_ = 0;
    fast_end_ = seconds_ > 0 ? std::min(boundary_, end_) : kNoFastPath;
    active_ = true;
  }
  bool active() const { return active_; }

  // The level is `level` from time t on (t never decreases).
  [[gnu::always_inline]] void set(Micros t, std::uint32_t level) {
    // Within the second of the last change (and the window): one chunk of area, no boundary.
    // The product is exact (a level below 2^32 times under 2^20 us), so it is the same double
    // the general path adds; the second's area is kept as an exact integer until it closes.
    if (t >= last_ && t < fast_end_) [[likely]] {
      if constexpr (kMeans) {
        // Below 2^52, so the signed conversion is exact (and one instruction).
        const auto area = static_cast<std::int64_t>(level_) * (t - last_);
        area_ += static_cast<double>(area);
        second_area_ += area;
      }
      last_ = t;
      level_ = level;
      std::uint32_t& peak = peaks_[second_];
      if (level > peak) peak = level;
      return;
    }
    if (!active_) return;  // not followed (never begun): a branch, not a call
    setAcross(t, level);
  }

  // Closes the window: the remaining seconds held the last level.
  void finish() {
    if (!active_) return;
    closeSecondArea();
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
  // set() when t leaves the second of the last change (or the window).
  [[gnu::noinline]] void setAcross(Micros t, std::uint32_t level) {
    if (!active_ || t < start_) return;
    closeSecondArea();
    accumulate(std::min(t, end_));
    if (t >= end_) {
      level_ = level;
      fast_end_ = kNoFastPath;
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
    // The fast path adds to second_ and needs no filling: last_ is in second_, in the window.
    fast_end_ =
        last_ == t && filled_ >= second_ && last_ < end_ ? std::min(boundary_, end_) : kNoFastPath;
  }

  // Adds the fast path's exact integer area of second_ to its double (exact: a second's area is
  // below 2^53, so every partial sum is an integer the double holds).
  void closeSecondArea() {
    if constexpr (kMeans) {
      if (second_area_ != 0) areas_[second_] += static_cast<double>(second_area_);
      second_area_ = 0;
    }
  }

  // Adds the current level from last_ to `to`, split at second boundaries. second_ is the second
  // that holds last_ ((last_ - start_) / kSecond) and boundary_ its end, kept up as last_ moves.
  void accumulate(Micros to) {
    while (to > last_) {
      const Micros boundary = std::min(to, boundary_);
      if constexpr (kMeans) {
        const double area = static_cast<double>(level_) * static_cast<double>(boundary - last_);
        area_ += area;
        if (second_ < areas_.size()) areas_[second_] += area;
      }
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
  // set() takes the fast path for t in [last_, fast_end_): the rest of second_ within the window.
  static constexpr Micros kNoFastPath = std::numeric_limits<Micros>::min();
  Micros fast_end_ = kNoFastPath;
  std::int64_t second_area_ = 0;  // of second_, not yet in areas_
  std::vector<std::uint32_t> peaks_;
  std::vector<double> areas_;
  bool active_ = false;
};

}  // namespace breakerlab
