#include "breakerlab/views/outcome_chart.h"

#include "charts/per_second_chart.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "breakerlab/views/lane_colors.h"

namespace breakerlab::views {

OutcomeChart::OutcomeChart(QWidget* parent) : QWidget(parent) {
  chart_ = newPerSecondChart();
  x_ = new QCategoryAxis;
  x_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  y_ = new QValueAxis;
  y_->setTickCount(3);  // the charts are short: more labels would not fit
  // Short: the charts are short, and a longer title is cut to "checko…" (the legend names what
  // is counted).
  y_->setTitleText(tr("per s"));
  x_->setLabelFormat(QStringLiteral("%g"));
  y_->setLabelFormat(QStringLiteral("%g"));
  chart_->addAxis(x_, Qt::AlignBottom);
  chart_->addAxis(y_, Qt::AlignLeft);
  const char* names[] = {"failed", "cached", "fresh"};
  for (auto*& top : tops_) top = new QLineSeries(this);
  for (int i = 0; i < 3; ++i) {
    areas_[i] = new QAreaSeries(tops_[2 - i]);
    areas_[i]->setName(tr(names[i]));
    chart_->addSeries(areas_[i]);
    areas_[i]->attachAxis(x_);
    areas_[i]->attachAxis(y_);
  }
  applyTheme();
  view_ = embedChart(this, chart_);
  view_->viewport()->installEventFilter(this);
}

void OutcomeChart::setResult(const Result& result, double start_s) {
  const SecondSeries& s = result.per_second;
  const std::size_t seconds = s.checkouts.size();
  const std::size_t per_bin = std::max<std::size_t>(1, (seconds + kMaxBins - 1) / kMaxBins);
  QList<QPointF> points[3];
  double peak = 1;
  for (std::size_t b = 0; b * per_bin < seconds; ++b) {
    double fresh = 0, cached = 0, failed = 0;
    const std::size_t end = std::min(seconds, (b + 1) * per_bin);
    for (std::size_t i = b * per_bin; i < end; ++i) {
      fresh += s.fresh[i];
      cached += s.cached[i];
      failed += s.failed[i];
    }
    const double width = static_cast<double>(end - b * per_bin);
    const double x0 = start_s + static_cast<double>(b * per_bin), x1 = x0 + width;
    const double levels[3] = {fresh / width, (fresh + cached) / width,
                              (fresh + cached + failed) / width};
    peak = std::max(peak, levels[2]);
    for (int k = 0; k < 3; ++k) {  // a step: flat across the bin
      points[k].append(QPointF(x0, levels[k]));
      points[k].append(QPointF(x1, levels[k]));
    }
  }
  for (int k = 0; k < 3; ++k) tops_[k]->replace(points[k]);  // whole series: fast
  setAxisTop(y_, peak * 1.05, true);
  if (seconds > 0 && x_->min() == 0 && x_->max() == 1)
    x_->setRange(start_s, start_s + static_cast<double>(seconds));
}

void OutcomeChart::applyTheme() {
  applyChartPalette(chart_, palette(), {static_cast<QValueAxis*>(x_), y_});
  const QColor colors[] = {palette::kBad, palette::kCached, palette::kGood};
  for (int i = 0; i < 3; ++i) {
    areas_[i]->setColor(colors[i]);
    areas_[i]->setPen(Qt::NoPen);  // a zero-height area would still draw its border
  }
}

void OutcomeChart::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) applyTheme();
  QWidget::changeEvent(event);
}

void OutcomeChart::setTimeRange(double lower_s, double upper_s) {
  x_->setRange(lower_s, upper_s);
}

std::pair<double, double> OutcomeChart::timeRange() const {
  return {x_->min(), x_->max()};
}

std::optional<double> OutcomeChart::timeAt(const QPoint& global) const {
  return timeUnder(view_, global);
}

void OutcomeChart::alignWith(const TimeAxisPlace& place) {
  place_ = place;
  alignTimeAxis(chart_, view_, x_, place_, applied_, applied_every_, plot_area_);
}

bool OutcomeChart::eventFilter(QObject* watched, QEvent* event) {
  // Laid out again whenever the viewport changes size or is shown: a resize of this widget
  // reaches it, and so does a dock shown after the start page hid it, which sizes the viewport
  // after this widget (issue #33, item 6: the chart kept half the width until a resize).
  if (watched == view_->viewport() &&
      (event->type() == QEvent::Resize || event->type() == QEvent::Show) && !place_.ticks.isEmpty())
    alignTimeAxis(chart_, view_, x_, place_, applied_, applied_every_, plot_area_);
  return QWidget::eventFilter(watched, event);
}

double OutcomeChart::stackedTopAt(double seconds) const {
  const auto points = tops_[2]->points();
  for (int i = 0; i + 1 < points.size(); i += 2)
    if (points[i].x() <= seconds && seconds < points[i + 1].x()) return points[i].y();
  return 0;
}

}  // namespace breakerlab::views
