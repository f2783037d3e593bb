#include "breakerlab/views/metric_cells.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "breakerlab/views/qt_text.h"

namespace breakerlab::views {

QString formatMetric(std::string_view unit, const std::optional<double>& value, bool integral) {
  if (!value) return QStringLiteral("—");
  const QLocale locale = QLocale::system();
  QString number = integral ? locale.toString(static_cast<qlonglong>(std::llround(*value)))
                            : locale.toString(*value, 'f', unit == "ms" ? 1 : 2);
  if (!unit.empty()) number += (unit == "%" ? QString() : QStringLiteral(" ")) + qs(unit);
  return number;
}

QString formatDelta(std::string_view unit, double delta, bool integral) {
  QString text = unit == "%" ? formatMetric("", delta, integral) + QStringLiteral(" pp")
                             : formatMetric(unit, delta, integral);
  return delta > 0 ? QStringLiteral("+") + text : text;
}

int deltaDirectionOf(const MetricInfo& metric, double delta) {
  if (delta == 0) return 0;
  switch (metric.direction) {
    case MetricDirection::lower_is_better:
      return delta < 0 ? 1 : -1;
    case MetricDirection::higher_is_better:
      return delta > 0 ? 1 : -1;
    case MetricDirection::neutral:
      return 0;
  }
  return 0;
}

std::vector<const MetricInfo*> metricRowOrder() {
  std::vector<const MetricInfo*> order = metricsIn(MetricList::workbench_headline);
  for (const MetricInfo& info : metricRegistry())
    if (std::find(order.begin(), order.end(), &info) == order.end()) order.push_back(&info);
  return order;
}

MetricCells metricCells(const MetricInfo& metric, const Metrics& current, const Metrics& baseline) {
  MetricCells cells;
  const auto now = metric.get(current);
  const auto before = metric.get(baseline);
  cells.shown = metricRowApplies(metric, current, baseline);
  cells.value = formatMetric(metric.unit, now, metric.integral);
  cells.baseline = formatMetric(metric.unit, before, metric.integral);
  if (now && before) {
    const double d = *now - *before;
    if (std::abs(d) > 1e-9 * std::max(1.0, std::abs(*before))) {
      cells.delta = formatDelta(metric.unit, d, metric.integral);
      cells.direction = deltaDirectionOf(metric, d);
    }
  } else if (now.has_value() != before.has_value()) {
    // The panel's words: translated in its context.
    cells.delta =
        now ? QCoreApplication::translate("breakerlab::views::MetricsPanel", "now defined")
            : QCoreApplication::translate("breakerlab::views::MetricsPanel", "now undefined");
  }
  return cells;
}

}  // namespace breakerlab::views
