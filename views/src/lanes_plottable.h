#pragma once
// All lane rows as one QCustomPlot plottable: thousands of QCPItemRects would be slow to create
// and are not culled (research note C.2). draw() visits only the segments in the visible time
// range and folds runs narrower than a pixel into one pixel column.
#include <qcustomplot.h>

#include <vector>

namespace breakerlab::views {

struct LaneBar {
  double from = 0;  // seconds
  double to = 0;
  QRgb color = 0;
};

struct LaneRow {
  double top = 0;  // value-axis coordinates; the axis runs downwards
  double bottom = 0;
  std::vector<LaneBar> bars;  // sorted, not overlapping
  bool ghost = false;         // the baseline config: drawn faint
  // Event ticks drawn across the row (seconds, sorted), one pixel wide: a flapping load balancer
  // can eject and return pods hundreds of times, too many for one plot item each.
  std::vector<double> marks;
  QRgb mark_color = 0;  // with alpha
};

class LanesPlottable : public QCPAbstractPlottable {
  Q_OBJECT
 public:
  LanesPlottable(QCPAxis* key_axis, QCPAxis* value_axis);

  void setRows(std::vector<LaneRow> rows);
  const std::vector<LaneRow>& rows() const { return rows_; }

  double selectTest(const QPointF& pos, bool only_selectable,
                    QVariant* details = nullptr) const override;
  QCPRange getKeyRange(bool& found, QCP::SignDomain domain = QCP::sdBoth) const override;
  QCPRange getValueRange(bool& found, QCP::SignDomain domain = QCP::sdBoth,
                         const QCPRange& in_key_range = QCPRange()) const override;

 protected:
  void draw(QCPPainter* painter) override;
  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

 private:
  void drawRow(QCPPainter* painter, const LaneRow& row) const;
  void drawMarks(QCPPainter* painter, const LaneRow& row) const;
  std::vector<LaneRow> rows_;
};

}  // namespace breakerlab::views
