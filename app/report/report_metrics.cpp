#include "report_metrics.h"

#include <stdexcept>

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/views/metric_cells.h"

namespace breakerlab::app {

std::vector<ReportMetric> metricRows(const std::vector<const Result*>& results,
                                     const DependencyWords& words) {
  if (results.empty()) throw std::invalid_argument("metricRows: no result");
  const Metrics& deployed = results[0]->metrics;
  std::vector<ReportMetric> rows;
  for (const MetricInfo* info : views::metricRowOrder()) {
    // The cells of each config against the deployed one, as the workbench shows them.
    std::vector<views::MetricCells> cells;
    bool shown = false;
    for (const Result* result : results) {
      cells.push_back(views::metricCells(*info, result->metrics, deployed));
      shown = shown || cells.back().shown;
    }
    if (!shown) continue;
    ReportMetric row;
    row.name = info->name;
    row.label = inDependencyWords(info->label, words);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      row.values.push_back(cells[i].value.toStdString());
      row.deltas.push_back(i == 0 ? std::string() : cells[i].delta.toStdString());
      row.directions.push_back(i == 0 ? 0 : cells[i].direction);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace breakerlab::app
