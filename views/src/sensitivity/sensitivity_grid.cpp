#include "sensitivity/sensitivity_grid.h"

#include <algorithm>
#include <cmath>

namespace breakerlab::views {

double AxisScale::toScreen(double value) const {
  return log ? std::log(value) : value;
}

double AxisScale::fromScreen(double place) const {
  return log ? std::exp(place) : place;
}

std::vector<double> cellEdges(std::span<const double> values, AxisScale scale) {
  std::vector<double> edges;
  if (values.empty()) return edges;
  if (values.size() == 1) {
    const double v = values.front();
    if (scale.log) return {v / 1.1, v * 1.1};
    const double half = std::max(std::abs(v) * 0.1, 0.5);
    return {v - half, v + half};
  }
  std::vector<double> at(values.size());
  std::transform(values.begin(), values.end(), at.begin(),
                 [&](double v) { return scale.toScreen(v); });
  edges.reserve(values.size() + 1);
  edges.push_back(scale.fromScreen(at[0] - (at[1] - at[0]) / 2));
  for (std::size_t i = 1; i < at.size(); ++i)
    edges.push_back(scale.fromScreen((at[i - 1] + at[i]) / 2));
  const std::size_t n = at.size();
  edges.push_back(scale.fromScreen(at[n - 1] + (at[n - 1] - at[n - 2]) / 2));
  return edges;
}

std::optional<std::size_t> cellAt(std::span<const double> edges, double value) {
  if (edges.size() < 2 || !(value >= edges.front()) || !(value <= edges.back()))
    return std::nullopt;
  const auto above = std::upper_bound(edges.begin(), edges.end(), value);
  const auto cell = static_cast<std::size_t>(above - edges.begin()) - 1;
  return std::min(cell, edges.size() - 2);
}

std::vector<std::size_t> columnCells(std::span<const double> edges, AxisScale scale,
                                     std::size_t columns) {
  std::vector<std::size_t> cells(columns, 0);
  if (edges.size() < 2 || columns == 0) return cells;
  const double from = scale.toScreen(edges.front()), to = scale.toScreen(edges.back());
  std::size_t cell = 0;
  for (std::size_t c = 0; c < columns; ++c) {
    const double centre = scale.fromScreen(from + (to - from) * (static_cast<double>(c) + 0.5) /
                                                      static_cast<double>(columns));
    // Centres rise with c: the cell only moves forward.
    while (cell + 2 < edges.size() && centre >= edges[cell + 1]) ++cell;
    cells[c] = cell;
  }
  return cells;
}

std::size_t imageColumns(std::size_t cells, int pixels, std::size_t limit) {
  const std::size_t want =
      std::max<std::size_t>(static_cast<std::size_t>(std::max(pixels, 0)), cells * 8);
  return std::clamp<std::size_t>(want, 64, std::max<std::size_t>(limit, 64));
}

std::vector<IndexRun> runsOf(const std::vector<bool>& flags) {
  std::vector<IndexRun> runs;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (!flags[i]) continue;
    if (!runs.empty() && runs.back().end == i) {
      runs.back().end = i + 1;
    } else {
      runs.push_back({i, i + 1});
    }
  }
  return runs;
}

}  // namespace breakerlab::views
