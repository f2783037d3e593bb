#include "lanes/lane_fold.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace breakerlab::views {

namespace {

// The states met in the column being filled: a lane has a handful of states, so a column holds
// few entries; more than kMaxStates distinct ones fold the smallest into the last slot.
constexpr std::size_t kMaxStates = 8;

struct Column {
  int index = 0;
  bool open = false;
  bool has_subpixel_run = false;  // a run started and ended inside this column
  std::size_t count = 0;
  std::array<StateShare, kMaxStates> states{};

  void add(std::uint32_t state, double coverage) {
    for (std::size_t i = 0; i < count; ++i)
      if (states[i].state == state) {
        states[i].share += static_cast<float>(coverage);
        return;
      }
    if (count < kMaxStates) {
      states[count++] = {state, static_cast<float>(coverage)};
      return;
    }
    states[kMaxStates - 1].share += static_cast<float>(coverage);
  }
};

void emitSolid(Folded& out, int x0, int x1, std::uint32_t state) {
  if (x1 <= x0) return;
  if (!out.marks.empty()) {
    FoldedMark& last = out.marks.back();
    if (!last.mixed() && last.state == state && last.x1 == x0) {
      last.x1 = x1;
      return;
    }
  }
  out.marks.push_back({x0, x1, state, 0, 0});
}

void flush(Column& column, Folded& out) {
  if (!column.open || column.count == 0) {
    column = {};
    return;
  }
  const auto begin = column.states.begin();
  const auto end = begin + static_cast<std::ptrdiff_t>(column.count);
  if (column.count == 1 || !column.has_subpixel_run) {
    const auto most = std::max_element(
        begin, end, [](const StateShare& a, const StateShare& b) { return a.share < b.share; });
    emitSolid(out, column.index, column.index + 1, most->state);
  } else {
    std::sort(begin, end,
              [](const StateShare& a, const StateShare& b) { return a.state < b.state; });
    float total = 0;
    for (auto it = begin; it != end; ++it) total += it->share;
    const auto first = static_cast<std::uint32_t>(out.shares.size());
    for (auto it = begin; it != end; ++it)
      out.shares.push_back({it->state, total > 0 ? it->share / total : 0});
    out.marks.push_back(
        {column.index, column.index + 1, 0, first, static_cast<std::uint32_t>(out.shares.size())});
  }
  column = {};
}

}  // namespace

void foldToPixels(std::span<const PixelBar> bars, int left, int right, Folded& out) {
  out.clear();
  Column column;
  for (const PixelBar& bar : bars) {
    const double x0 = std::max(bar.x0, static_cast<double>(left));
    const double x1 = std::min(bar.x1, static_cast<double>(right));
    if (!(x1 > x0)) continue;  // empty, off screen or NaN
    const int first = static_cast<int>(std::floor(x0));
    // The column holding the run's last sliver: a run ending exactly on a column boundary ends
    // in the column before it.
    const int last = static_cast<int>(std::ceil(x1)) - 1;
    if (!column.open || column.index != first) {
      flush(column, out);
      column.open = true;
      column.index = first;
    }
    // A run narrower than a pixel makes its columns mixed, also when it straddles two of them
    // (each half would lose the majority vote, and a short open spell would vanish).
    const bool sliver = x1 - x0 < 1.0;
    if (sliver) column.has_subpixel_run = true;
    if (first == last) {
      column.add(bar.state, x1 - x0);
      continue;
    }
    column.add(bar.state, (first + 1) - x0);
    flush(column, out);
    emitSolid(out, first + 1, last, bar.state);
    column.open = true;
    column.index = last;
    column.has_subpixel_run = sliver;
    column.add(bar.state, x1 - last);
  }
  flush(column, out);
}

}  // namespace breakerlab::views
