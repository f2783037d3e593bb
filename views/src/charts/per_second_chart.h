#pragma once
// What the per-second charts (outcomes, resources) share: the chart's frame, its view filling
// the widget, and following the application palette.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QList>
#include <QPair>
#include <QPalette>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "breakerlab/views/time_axis_place.h"

namespace breakerlab::views {

// The room a legend keeps round its entries: its layout's contents margins. Left to the style,
// they were about 9 px a side, which placeLegend did not count, so an entry it found room for in
// the column left of the plot was cut ("cac…", the second walkthrough of issue #33).
constexpr qreal kLegendMargin = 2;

inline QMarginsF legendMargins(const QLegend* legend) {
  qreal left = 0, top = 0, right = 0, bottom = 0;
  if (const QGraphicsLayout* layout = legend->layout())
    layout->getContentsMargins(&left, &top, &right, &bottom);
  return {left, top, right, bottom};
}

inline QChart* newPerSecondChart() {
  auto* chart = new QChart;
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->legend()->setAlignment(Qt::AlignRight);
  if (QGraphicsLayout* layout = chart->legend()->layout())
    layout->setContentsMargins(kLegendMargin, kLegendMargin, kLegendMargin, kLegendMargin);
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

// The time under the screen point `global` when it is over `view`'s plot area, read off the
// chart's own axes (right under the lanes or floating: either way the time the chart shows
// there); nullopt elsewhere, or when the chart is not on screen.
inline std::optional<double> timeUnder(const QChartView* view, const QPoint& global) {
  if (!view->isVisible()) return std::nullopt;
  const QPoint local = view->mapFromGlobal(global);
  QChart* chart = view->chart();  // mapToValue is not const
  if (!view->rect().contains(local) || chart->series().isEmpty()) return std::nullopt;
  const QPointF at = chart->mapFromScene(view->mapToScene(local));
  if (!chart->plotArea().contains(at)) return std::nullopt;
  return chart->mapToValue(at, chart->series().first()).x();
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

// Where a chart's legend goes, given the plot area and the room for a column left of it: in that
// column when the widest entry fits and it holds them all, otherwise in rows over the plot area,
// which gives up their height. Either way every entry is whole: Qt Charts cuts a label to the
// room it is given ("fail…", "cac…", issue #33), and flows entries into rows or columns. The
// legend's margins (legendMargins) are room its entries do not get.
struct LegendPlace {
  QRectF legend;
  QRectF plot_area;
  Qt::Alignment alignment = Qt::AlignLeft;  // AlignLeft: a column; AlignTop: rows
};

inline LegendPlace placeLegend(const QRectF& plot_area, const QRectF& column,
                               const QList<double>& entry_widths, double entry_height,
                               const QMarginsF& margins = {}) {
  double widest = 0;
  for (double w : entry_widths) widest = std::max(widest, w);
  const double across = margins.left() + margins.right(), down = margins.top() + margins.bottom();
  const double column_height = entry_height * static_cast<double>(entry_widths.size());
  if (entry_widths.isEmpty() ||
      (widest + across <= column.width() && column_height + down <= column.height()))
    return {column, plot_area, Qt::AlignLeft};
  // Rows as wide as the plot area, filled as Qt Charts fills them: an entry that would end past
  // the right edge starts the next row.
  int rows = 1;
  double x = 0;
  for (double w : entry_widths) {
    if (x > 0 && x + w > plot_area.width() - across) {
      ++rows;
      x = 0;
    }
    x += w;
  }
  const double legend_height = entry_height * rows + down;
  QRectF area = plot_area;
  area.setTop(std::min(plot_area.top() + legend_height, plot_area.bottom() - 20));
  return {QRectF(plot_area.left(), plot_area.top(), plot_area.width(), legend_height), area,
          Qt::AlignTop};
}

// The room a legend entry takes: its marker, the gaps Qt Charts leaves around it and its label.
inline QList<double> legendEntryWidths(const QLegend* legend) {
  const QFontMetricsF metrics(legend->font());
  QList<double> widths;
  for (const QLegendMarker* marker : legend->markers())
    if (marker->isVisible())
      widths << std::ceil(metrics.horizontalAdvance(marker->label()) + metrics.height() + 16);
  return widths;
}
inline double legendEntryHeight(const QLegend* legend) {
  return std::ceil(QFontMetricsF(legend->font()).height() + 8);
}

// Lines the chart's plot area up with the lanes' time axis, pixel for pixel, with the same ticks
// and labels. The y axis goes into the margin left of it (the lanes' row titles take the same
// room), and the legend beside it or over the plot area (placeLegend). Where the chart is not
// under the lanes (a floating dock, a margin too narrow for the y axis), the plot area is laid
// out as Qt Charts would, with the same ticks. `applied` holds what was last set, so that a
// repaint that changes nothing touches nothing (any change makes Qt Charts lay out and shape
// every label again); a null `plot_area` lays the chart out again.
inline void alignTimeAxis(QChart* chart, QChartView* view, QCategoryAxis* x,
                          const TimeAxisPlace& place, TimeAxisPlace& applied,
                          qsizetype& applied_every, QRectF& plot_area) {
  const QWidget* viewport = view->viewport();
  const int left = viewport->mapFromGlobal(QPoint(place.global_left, 0)).x();
  const int right = viewport->mapFromGlobal(QPoint(place.global_right, 0)).x();
  constexpr int kYAxisRoom = kChartYAxisRoom, kTop = 6, kXLabelsRoom = 26;
  const bool aligned = left >= kChartLeftRoom && right > left + 50 && right <= viewport->width();
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
  // the lanes, the area and the legend are placed here too.
  const double height = std::max(20, viewport->height() - kTop - kXLabelsRoom);
  const QRectF whole =
      aligned ? QRectF(left, kTop, right - left + 1, height)
              : QRectF(kYAxisRoom, kTop,
                       std::max(40, viewport->width() - kYAxisRoom - kRightAxisRoom), height);
  QLegend* legend = chart->legend();
  const QRectF column = aligned ? QRectF(2, kTop, left - kYAxisRoom - 4, height) : QRectF();
  const LegendPlace placed = placeLegend(whole, column, legendEntryWidths(legend),
                                         legendEntryHeight(legend), legendMargins(legend));
  // A legend is never smaller than its margins and one entry: rows over the plot area that come
  // out taller push it down.
  const auto below_legend = [&placed, legend] {
    QRectF area = placed.plot_area;
    if (placed.alignment == Qt::AlignTop)
      area.setTop(std::min(area.bottom() - 20, std::max(area.top(), legend->geometry().bottom())));
    return area;
  };
  const QRectF was = legend->geometry();
  if (legend->alignment() == placed.alignment && was.topLeft() == placed.legend.topLeft() &&
      was.width() == placed.legend.width() && below_legend() == plot_area)
    return;
  legend->detachFromChart();
  legend->setAlignment(placed.alignment);
  legend->setGeometry(placed.legend);
  legend->update();
  plot_area = below_legend();
  chart->setPlotArea(plot_area);
}

}  // namespace breakerlab::views
