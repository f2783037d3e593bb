#include "lanes/overview_strip.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

namespace breakerlab::views {

double OverviewScale::toPixel(double seconds) const {
  const double span = full_to - full_from;
  return left + (span > 0 ? (seconds - full_from) / span * width : 0);
}

double OverviewScale::toSeconds(double x) const {
  return full_from + (width > 0 ? (x - left) / width * (full_to - full_from) : 0);
}

namespace {
std::pair<double, double> keepInside(const OverviewScale& scale, double from, double to) {
  const double size = std::min(to - from, scale.full_to - scale.full_from);
  from = std::clamp(from, scale.full_from, scale.full_to - size);
  return {from, from + size};
}
}  // namespace

std::pair<double, double> dragRange(const OverviewScale& scale, double from, double to, double dx) {
  const double shift = scale.width > 0 ? dx / scale.width * (scale.full_to - scale.full_from) : 0;
  return keepInside(scale, from + shift, to + shift);
}

std::pair<double, double> centreRangeOn(const OverviewScale& scale, double from, double to,
                                        double x) {
  const double half = (to - from) / 2;
  const double centre = scale.toSeconds(x);
  return keepInside(scale, centre - half, centre + half);
}

OverviewStrip::OverviewStrip(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  setCursor(Qt::OpenHandCursor);
  setToolTip(tr("The whole incident: drag the window, or click to jump there"));
}

QSize OverviewStrip::sizeHint() const {
  return {200, 26};
}

QSize OverviewStrip::minimumSizeHint() const {
  return {50, 26};
}

void OverviewStrip::setRows(std::vector<LaneRow> rows, double from, double to) {
  rows_ = std::move(rows);
  scale_.full_from = from;
  scale_.full_to = to;
  update();
}

void OverviewStrip::setVisibleRange(double from, double to) {
  if (from == visible_from_ && to == visible_to_) return;
  visible_from_ = from;
  visible_to_ = to;
  update();
}

void OverviewStrip::setSpan(int left, int right) {
  const int width = std::max(1, right - left);
  if (left == scale_.left && width == scale_.width) return;
  scale_.left = left;
  scale_.width = width;
  update();
}

QRectF OverviewStrip::windowRect() const {
  const double x0 = std::max<double>(scale_.toPixel(visible_from_), scale_.left);
  const double x1 = std::min<double>(scale_.toPixel(visible_to_), scale_.left + scale_.width);
  return QRectF(x0, 0.5, std::max(3.0, x1 - x0), height() - 1.0);
}

void OverviewStrip::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  if (rows_.empty()) return;
  const double row_height = (height() - 4.0) / static_cast<double>(rows_.size());
  double top = 2;
  painter.setPen(Qt::NoPen);
  for (const LaneRow& row : rows_) {
    scratch_.clear();
    for (const LaneBar& bar : row.bars)
      scratch_.push_back({scale_.toPixel(bar.from), scale_.toPixel(bar.to), bar.state});
    foldToPixels(scratch_, scale_.left, scale_.left + scale_.width, folded_);
    for (const FoldedMark& mark : folded_.marks) {
      if (!mark.mixed()) {
        if (mark.state < row.states.size())
          painter.fillRect(QRectF(mark.x0, top, mark.x1 - mark.x0, row_height - 1),
                           QColor::fromRgb(row.states[mark.state].color));
        continue;
      }
      double y = top;
      for (auto i = mark.shares_begin; i < mark.shares_end; ++i) {
        const StateShare& share = folded_.shares[i];
        const double h = (row_height - 1) * share.share;
        if (share.state < row.states.size())
          painter.fillRect(QRectF(mark.x0, y, 1, h),
                           QColor::fromRgb(row.states[share.state].color));
        y += h;
      }
    }
    top += row_height;
  }
  // Outside the window is dimmed; the window is outlined.
  const QRectF window = windowRect();
  QColor dim = palette().color(QPalette::Base);
  dim.setAlpha(150);
  painter.fillRect(QRectF(scale_.left, 0, window.left() - scale_.left, height()), dim);
  painter.fillRect(QRectF(window.right(), 0, scale_.left + scale_.width - window.right(), height()),
                   dim);
  painter.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(window);
}

void OverviewStrip::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const double x = event->position().x();
  if (!windowRect().contains(QPointF(x, height() / 2.0))) {
    const auto [from, to] = centreRangeOn(scale_, visible_from_, visible_to_, x);
    emit rangeRequested(from, to);
  }
  drag_x_ = x;
  setCursor(Qt::ClosedHandCursor);
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event) {
  if (!drag_x_) return;
  const double x = event->position().x();
  const auto [from, to] = dragRange(scale_, visible_from_, visible_to_, x - *drag_x_);
  drag_x_ = x;
  emit rangeRequested(from, to);
}

void OverviewStrip::mouseReleaseEvent(QMouseEvent*) {
  drag_x_.reset();
  setCursor(Qt::OpenHandCursor);
}

}  // namespace breakerlab::views
