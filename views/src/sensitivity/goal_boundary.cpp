#include "sensitivity/goal_boundary.h"

#include <map>
#include <utility>

namespace breakerlab::views {

namespace {

bool parts(CellVerdict a, CellVerdict b) {
  return (a == CellVerdict::met && b == CellVerdict::missed) ||
         (a == CellVerdict::missed && b == CellVerdict::met);
}

using Key = std::pair<int, int>;
Key keyOf(GridPoint p) {
  return {p.x, p.y};
}

GridPoint otherEnd(const GridSegment& s, GridPoint from) {
  return s.a == from ? s.b : s.a;
}

// The way from one point to another along a side: (±1, 0) or (0, ±1), whatever the length.
GridPoint direction(GridPoint from, GridPoint to) {
  const auto sign = [](int v) { return (v > 0) - (v < 0); };
  return {sign(to.x - from.x), sign(to.y - from.y)};
}

// Appends `p`, dropping the point before it when the line goes straight through it.
void extend(std::vector<GridPoint>& line, GridPoint p) {
  if (line.size() >= 2) {
    const GridPoint before = line[line.size() - 2], last = line.back();
    if (direction(before, last) == direction(last, p)) line.pop_back();
  }
  line.push_back(p);
}

}  // namespace

std::vector<GridSegment> boundarySegments(const VerdictGrid& grid) {
  std::vector<GridSegment> segments;
  if (grid.cells.size() != grid.nx * grid.ny) return segments;
  const auto i = [](std::size_t v) { return static_cast<int>(v); };
  // Between columns x-1 and x: the vertical side at x.
  for (std::size_t x = 1; x < grid.nx; ++x)
    for (std::size_t y = 0; y < grid.ny; ++y)
      if (parts(grid.at(x - 1, y), grid.at(x, y)))
        segments.push_back({{i(x), i(y)}, {i(x), i(y + 1)}});
  // Between rows y-1 and y: the horizontal side at y.
  for (std::size_t y = 1; y < grid.ny; ++y)
    for (std::size_t x = 0; x < grid.nx; ++x)
      if (parts(grid.at(x, y - 1), grid.at(x, y)))
        segments.push_back({{i(x), i(y)}, {i(x + 1), i(y)}});
  return segments;
}

std::vector<std::vector<GridPoint>> boundaryLines(const std::vector<GridSegment>& segments) {
  std::map<Key, std::vector<std::size_t>> at;
  for (std::size_t s = 0; s < segments.size(); ++s) {
    at[keyOf(segments[s].a)].push_back(s);
    at[keyOf(segments[s].b)].push_back(s);
  }
  std::vector<bool> used(segments.size(), false);
  std::vector<std::vector<GridPoint>> lines;
  const auto unusedAt = [&](GridPoint p) {
    std::size_t n = 0;
    for (std::size_t s : at[keyOf(p)]) n += used[s] ? 0 : 1;
    return n;
  };
  const auto walk = [&](GridPoint start) {
    std::vector<GridPoint> line{start};
    GridPoint here = start;
    GridPoint heading{0, 0};
    while (true) {
      // Straight on where the line can, else the first free side.
      std::size_t next = segments.size();
      for (std::size_t s : at[keyOf(here)]) {
        if (used[s]) continue;
        if (next == segments.size()) next = s;
        if (direction(here, otherEnd(segments[s], here)) == heading) {
          next = s;
          break;
        }
      }
      if (next == segments.size()) break;
      used[next] = true;
      const GridPoint to = otherEnd(segments[next], here);
      heading = direction(here, to);
      extend(line, to);
      here = to;
    }
    // A closed line that went straight through its start: the start is a corner no more.
    if (line.size() >= 4 && line.front() == line.back() &&
        direction(line[line.size() - 2], line.back()) == direction(line[0], line[1])) {
      line.pop_back();
      line.erase(line.begin());
      line.push_back(line.front());
    }
    lines.push_back(std::move(line));
  };
  // Open lines start at their ends (a point with an odd number of sides), then the closed ones.
  for (const auto& [key, list] : at)
    if (list.size() % 2 == 1) {
      const GridPoint p{key.first, key.second};
      while (unusedAt(p) % 2 == 1) walk(p);
    }
  for (std::size_t s = 0; s < segments.size(); ++s)
    if (!used[s]) walk(segments[s].a);
  return lines;
}

}  // namespace breakerlab::views
