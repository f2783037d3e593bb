#pragma once
// Checkouts per second by outcome (fresh, cached, failed), stacked, under the lanes. Long
// incidents are binned to at most kMaxBins columns so the chart stays cheap to redraw.
#include <QWidget>

#include "breakerlab/core/result.h"

class QChart;
class QChartView;
class QLineSeries;
class QAreaSeries;
class QValueAxis;

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
  QChartView* view() const { return view_; }
  QChart* chart() const { return chart_; }
  // Checkouts per second in the bin containing `seconds`, by outcome (for tests).
  double stackedTopAt(double seconds) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyTheme();
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  // The stack's boundaries: fresh, fresh + cached, fresh + cached + failed. Each area fills from
  // zero to its boundary, the highest drawn first, so the lower ones cover it: the stack with
  // half the line geometry Qt Charts would compute for areas between two lines.
  QLineSeries* tops_[3] = {};
  QAreaSeries* areas_[3] = {};  // failed, cached, fresh: in drawing order
  QValueAxis* x_ = nullptr;
  QValueAxis* y_ = nullptr;
};

}  // namespace breakerlab::views
