#include "report_metrics.h"

#include <QStringList>
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "breakerlab/core/metrics.h"
#include "breakerlab/views/metrics_panel.h"

namespace breakerlab::app {

namespace {

// The metric names the panel shows, in its order: the first column of asText()'s rows, which
// end at the first empty line.
QStringList shownMetrics(const views::MetricsPanel& panel) {
  QStringList names;
  const QStringList lines = panel.asText().split('\n');
  for (qsizetype i = 1; i < lines.size() && !lines[i].isEmpty(); ++i)
    names << lines[i].section('\t', 0, 0);
  return names;
}

std::string utf8(const QString& s) {
  return s.toStdString();
}

}  // namespace

std::vector<ReportMetric> metricRows(const std::vector<const Result*>& results) {
  if (results.empty()) throw std::invalid_argument("metricRows: no result");
  const Result& deployed = *results[0];
  const Checks none;

  // One panel per comparison, as the workbench shows each config against the deployed one.
  std::vector<std::unique_ptr<views::MetricsPanel>> panels;
  QStringList order;
  for (const Result* result : results) {
    auto panel = std::make_unique<views::MetricsPanel>();
    panel->setResults(*result, deployed, none);
    // Each panel shows a subsequence of the same order: a row new here goes after the row
    // before it.
    QString previous;
    for (const QString& name : shownMetrics(*panel)) {
      if (!order.contains(name))
        order.insert(previous.isEmpty() ? 0 : order.indexOf(previous) + 1, name);
      previous = name;
    }
    panels.push_back(std::move(panel));
  }

  std::vector<ReportMetric> rows;
  for (const QString& name : order) {
    const MetricInfo* info = findMetric(name.toStdString());
    if (info == nullptr) continue;
    ReportMetric row;
    row.name = info->name;
    row.label = info->label;
    for (std::size_t i = 0; i < panels.size(); ++i) {
      row.values.push_back(utf8(panels[i]->valueText(name)));
      row.deltas.push_back(i == 0 ? std::string() : utf8(panels[i]->deltaText(name)));
      row.directions.push_back(i == 0 ? 0 : panels[i]->deltaDirection(name));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace breakerlab::app
