#include "breakerlab/views/sensitivity_map.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace breakerlab::views {

std::size_t SensitivityMap::cellCount() const {
  if (axes.empty()) return 0;
  std::size_t n = 1;
  for (const SensitivityAxis& axis : axes) n *= axis.values.size();
  return n;
}

std::size_t SensitivityMap::cellIndex(std::span<const std::size_t> at) const {
  std::size_t index = 0;
  for (std::size_t d = 0; d < axes.size() && d < at.size(); ++d)
    index = index * axes[d].values.size() + at[d];
  return index;
}

std::vector<std::size_t> SensitivityMap::cellPlace(std::size_t index) const {
  std::vector<std::size_t> at(axes.size(), 0);
  for (std::size_t d = axes.size(); d-- > 0;) {
    const std::size_t n = axes[d].values.size();
    if (n == 0) return at;
    at[d] = index % n;
    index /= n;
  }
  return at;
}

std::vector<double> SensitivityMap::cellValues(std::size_t index) const {
  const std::vector<std::size_t> at = cellPlace(index);
  std::vector<double> values(axes.size());
  for (std::size_t d = 0; d < axes.size(); ++d) values[d] = axes[d].values[at[d]];
  return values;
}

const SensitivityGoal* SensitivityMap::goalOn(std::string_view metric) const {
  for (const SensitivityGoal& goal : goals)
    if (goal.metric == metric) return &goal;
  return nullptr;
}

SensitivityMap sensitivityMapOf(const SweepResult& sweep, std::span<const KnobRange> knobs,
                                std::span<const MetricInfo* const> metrics,
                                std::span<const Expectation> goals) {
  SensitivityMap map;
  for (std::size_t d = 0; d < sweep.axes.size() && d < knobs.size(); ++d)
    map.axes.push_back({knobs[d].knob, knobs[d].log, sweep.axes[d]});
  const std::size_t cells = map.cellCount();
  for (const MetricInfo* metric : metrics)
    map.metrics.push_back({metric, std::vector<double>(cells, std::nan(""))});
  map.all_goals.assign(cells, CellVerdict::unknown);
  for (const Expectation& goal : goals) {
    SensitivityGoal g;
    g.text = goal.text;
    if (goal.kind == Expectation::Kind::metric) g.metric = goal.metric;
    g.op = goal.op;
    g.value = goal.value;
    g.cells.assign(cells, CellVerdict::unknown);
    map.goals.push_back(std::move(g));
  }
  const auto verdict = [](bool met) { return met ? CellVerdict::met : CellVerdict::missed; };
  for (const SweepCell& cell : sweep.cells) {
    if (cell.index >= cells) continue;
    const Evaluation& e = cell.evaluation;
    // An invalid config measured nothing: its cell stays unknown, not a miss to draw around.
    if (e.invalid) continue;
    for (std::size_t m = 0; m < map.metrics.size() && m < e.objectives.size(); ++m)
      map.metrics[m].values[cell.index] =
          std::isfinite(e.objectives[m]) ? e.objectives[m] : std::nan("");
    map.all_goals[cell.index] = verdict(e.feasible);
    for (std::size_t g = 0; g < map.goals.size() && g < e.goals_met.size(); ++g)
      map.goals[g].cells[cell.index] = verdict(e.goals_met[g]);
  }
  return map;
}

SensitivityMap sensitivityPreviewOf(const SweepResult& partial, std::span<const KnobRange> knobs,
                                    std::span<const MetricInfo* const> metrics,
                                    std::span<const Expectation> goals) {
  SensitivityMap map = sensitivityMapOf(partial, knobs, metrics, goals);
  const std::size_t cells = map.cellCount();
  std::vector<std::vector<std::size_t>> computed;  // the places of the computed cells
  std::vector<std::size_t> computed_index;
  std::vector<char> is_computed(cells, 0);
  for (const SweepCell& cell : partial.cells)
    if (cell.index < cells && !is_computed[cell.index]) {
      is_computed[cell.index] = 1;
      computed_index.push_back(cell.index);
    }
  std::sort(computed_index.begin(), computed_index.end());  // the lower number wins a tie
  for (const std::size_t index : computed_index) computed.push_back(map.cellPlace(index));
  map.preview_cells = computed_index.size();
  if (computed_index.empty() || computed_index.size() == cells) return map;
  for (std::size_t index = 0; index < cells; ++index) {
    if (is_computed[index]) continue;
    const std::vector<std::size_t> at = map.cellPlace(index);
    std::size_t best = 0, best_distance = SIZE_MAX;
    for (std::size_t k = 0; k < computed.size(); ++k) {
      std::size_t distance = 0;
      for (std::size_t d = 0; d < at.size(); ++d) {
        const std::size_t step =
            at[d] > computed[k][d] ? at[d] - computed[k][d] : computed[k][d] - at[d];
        distance += step * step;
      }
      if (distance < best_distance) {
        best_distance = distance;
        best = computed_index[k];
      }
    }
    for (SensitivityMetric& metric : map.metrics) metric.values[index] = metric.values[best];
    map.all_goals[index] = map.all_goals[best];
    for (SensitivityGoal& goal : map.goals) goal.cells[index] = goal.cells[best];
  }
  return map;
}

}  // namespace breakerlab::views
