#pragma once
// Folding a lane's runs of states into pixel columns, so that a lane with thousands of
// transitions in view draws at most one mark per column. Pure maths: tested with tables of
// bars, without a widget.
//
// A column that a run starts and ends inside (a run narrower than a pixel) becomes a "mixed"
// mark: the column shows each state's share of it, stacked, instead of whichever colour came
// last (a flicker of colours on every repaint). A column that two wide runs merely share at
// their boundary takes the state that covers most of it.
#include <cstdint>
#include <span>
#include <vector>

namespace breakerlab::views {

struct PixelBar {
  double x0 = 0;  // pixels, x0 < x1; sorted, not overlapping
  double x1 = 0;
  std::uint32_t state = 0;
};

struct StateShare {
  std::uint32_t state = 0;
  float share = 0;  // of the column, the shares of a mark add up to 1
};

struct FoldedMark {
  // Pixel columns [x0, x1): integers. A solid mark spans one or more columns in one state; a
  // mixed mark is one column wide.
  int x0 = 0, x1 = 0;
  std::uint32_t state = 0;  // solid marks
  // Mixed marks: shares[shares_begin, shares_end) of Folded::shares, ordered by state; empty
  // for a solid mark.
  std::uint32_t shares_begin = 0, shares_end = 0;
  bool mixed() const { return shares_end > shares_begin; }
};

struct Folded {
  std::vector<FoldedMark> marks;  // left to right, not overlapping
  std::vector<StateShare> shares;
  void clear() {
    marks.clear();
    shares.clear();
  }
};

// Folds `bars` (pixels) into marks on the integer pixel grid, clipped to [left, right). `out` is
// cleared first; its buffers are reused, so a repaint does not allocate once they have grown.
void foldToPixels(std::span<const PixelBar> bars, int left, int right, Folded& out);

}  // namespace breakerlab::views
