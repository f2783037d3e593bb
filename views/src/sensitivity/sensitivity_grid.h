#pragma once
// The sensitivity map's geometry, without widgets: where each cell of a knob's axis begins and
// ends, which cell a point falls in, how an evenly sampled image covers cells of uneven width,
// and the stretches of a line plot where a goal is missed. A map's values lie on the knob's
// step, so even a log range gives cells of uneven width (0.5, 1, 1.5, 2, 3, 4, 5.5 s): every
// position is worked out from the values themselves. Tested with tables in
// tests/views/sensitivity/sensitivity_grid_test.cpp.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace breakerlab::views {

// Where an axis's values lie on screen: by value, or by ratio (a log axis).
struct AxisScale {
  bool log = false;
  double toScreen(double value) const;    // the value as the axis spaces it
  double fromScreen(double place) const;  // the inverse
};

// The `values.size() + 1` edges of the cells around sorted, distinct `values`: halfway between
// neighbours (on the axis's scale: the geometric mean on a log axis), and as far beyond the
// first and last values as the nearest neighbour's half gap. A single value gets a cell a tenth
// wide on either side (a log axis: by ratio); no values, no edges.
std::vector<double> cellEdges(std::span<const double> values, AxisScale scale);

// The cell of `edges` that holds `value` (an edge belongs to the cell above it; the last edge
// to the last cell), or nullopt outside the cells.
std::optional<std::size_t> cellAt(std::span<const double> edges, double value);

// For an image of `columns` even columns spanning edges.front()..edges.back() on the axis's
// scale, the cell each column's centre falls in.
std::vector<std::size_t> columnCells(std::span<const double> edges, AxisScale scale,
                                     std::size_t columns);

// How many columns an image needs so that each cell boundary is within half a column of its
// place when the axis is about `pixels` wide: a column a pixel or less, at least 64 columns and
// at most `limit`.
std::size_t imageColumns(std::size_t cells, int pixels, std::size_t limit = 2048);

// The runs of consecutive `true`s, as [begin, end) index pairs, in order.
struct IndexRun {
  std::size_t begin = 0, end = 0;
  bool operator==(const IndexRun&) const = default;
};
std::vector<IndexRun> runsOf(const std::vector<bool>& flags);

}  // namespace breakerlab::views
