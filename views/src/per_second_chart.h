#pragma once
// The per-second charts follow the application palette: a dark desktop gets Qt Charts' dark
// theme. Setting a theme resets series colours, so callers set their pens again afterwards.
#include <QChart>
#include <QPalette>
#include <QValueAxis>
#include <initializer_list>

namespace breakerlab::views {

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
