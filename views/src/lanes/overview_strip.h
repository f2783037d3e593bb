#pragma once
// The whole incident at a glance under the lanes: the replayed breaker and checkout lanes over
// the full window, with the visible range as a window that can be dragged (or clicked to jump
// to) to pan the lanes. Aligned with the lanes' time axis.
#include <QWidget>
#include <optional>
#include <vector>

#include "lanes/lane_fold.h"
#include "lanes/lanes_plottable.h"

namespace breakerlab::views {

// Pixels of the strip <-> incident seconds, over the strip's span [left, left + width).
struct OverviewScale {
  double full_from = 0, full_to = 1;  // seconds
  int left = 0, width = 1;            // pixels
  double toPixel(double seconds) const;
  double toSeconds(double x) const;
};

// The visible range [from, to] moved by `dx` pixels of the strip, kept inside the incident.
std::pair<double, double> dragRange(const OverviewScale& scale, double from, double to, double dx);
// The visible range re-centred on pixel `x` (a click outside the window), same width, inside.
std::pair<double, double> centreRangeOn(const OverviewScale& scale, double from, double to,
                                        double x);

class OverviewStrip : public QWidget {
  Q_OBJECT
 public:
  explicit OverviewStrip(QWidget* parent = nullptr);
  // The rows drawn (the lanes' replayed breaker and checkout rows), over [from, to] seconds.
  void setRows(std::vector<LaneRow> rows, double from, double to);
  void setVisibleRange(double from, double to);
  // The pixels of the strip that the time axis spans (the lanes' axis rect, in strip pixels).
  void setSpan(int left, int right);
  const OverviewScale& scale() const { return scale_; }
  std::pair<double, double> visibleRange() const { return {visible_from_, visible_to_}; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  void rangeRequested(double from, double to);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  QRectF windowRect() const;
  std::vector<LaneRow> rows_;
  OverviewScale scale_;
  double visible_from_ = 0, visible_to_ = 1;
  std::optional<double> drag_x_;
  std::vector<PixelBar> scratch_;
  Folded folded_;
};

}  // namespace breakerlab::views
