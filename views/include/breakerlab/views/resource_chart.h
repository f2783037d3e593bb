#pragma once
// What the client's resources did, second by second, under the outcome chart: workers busy,
// connections in use, retries waiting out their backoff, calls the dependency holds (peaks per
// second) and pods in rotation (the fewest per second, on an axis of its own). Only the series
// the run has are shown; a run with none (unlimited workers and pool, one pod, no retries) has
// nothing to show and the window hides the chart. Long incidents are binned to at most kMaxBins
// columns, keeping each bin's peak (for pods, its minimum).
#include <QPoint>
#include <QRectF>
#include <QStringList>
#include <QWidget>
#include <array>
#include <optional>
#include <utility>

#include "breakerlab/core/outcome/result.h"
#include "breakerlab/views/time_axis_place.h"

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class QCategoryAxis;

namespace breakerlab::views {

class ResourceChart : public QWidget {
  Q_OBJECT
 public:
  // About two pixels a column at the charts' usual width: more only costs fill time on every
  // repaint.
  static constexpr int kMaxBins = 300;
  explicit ResourceChart(QWidget* parent = nullptr);

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

  // Whether the last result had any resource series.
  bool hasSeries() const { return !shownNames().isEmpty(); }
  // The legend names of the series shown ("workers busy", "pods in rotation", ...).
  QStringList shownNames() const;
  // The value drawn for a series in the bin containing `seconds` (for tests); -1 when the
  // series is not shown.
  double valueAt(const QString& name, double seconds) const;

 protected:
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  static constexpr int kSeries = 5;
  void applyTheme();
  void attach(unsigned shown);
  // The pods axis's range, in the pods' legend entry (the axis has no room for labels).
  void showPodsScale();
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  std::array<QLineSeries*, kSeries> series_{};
  QCategoryAxis* x_ = nullptr;
  TimeAxisPlace place_, applied_;
  QRectF plot_area_;
  qsizetype applied_every_ = 1;

 public:
  // Where the plot area is (null: laid out by Qt Charts), in the view's viewport (for tests).
  QRectF alignedPlotArea() const { return plot_area_; }

 private:
  QValueAxis* y_ = nullptr;     // counts of things in use
  QValueAxis* pods_ = nullptr;  // pods in rotation, right (left when it is the only series)
  unsigned shown_ = 0;          // bit i: series_[i] is in the chart
};

}  // namespace breakerlab::views
