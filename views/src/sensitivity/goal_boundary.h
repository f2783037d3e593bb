#pragma once
// Where a goal's boundary runs on a two-knob map: along the cell sides that part a cell meeting
// the goal from one missing it, joined into lines to draw. Pure, in grid coordinates (corner
// (i, j) is where cell edges i of x and j of y meet), tested by a table of grids in
// tests/views/sensitivity/goal_boundary_test.cpp.
#include <cstddef>
#include <vector>

#include "breakerlab/views/sensitivity_map.h"

namespace breakerlab::views {

// A grid of verdicts: `nx` columns (the first knob) by `ny` rows (the second), cell (x, y) at
// x * ny + y, as a sweep numbers them (the last knob fastest).
struct VerdictGrid {
  std::size_t nx = 0, ny = 0;
  std::vector<CellVerdict> cells;
  CellVerdict at(std::size_t x, std::size_t y) const { return cells[x * ny + y]; }
};

struct GridPoint {
  int x = 0, y = 0;
  bool operator==(const GridPoint&) const = default;
};

// A side of a cell, from `a` to `b` (a before b: left to right, bottom to top).
struct GridSegment {
  GridPoint a, b;
  bool operator==(const GridSegment&) const = default;
};

// Every cell side with a met cell on one side and a missed cell on the other. A cell of unknown
// verdict (not computed yet, or an invalid config) makes no boundary, nor does the map's edge.
// Vertical sides first (by x, then y), then horizontal ones (by y, then x).
std::vector<GridSegment> boundarySegments(const VerdictGrid& grid);

// The segments joined end to end into as few lines as a walk finds: each segment in exactly
// one line; a closed line ends at its first point. Where four segments meet (cells met and
// missed in a checkerboard) a line goes straight on.
std::vector<std::vector<GridPoint>> boundaryLines(const std::vector<GridSegment>& segments);

}  // namespace breakerlab::views
