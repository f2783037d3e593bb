#include "breakerlab/views/resource_chart.h"

#include "charts/per_second_chart.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <charconv>

#include "breakerlab/views/lane_colors.h"

namespace breakerlab::views {

namespace {

constexpr int kPods = 4;  // the series drawn on the pods axis

struct SeriesSpec {
  const char* name;
  std::vector<std::uint32_t> SecondSeries::*values;
  QColor color;
};

const SeriesSpec& spec(int i) {
  static const SeriesSpec kSpecs[] = {
      // Every pair at least 45 apart in CIELAB: the slate grey and the teal that workers and
      // calls in flight had were 31 apart, too close to tell (the second walkthrough, #33).
      {QT_TR_NOOP("workers busy"), &SecondSeries::workers_busy, QColor(0x3d, 0x44, 0x51)},
      {QT_TR_NOOP("connections in use"), &SecondSeries::pool_busy, palette::kCached},
      {QT_TR_NOOP("pending retries"), &SecondSeries::pending_retries, palette::kWarn},
      {QT_TR_NOOP("calls in flight"), &SecondSeries::dependency_load, QColor(0xb0, 0x4f, 0xa0)},
      {QT_TR_NOOP("pods in rotation"), &SecondSeries::pods_in_rotation, palette::kGood},
  };
  return kSpecs[i];
}

// N of the pods lane's "k of N pods", or 0.
std::uint32_t podCount(const Result& result) {
  if (result.pods.intervals.empty()) return 0;
  const std::string& state = result.pods.intervals.front().state;
  const auto of = state.find(" of ");
  if (of == std::string::npos) return 0;
  std::uint32_t n = 0;
  std::from_chars(state.data() + of + 4, state.data() + state.size(), n);
  return n;
}

}  // namespace

ResourceChart::ResourceChart(QWidget* parent) : QWidget(parent) {
  chart_ = newPerSecondChart();
  x_ = new QCategoryAxis;
  x_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  y_ = new QValueAxis;
  y_->setTickCount(3);  // the charts are short: more labels would not fit
  // The pods' own axis, right of the plot area: Qt Charts cuts its labels to "…" in the room the
  // lanes leave there, so it shows its ticks only and the legend gives its scale
  // ("pods in rotation (0–8)").
  pods_ = new QValueAxis;
  pods_->setTitleVisible(false);
  pods_->setLabelsVisible(false);
  for (QValueAxis* axis : {static_cast<QValueAxis*>(x_), y_, pods_})
    axis->setLabelFormat(QStringLiteral("%g"));
  chart_->addAxis(x_, Qt::AlignBottom);
  chart_->addAxis(y_, Qt::AlignLeft);
  chart_->addAxis(pods_, Qt::AlignRight);
  for (int i = 0; i < kSeries; ++i) {
    series_[static_cast<std::size_t>(i)] = new QLineSeries(this);
    series_[static_cast<std::size_t>(i)]->setName(tr(spec(i).name));
  }
  attach(0);
  applyTheme();
  view_ = embedChart(this, chart_);
  view_->viewport()->installEventFilter(this);
}

void ResourceChart::setResult(const Result& result, double start_s) {
  unsigned shown = 0;
  std::size_t seconds = 0;
  for (int i = 0; i < kSeries; ++i) {
    const auto& values = result.per_second.*spec(i).values;
    if (values.empty()) continue;
    shown |= 1u << i;
    seconds = std::max(seconds, values.size());
  }
  const std::size_t per_bin = std::max<std::size_t>(1, (seconds + kMaxBins - 1) / kMaxBins);
  double peak = 1, most_pods = std::max<double>(1, podCount(result));
  for (int i = 0; i < kSeries; ++i) {
    const auto& values = result.per_second.*spec(i).values;
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(2 * (values.size() / per_bin + 1)));
    for (std::size_t b = 0; b * per_bin < values.size(); ++b) {
      const auto first = values.begin() + static_cast<std::ptrdiff_t>(b * per_bin);
      const auto last =
          values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size(), (b + 1) * per_bin));
      // Peaks stay peaks when binned; for pods the bin keeps its fewest.
      const double v = i == kPods ? *std::min_element(first, last) : *std::max_element(first, last);
      const double x0 = start_s + static_cast<double>(b * per_bin);
      const double x1 = x0 + static_cast<double>(last - first);
      points.append(QPointF(x0, v));  // a step: flat across the bin
      points.append(QPointF(x1, v));
      if (i == kPods)
        most_pods = std::max(most_pods, v);
      else
        peak = std::max(peak, v);
    }
    series_[static_cast<std::size_t>(i)]->replace(points);  // whole series: fast
  }
  if (shown != shown_) attach(shown);
  setAxisTop(y_, peak * 1.05, true);
  setAxisTop(pods_, most_pods, most_pods > 4);
  showPodsScale();
  if (seconds > 0 && x_->min() == 0 && x_->max() == 1)
    x_->setRange(start_s, start_s + static_cast<double>(seconds));
}

void ResourceChart::attach(unsigned shown) {
  // Only the series the run has are in the chart (and its legend). Pods in rotation get an axis
  // of their own on the right, or the left one when they are the only series.
  // removeSeries() hands a series back without a parent: this widget owns it again.
  for (QLineSeries* s : series_) {
    if (!chart_->series().contains(s)) continue;
    chart_->removeSeries(s);
    s->setParent(this);
  }
  const bool counts = (shown & ~(1u << kPods)) != 0;
  const bool pods = (shown & (1u << kPods)) != 0;
  QValueAxis* pods_axis = counts ? pods_ : y_;
  for (int i = 0; i < kSeries; ++i) {
    if ((shown & (1u << i)) == 0) continue;
    QLineSeries* s = series_[static_cast<std::size_t>(i)];
    chart_->addSeries(s);
    s->attachAxis(x_);
    s->attachAxis(i == kPods ? pods_axis : y_);
  }
  y_->setTitleText(counts ? tr("in use") : tr("pods"));
  pods_->setVisible(counts && pods);
  y_->setVisible(shown != 0);
  shown_ = shown;
  applyTheme();  // series added to the chart take the theme's colours
  // Other entries in the legend: it is placed again.
  plot_area_ = QRectF();
  if (!place_.ticks.isEmpty())
    alignTimeAxis(chart_, view_, x_, place_, applied_, applied_every_, plot_area_);
}

void ResourceChart::showPodsScale() {
  QLineSeries* pods = series_[static_cast<std::size_t>(kPods)];
  const QList<QLegendMarker*> markers = chart_->legend()->markers(pods);
  if (markers.isEmpty()) return;
  const QString label = pods_->isVisible()
                            ? tr("%1 (0–%2)").arg(pods->name(), QString::number(pods_->max()))
                            : pods->name();
  if (markers.front()->label() == label) return;
  markers.front()->setLabel(label);
  // A wider entry: the legend is placed again.
  plot_area_ = QRectF();
  if (!place_.ticks.isEmpty())
    alignTimeAxis(chart_, view_, x_, place_, applied_, applied_every_, plot_area_);
}

QStringList ResourceChart::shownNames() const {
  QStringList names;
  for (int i = 0; i < kSeries; ++i)
    if (shown_ & (1u << i)) names << series_[static_cast<std::size_t>(i)]->name();
  return names;
}

double ResourceChart::valueAt(const QString& name, double seconds) const {
  for (int i = 0; i < kSeries; ++i) {
    const QLineSeries* s = series_[static_cast<std::size_t>(i)];
    if (s->name() != name || (shown_ & (1u << i)) == 0) continue;
    const auto points = s->points();
    for (qsizetype p = 0; p + 1 < points.size(); p += 2)
      if (points[p].x() <= seconds && seconds < points[p + 1].x()) return points[p].y();
    return 0;
  }
  return -1;
}

void ResourceChart::applyTheme() {
  applyChartPalette(chart_, palette(), {static_cast<QValueAxis*>(x_), y_, pods_});
  // Series often coincide (each busy worker holds one call in flight): each is drawn thinner
  // than the one before it, so that both colours show where they do.
  for (int i = 0; i < kSeries; ++i)
    series_[static_cast<std::size_t>(i)]->setPen(
        QPen(spec(i).color, i == kPods ? 1.5 : 4.0 - i * 0.75));
}

void ResourceChart::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) applyTheme();
  QWidget::changeEvent(event);
}

void ResourceChart::setTimeRange(double lower_s, double upper_s) {
  x_->setRange(lower_s, upper_s);
}

std::pair<double, double> ResourceChart::timeRange() const {
  return {x_->min(), x_->max()};
}

std::optional<double> ResourceChart::timeAt(const QPoint& global) const {
  return timeUnder(view_, global);
}

void ResourceChart::alignWith(const TimeAxisPlace& place) {
  place_ = place;
  alignTimeAxis(chart_, view_, x_, place_, applied_, applied_every_, plot_area_);
}

bool ResourceChart::eventFilter(QObject* watched, QEvent* event) {
  // Laid out again whenever the viewport changes size or is shown: a resize of this widget
  // reaches it, and so does a dock shown after the start page hid it, which sizes the viewport
  // after this widget (issue #33, item 6: the chart kept half the width until a resize).
  if (watched == view_->viewport() &&
      (event->type() == QEvent::Resize || event->type() == QEvent::Show) && !place_.ticks.isEmpty())
    alignTimeAxis(chart_, view_, x_, place_, applied_, applied_every_, plot_area_);
  return QWidget::eventFilter(watched, event);
}

}  // namespace breakerlab::views
