#pragma once
// Checkouts per second by outcome (fresh, cached, failed), stacked, under the lanes. Long
// incidents are binned to at most kMaxBins columns so the chart stays cheap to redraw.
#include <QPoint>
#include <QRectF>
#include <QWidget>
#include <optional>
#include <utility>

#include "breakerlab/core/outcome/result.h"
#include "breakerlab/views/time_axis_place.h"

class QChart;
class QChartView;
class QLineSeries;
class QAreaSeries;
class QValueAxis;
class QCategoryAxis;

namespace breakerlab::views {

class OutcomeChart : public QWidget {
  Q_OBJECT
 public:
  // About two pixels a column at the charts' usual width: more only costs fill time on every
  // repaint.
  static constexpr int kMaxBins = 300;
  explicit OutcomeChart(QWidget* parent = nullptr);

  // `start_s` is the window start (the series are indexed from it).
  void setResult(const Result& result, double start_s);
  void setTimeRange(double lower_s, double upper_s);
  // Lines the plot area and ticks up with the lanes' time axis (see per_second_chart.h).
  void alignWith(const TimeAxisPlace& place);
  // The time range shown, in seconds.
  std::pair<double, double> timeRange() const;
  // The time under the screen point `global` when it is over the plot area (key 1 or 2 puts a
  // cursor there); nullopt elsewhere.
  std::optional<double> timeAt(const QPoint& global) const;
  QChartView* view() const { return view_; }
  QChart* chart() const { return chart_; }
  // Checkouts per second in the bin containing `seconds`, by outcome (for tests).
  double stackedTopAt(double seconds) const;

 protected:
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void applyTheme();
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  // The stack's boundaries: fresh, fresh + cached, fresh + cached + failed. Each area fills from
  // zero to its boundary, the highest drawn first, so the lower ones cover it: the stack with
  // half the line geometry Qt Charts would compute for areas between two lines.
  QLineSeries* tops_[3] = {};
  QAreaSeries* areas_[3] = {};  // failed, cached, fresh: in drawing order
  QCategoryAxis* x_ = nullptr;
  TimeAxisPlace place_, applied_;
  QRectF plot_area_;
  qsizetype applied_every_ = 1;

 public:
  // Where the plot area is (null: laid out by Qt Charts), in the view's viewport (for tests).
  QRectF alignedPlotArea() const { return plot_area_; }

 private:
  QValueAxis* y_ = nullptr;
};

}  // namespace breakerlab::views
