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

}  // namespace breakerlab::views
