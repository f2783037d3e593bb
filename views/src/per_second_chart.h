#pragma once
// What the per-second charts (outcomes, resources) share: the chart's frame, its view filling
// the widget, and following the application palette.
#include <QChart>
#include <QChartView>
#include <QPalette>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWidget>
#include <initializer_list>

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

}  // namespace breakerlab::views
