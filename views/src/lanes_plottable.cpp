#include "lanes_plottable.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace breakerlab::views {

LanesPlottable::LanesPlottable(QCPAxis* key_axis, QCPAxis* value_axis)
    : QCPAbstractPlottable(key_axis, value_axis) {
  setSelectable(QCP::stNone);
  setAntialiasedFill(false);
}

void LanesPlottable::setRows(std::vector<LaneRow> rows) {
  rows_ = std::move(rows);
}

double LanesPlottable::selectTest(const QPointF&, bool, QVariant*) const {
  return -1;
}

QCPRange LanesPlottable::getKeyRange(bool& found, QCP::SignDomain) const {
  QCPRange range;
  found = false;
  for (const auto& row : rows_) {
    if (row.bars.empty()) continue;
    const QCPRange r(row.bars.front().from, row.bars.back().to);
    range = found ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper)) : r;
    found = true;
  }
  return range;
}

QCPRange LanesPlottable::getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const {
  found = !rows_.empty();
  if (!found) return {};
  double lo = rows_.front().top, hi = rows_.front().bottom;
  for (const auto& row : rows_) {
    lo = std::min(lo, row.top);
    hi = std::max(hi, row.bottom);
  }
  return {lo, hi};
}

void LanesPlottable::draw(QCPPainter* painter) {
  if (!mKeyAxis || !mValueAxis) return;
  painter->setPen(Qt::NoPen);
  for (const auto& row : rows_) drawRow(painter, row);
  for (const auto& row : rows_)
    if (!row.marks.empty()) drawMarks(painter, row);
  painter->setPen(Qt::NoPen);
}

void LanesPlottable::drawMarks(QCPPainter* painter, const LaneRow& row) const {
  const QCPRange visible = mKeyAxis->range();
  // A rug along the bottom of the row: the state colours stay readable above it.
  const double y1 = mValueAxis->coordToPixel(row.bottom);
  const double y0 = y1 + (mValueAxis->coordToPixel(row.top) - y1) * 0.4;
  QVector<QLineF> lines;
  double last_x = -1e300;
  for (auto it = std::lower_bound(row.marks.begin(), row.marks.end(), visible.lower);
       it != row.marks.end() && *it <= visible.upper; ++it) {
    const double x = std::round(mKeyAxis->coordToPixel(*it)) + 0.5;
    if (x == last_x) continue;  // one line per pixel column
    lines.append(QLineF(x, y0, x, y1));
    last_x = x;
  }
  painter->setPen(QPen(QColor::fromRgba(row.mark_color), 1));
  painter->drawLines(lines);
}

void LanesPlottable::drawRow(QCPPainter* painter, const LaneRow& row) const {
  const QCPRange visible = mKeyAxis->range();
  const double y0 = mValueAxis->coordToPixel(row.top);
  const double y1 = mValueAxis->coordToPixel(row.bottom);
  const double top = std::min(y0, y1);
  const double height = std::abs(y1 - y0);

  // First bar that ends after the visible start.
  auto it = std::lower_bound(row.bars.begin(), row.bars.end(), visible.lower,
                             [](const LaneBar& b, double t) { return b.to <= t; });
  std::unordered_map<QRgb, QVector<QRectF>> by_color;
  double pending_from = 0, pending_to = -1;  // a run of sub-pixel bars, merged
  QRgb pending_color = 0;
  auto flush = [&] {
    if (pending_to > pending_from)
      by_color[pending_color].append(QRectF(pending_from, top, pending_to - pending_from, height));
    pending_to = -1;
  };
  for (; it != row.bars.end() && it->from < visible.upper; ++it) {
    double x0 = mKeyAxis->coordToPixel(it->from);
    double x1 = mKeyAxis->coordToPixel(it->to);
    if (x1 < x0) std::swap(x0, x1);
    if (x1 - x0 >= 1.0) {
      flush();
      by_color[it->color].append(QRectF(x0, top, x1 - x0, height));
      continue;
    }
    // Narrower than a pixel: extend the current pixel column; it takes the colour of the bar
    // that covers most of it (the later one on ties).
    if (pending_to < 0 || x0 > pending_from + 1.0) {
      flush();
      pending_from = x0;
      pending_color = it->color;
    }
    pending_to = std::max(pending_from + 1.0, x1);
    if (x1 - x0 > 0.5) pending_color = it->color;
  }
  flush();

  for (const auto& [rgb, rects] : by_color) {
    QColor color = QColor::fromRgb(rgb);
    if (row.ghost) color.setAlpha(90);
    painter->setBrush(color);
    painter->drawRects(rects.constData(), static_cast<int>(rects.size()));
  }
}

void LanesPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
  painter->setPen(Qt::NoPen);
  painter->setBrush(QColor(0x2e, 0x9d, 0x4f));
  painter->drawRect(rect);
}

}  // namespace breakerlab::views
