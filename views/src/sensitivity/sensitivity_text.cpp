#include "breakerlab/views/sensitivity_text.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>
#include <cmath>
#include <optional>

#include "breakerlab/views/metrics_panel.h"
#include "breakerlab/views/qt_text.h"
#include "knobs/knob_scale.h"

namespace breakerlab::views {

namespace {
QString sensitivityTr(const char* text) {
  return QCoreApplication::translate("SensitivityPlot", text);
}
}  // namespace

QString knobValueText(const KnobSpec& knob, double value) {
  switch (knob.kind) {
    case KnobSpec::Kind::toggle:
      return value != 0 ? sensitivityTr("on") : sensitivityTr("off");
    case KnobSpec::Kind::choice: {
      const auto index = static_cast<std::size_t>(std::lround(value));
      return value >= 0 && index < knob.choices.size() ? qs(knob.choices[index].name)
                                                       : QString::number(value);
    }
    case KnobSpec::Kind::number:
      break;
  }
  if (value == 0 && !knob.zero.empty()) return qs(knob.zero);
  if (knobIsDuration(knob))
    return QString::fromStdString(formatDuration(knobMicros(knob, value), knob.unit));
  QString text = QLocale().toString(value, 'f', knob.decimals);
  if (knob.unit == "%") return text + QStringLiteral("%");
  if (!knob.unit.empty()) text += QStringLiteral(" ") + qs(knob.unit);
  return text;
}

QString metricValueText(const MetricInfo& metric, double value) {
  return formatMetric(metric.unit, std::isnan(value) ? std::nullopt : std::optional<double>(value),
                      metric.integral);
}

QString knobAxisTitle(const KnobSpec& knob) {
  QString title = qs(knob.label);
  if (knob.kind == KnobSpec::Kind::number && !knobIsDuration(knob) && !knob.unit.empty())
    title += QStringLiteral(" (") + qs(knob.unit) + QStringLiteral(")");
  return title;
}

QString metricAxisTitle(const MetricInfo& metric) {
  QString title = qs(metric.label);
  if (!metric.unit.empty()) title += QStringLiteral(" (") + qs(metric.unit) + QStringLiteral(")");
  return title;
}

QString compareText(CompareOp op) {
  switch (op) {
    case CompareOp::eq:
      return QStringLiteral("=");
    case CompareOp::ne:
      return QStringLiteral("≠");
    case CompareOp::lt:
      return QStringLiteral("<");
    case CompareOp::le:
      return QStringLiteral("≤");
    case CompareOp::gt:
      return QStringLiteral(">");
    case CompareOp::ge:
      return QStringLiteral("≥");
  }
  return {};
}

QString goalBoundText(const SensitivityGoal& goal, const MetricInfo* metric) {
  const QString op = compareText(goal.op);
  // The bound as written ("3 s", not "3.00 s").
  QString value = QLocale().toString(goal.value);
  if (metric != nullptr && !metric->unit.empty())
    value += (metric->unit == "%" ? QString() : QStringLiteral(" ")) + qs(metric->unit);
  return op + QStringLiteral(" ") + value;
}

QString goalText(const SensitivityGoal& goal) {
  const MetricInfo* metric = goal.metric.empty() ? nullptr : findMetric(goal.metric);
  if (metric == nullptr) return QString::fromStdString(goal.text);
  return qs(metric->label) + QStringLiteral(" ") + goalBoundText(goal, metric);
}

QString cellToolTip(const SensitivityMap& map, std::size_t cell) {
  if (cell >= map.cellCount()) return {};
  QStringList knobs;
  const std::vector<double> values = map.cellValues(cell);
  for (std::size_t d = 0; d < map.axes.size(); ++d)
    knobs << qs(map.axes[d].knob->label) + QStringLiteral(" ") +
                 knobValueText(*map.axes[d].knob, values[d]);
  QStringList lines{knobs.join(QStringLiteral(" · "))};
  for (const SensitivityMetric& m : map.metrics)
    lines << qs(m.metric->label) + QStringLiteral(": ") +
                 metricValueText(*m.metric, m.values[cell]);
  if (map.all_goals.size() > cell) {
    switch (map.all_goals[cell]) {
      case CellVerdict::unknown:
        lines << sensitivityTr("Not computed");
        break;
      case CellVerdict::met:
        lines << (map.goals.size() == 1
                      ? sensitivityTr("Meets the goal")
                      : sensitivityTr("Meets all %1 goals").arg(map.goals.size()));
        break;
      case CellVerdict::missed: {
        QStringList missed;
        for (const SensitivityGoal& goal : map.goals)
          if (goal.cells.size() > cell && goal.cells[cell] == CellVerdict::missed)
            missed << goalText(goal);
        lines << sensitivityTr("Misses: %1").arg(missed.join(QStringLiteral(", ")));
        break;
      }
    }
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace breakerlab::views
