#pragma once
// All lane rows as one QCustomPlot plottable: thousands of QCPItemRects would be slow to create
// and are not culled (research note C.2). draw() visits only the segments in the visible time
// range, folds them into pixel columns (lane_fold.h: runs narrower than a pixel become "mixed"
// marks showing each state's share) and writes a state's name inside a segment wide enough.
#include <qcustomplot.h>
#include <QFont>

#include <cstdint>
#include <optional>
#include <vector>

#include "lanes/lane_fold.h"

namespace breakerlab::views {

struct LaneBar {
  double from = 0;  // seconds
  double to = 0;
  std::uint32_t state = 0;  // into LaneRow::states
};

struct LaneState {
  QString name;
  QRgb color = 0;
};

struct LaneRow {
  double top = 0;  // value-axis coordinates; the axis runs downwards
  double bottom = 0;
  std::vector<LaneBar> bars;  // sorted, not overlapping
  std::vector<LaneState> states;
  bool ghost = false;  // the baseline config: drawn faint
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
  // One row's content (the expanded fleet's rows as they scroll); its place stays.
  void setRow(std::size_t index, LaneRow row) { rows_.at(index) = std::move(row); }
  const std::vector<LaneRow>& rows() const { return rows_; }
  // What draw() puts in row `row` at the axes' current range: the folded marks (at most one
  // per pixel column) and the state names written inside segments, with their pixel rects
  // (the widget's tests read them here; LanesView has no accessor for them).
  Folded foldedRow(std::size_t row) const;
  std::vector<std::pair<QString, QRectF>> rowNames(std::size_t row) const;
  // The font a row `row_pixels` high writes its states' names in: `font`, or a smaller one that
  // fits the row; nullopt when even the smallest readable one does not.
  static std::optional<QFont> nameFont(const QFont& font, double row_pixels);

  double selectTest(const QPointF& pos, bool only_selectable,
                    QVariant* details = nullptr) const override;
  QCPRange getKeyRange(bool& found, QCP::SignDomain domain = QCP::sdBoth) const override;
  QCPRange getValueRange(bool& found, QCP::SignDomain domain = QCP::sdBoth,
                         const QCPRange& in_key_range = QCPRange()) const override;

 protected:
  void draw(QCPPainter* painter) override;
  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

 private:
  void drawRow(QCPPainter* painter, const LaneRow& row);
  void fold(const LaneRow& row, std::vector<PixelBar>& scratch, Folded& out) const;
  // The names of the solid marks of `folded` wide enough to hold them.
  template <typename F>
  void forEachName(const LaneRow& row, const Folded& folded, F&& f) const;
  void drawMarks(QCPPainter* painter, const LaneRow& row) const;
  std::vector<LaneRow> rows_;
  // Scratch buffers of draw(), kept so that a repaint does not allocate.
  std::vector<PixelBar> pixel_bars_;
  Folded folded_;
  std::vector<QVector<QRectF>> rects_by_state_;
};

}  // namespace breakerlab::views
