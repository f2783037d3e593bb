#include "lanes/lanes_plottable.h"

#include <algorithm>
#include <cmath>

namespace breakerlab::views {

namespace {
// The text colour that reads on `fill`: dark on light fills, white on dark ones.
QColor inkOn(QRgb fill) {
  const double luminance = 0.299 * qRed(fill) + 0.587 * qGreen(fill) + 0.114 * qBlue(fill);
  return luminance > 150 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}
constexpr double kNamePadding = 6;  // pixels left free around a state's name
// The smallest a row's names are written, as a share of the plot's font: smaller is not read.
constexpr double kSmallestNameScale = 0.7;
}  // namespace

std::optional<QFont> LanesPlottable::nameFont(const QFont& font, double row_pixels) {
  // A row lower than the font's line (a recorded row in a 1024 x 700 window, issue #33) once
  // lost its names: a smaller font that fits names it, down to kSmallestNameScale.
  const bool points = font.pointSizeF() > 0;  // else a size in pixels
  const double size = points ? font.pointSizeF() : font.pixelSize();
  for (double scale = 1; scale >= kSmallestNameScale - 1e-9; scale -= 0.05) {
    QFont smaller = font;
    if (points)
      smaller.setPointSizeF(size * scale);
    else
      smaller.setPixelSize(std::max(1, static_cast<int>(size * scale)));
    // The line's height less a pixel: a name's descenders may touch the row's edge.
    if (QFontMetricsF(smaller).height() - 1 <= row_pixels) return smaller;
  }
  return std::nullopt;
}

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

void LanesPlottable::fold(const LaneRow& row, std::vector<PixelBar>& scratch, Folded& out) const {
  const QCPRange visible = mKeyAxis->range();
  const QRect area = mKeyAxis->axisRect()->rect();
  scratch.clear();
  // First bar that ends after the visible start.
  auto it = std::lower_bound(row.bars.begin(), row.bars.end(), visible.lower,
                             [](const LaneBar& b, double t) { return b.to <= t; });
  const bool reversed = mKeyAxis->rangeReversed();
  for (; it != row.bars.end() && it->from < visible.upper; ++it) {
    const double x0 = mKeyAxis->coordToPixel(it->from);
    const double x1 = mKeyAxis->coordToPixel(it->to);
    scratch.push_back(reversed ? PixelBar{x1, x0, it->state} : PixelBar{x0, x1, it->state});
  }
  if (reversed) std::reverse(scratch.begin(), scratch.end());
  foldToPixels(scratch, area.left(), area.right() + 1, out);
}

template <typename F>
void LanesPlottable::forEachName(const LaneRow& row, const Folded& folded, F&& f) const {
  if (row.ghost) return;
  const double y0 = mValueAxis->coordToPixel(row.top);
  const double y1 = mValueAxis->coordToPixel(row.bottom);
  const double band_top = std::min(y0, y1), band_height = std::abs(y1 - y0);
  const std::optional<QFont> font = nameFont(mParentPlot->font(), band_height);
  if (!font) return;
  const QFontMetricsF metrics(*font);
  // The text's own height, centred in the row (in a row lower than the plot font's line the
  // name is in a smaller font that fits).
  const double text_height = std::min(metrics.height(), band_height);
  const double text_top = band_top + (band_height - text_height) / 2;
  for (const FoldedMark& mark : folded.marks) {
    if (mark.mixed() || mark.x1 - mark.x0 < 2 * kNamePadding + metrics.averageCharWidth() * 3)
      continue;
    if (mark.state >= row.states.size() || row.states[mark.state].name.isEmpty()) continue;
    const QString& name = row.states[mark.state].name;
    const double width = metrics.horizontalAdvance(name);
    if (width + 2 * kNamePadding > mark.x1 - mark.x0) continue;
    f(row.states[mark.state], QRectF(mark.x0, text_top, mark.x1 - mark.x0, text_height), *font);
  }
}

Folded LanesPlottable::foldedRow(std::size_t row) const {
  Folded out;
  std::vector<PixelBar> scratch;
  fold(rows_.at(row), scratch, out);
  return out;
}

std::vector<std::pair<QString, QRectF>> LanesPlottable::rowNames(std::size_t row) const {
  std::vector<std::pair<QString, QRectF>> names;
  const Folded folded = foldedRow(row);
  forEachName(rows_.at(row), folded, [&](const LaneState& state, const QRectF& rect, const QFont&) {
    names.emplace_back(state.name, rect);
  });
  return names;
}

void LanesPlottable::drawRow(QCPPainter* painter, const LaneRow& row) {
  fold(row, pixel_bars_, folded_);
  const double y0 = mValueAxis->coordToPixel(row.top);
  const double y1 = mValueAxis->coordToPixel(row.bottom);
  const double top = std::min(y0, y1);
  const double height = std::abs(y1 - y0);

  if (rects_by_state_.size() < row.states.size()) rects_by_state_.resize(row.states.size());
  for (auto& rects : rects_by_state_) rects.clear();
  auto rectsOf = [&](std::uint32_t state) -> QVector<QRectF>* {
    return state < row.states.size() ? &rects_by_state_[state] : nullptr;
  };
  for (const FoldedMark& mark : folded_.marks) {
    if (!mark.mixed()) {
      if (auto* rects = rectsOf(mark.state))
        rects->append(QRectF(mark.x0, top, mark.x1 - mark.x0, height));
      continue;
    }
    // A mixed column: each state's share of it, stacked top to bottom in state order.
    double y = top;
    for (std::uint32_t i = mark.shares_begin; i < mark.shares_end; ++i) {
      const StateShare& share = folded_.shares[i];
      const double h = height * share.share;
      if (auto* rects = rectsOf(share.state)) rects->append(QRectF(mark.x0, y, 1, h));
      y += h;
    }
  }
  for (std::size_t state = 0; state < row.states.size(); ++state) {
    const auto& rects = rects_by_state_[state];
    if (rects.isEmpty()) continue;
    QColor color = QColor::fromRgb(row.states[state].color);
    if (row.ghost) color.setAlpha(90);
    painter->setBrush(color);
    painter->drawRects(rects.constData(), static_cast<int>(rects.size()));
  }
  bool pen_set = false;
  QRgb pen_for = 0;
  bool font_set = false;
  forEachName(row, folded_, [&](const LaneState& state, const QRectF& rect, const QFont& font) {
    if (!font_set) {
      painter->setFont(font);
      font_set = true;
    }
    if (!pen_set || pen_for != state.color) {
      painter->setPen(inkOn(state.color));
      pen_set = true;
      pen_for = state.color;
    }
    painter->drawText(rect, Qt::AlignCenter | Qt::TextSingleLine, state.name);
  });
  painter->setPen(Qt::NoPen);
}

void LanesPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
  painter->setPen(Qt::NoPen);
  painter->setBrush(QColor(0x2e, 0x9d, 0x4f));
  painter->drawRect(rect);
}

}  // namespace breakerlab::views
