#pragma once
// What the per-second charts (outcomes, resources) share: the chart's frame, its view filling
// the widget, and following the application palette.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QList>
#include <QPair>
#include <QPalette>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWidget>
#include <initializer_list>

#include "breakerlab/views/time_axis_place.h"

namespace breakerlab::views {

inline QChart* newPerSecondChart() {
  auto* chart = new QChart;
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setBackgroundRoundness(0);
  return chart;
}

// A view of `chart` that fills `owner`.
inline QChartView* embedChart(QWidget* owner, QChart* chart) {
  auto* view = new QChartView(chart);
  view->setRenderHint(QPainter::Antialiasing, false);
  auto* layout = new QVBoxLayout(owner);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view);
  return view;
}

// A dark desktop gets Qt Charts' dark theme. Setting a theme resets series colours, so callers
// set their pens again afterwards.
inline void applyChartPalette(QChart* chart, const QPalette& palette,
                              std::initializer_list<QValueAxis*> axes) {
  const bool dark = palette.color(QPalette::Window).lightness() < 128;
  chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setBackgroundBrush(palette.brush(QPalette::Base));
  chart->legend()->setLabelColor(palette.color(QPalette::WindowText));
  for (QValueAxis* axis : axes) {
    axis->setLabelsColor(palette.color(QPalette::WindowText));
    axis->setTitleBrush(palette.brush(QPalette::WindowText));
  }
}

// Sets `axis` to run from 0 to `top`, rounded to nice numbers when `nice`. A chart lays out its
// axes again (text shaping every label) on any range change, which costs more than the rest of
// a repaint, so the axis is only touched when the rounded range differs from what it shows:
// dragging a knob rarely moves a chart's nice top.
inline void setAxisTop(QValueAxis* axis, double top, bool nice) {
  double min = 0, max = top;
  int ticks = axis->tickCount();
  if (nice) {
    QValueAxis probe;  // detached: rounding it lays nothing out
    probe.setTickCount(ticks);
    probe.setRange(0, top);
    probe.applyNiceNumbers();
    min = probe.min();
    max = probe.max();
    ticks = probe.tickCount();
  }
  if (axis->min() == min && axis->max() == max && axis->tickCount() == ticks) return;
  axis->setRange(min, max);
  axis->setTickCount(ticks);
}

// Lines the chart's plot area up with the lanes' time axis, pixel for pixel, with the same ticks
// and labels. The y axis and the legend go into the margin left of it (the lanes' row titles
// take the same room). Where the chart is not under the lanes (a floating dock, a margin too
// narrow for the y axis), the plot area is laid out as Qt Charts would, with the same ticks.
// `applied` holds what was last set, so that a repaint that changes nothing touches nothing
// (any change makes Qt Charts lay out and shape every label again).
inline void alignTimeAxis(QChart* chart, QChartView* view, QCategoryAxis* x,
                          const TimeAxisPlace& place, TimeAxisPlace& applied,
                          qsizetype& applied_every, QRectF& plot_area) {
  const QWidget* viewport = view->viewport();
  const int left = viewport->mapFromGlobal(QPoint(place.global_left, 0)).x();
  const int right = viewport->mapFromGlobal(QPoint(place.global_right, 0)).x();
  constexpr int kYAxisRoom = 58, kTop = 6, kXLabelsRoom = 26;
  const bool aligned = left >= kYAxisRoom + 40 && right > left + 50 && right <= viewport->width();
  // Not under the lanes, the chart is narrower than they are: every k-th of their ticks.
  const qsizetype every =
      aligned ? 1
              : std::max<qsizetype>(1, (place.ticks.size() * 90 + viewport->width() / 2) /
                                           std::max(1, viewport->width() / 2));
  if (!(place.ticks == applied.ticks) || every != applied_every) {
    for (const QString& label : x->categoriesLabels()) x->remove(label);
    double last = -1e300;
    for (qsizetype i = 0; i < place.ticks.size(); i += every) {
      const auto& [at, label] = place.ticks[i];
      if (at <= last || x->categoriesLabels().contains(label)) continue;  // must increase, unique
      x->append(label, at);
      last = at;
    }
    applied_every = every;
  }
  applied = place;
  // Qt Charts does not go back to laying out the plot area itself once it was set: not under
  // the lanes, the area and the legend are placed here too (legend on the right).
  constexpr int kLegendRoom = 96;
  const double height = std::max(20, viewport->height() - kTop - kXLabelsRoom);
  const QRectF area =
      aligned ? QRectF(left, kTop, right - left + 1, height)
              : QRectF(kYAxisRoom, kTop,
                       std::max(40, viewport->width() - kYAxisRoom - kLegendRoom - 8), height);
  if (area == plot_area) return;
  plot_area = area;
  chart->setPlotArea(area);
  QLegend* legend = chart->legend();
  legend->detachFromChart();
  legend->setAlignment(Qt::AlignLeft);
  legend->setGeometry(aligned ? QRectF(2, kTop, left - kYAxisRoom - 4, area.height())
                              : QRectF(area.right() + 8, kTop, kLegendRoom, area.height()));
  legend->update();
}

}  // namespace breakerlab::views
