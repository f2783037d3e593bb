#include "metrics/static_text_delegate.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyle>
#include <QTextOption>

namespace breakerlab::views {

namespace {
// Bounds the cache: a long drag makes a few new numbers per cell per step.
constexpr qsizetype kMaxCached = 4096;
}  // namespace

const QStaticText& StaticTextDelegate::laidOut(const QString& text, const QFont& font,
                                               Qt::LayoutDirection direction) const {
  const QString key = font.key() + QChar(direction == Qt::RightToLeft ? u'r' : u'l') + text;
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it;
  if (cache_.size() >= kMaxCached) cache_.clear();
  QStaticText laid(text);
  laid.setTextFormat(Qt::PlainText);
  QTextOption option;
  option.setTextDirection(direction);
  option.setWrapMode(QTextOption::NoWrap);
  laid.setTextOption(option);
  laid.setPerformanceHint(QStaticText::AggressiveCaching);
  laid.prepare(QTransform(), font);
  return *cache_.insert(key, laid);
}

void StaticTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const bool plain = !opt.text.isEmpty() && opt.icon.isNull() &&
                     !(opt.features & QStyleOptionViewItem::HasCheckIndicator) &&
                     !opt.text.contains(QLatin1Char('\n')) &&
                     !opt.text.contains(QChar::LineSeparator);
  if (!plain) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  const QWidget* widget = opt.widget;
  QStyle* style = widget != nullptr ? widget->style() : QApplication::style();
  // The stock style's text margin (QCommonStyle: the focus frame's margin plus one).
  const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
  const QRect text_rect = opt.rect.adjusted(margin, 0, -margin, 0);
  const QStaticText& text = laidOut(opt.text, opt.font, opt.direction);
  if (text.size().width() > text_rect.width()) {  // the stock delegate elides it
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  opt.text.clear();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);  // background, focus
  const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
                                     : (opt.state & QStyle::State_Active) ? QPalette::Normal
                                                                          : QPalette::Inactive;
  const QPalette::ColorRole role =
      (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text;
  // Placed as the stock style places its text layout: a line as tall as the font's ascent and
  // descent (QStaticText's size adds the leading) centred in whole pixels, and across the cell
  // at the fractional position its line alignment gives.
  const QFontMetricsF metrics(opt.font);
  const qreal width = text.size().width();
  const QSize size = QSizeF(width, metrics.ascent() + metrics.descent()).toSize();
  const QRect placed = QStyle::alignedRect(opt.direction, opt.displayAlignment, size, text_rect);
  const Qt::Alignment across =
      QStyle::visualAlignment(opt.direction, opt.displayAlignment) & Qt::AlignHorizontal_Mask;
  qreal x = text_rect.left();
  if (across & Qt::AlignRight) x = text_rect.left() + text_rect.width() - width;
  if (across & Qt::AlignHCenter) x = text_rect.left() + (text_rect.width() - width) / 2;
  painter->save();
  painter->setClipRect(opt.rect, Qt::IntersectClip);
  painter->setFont(opt.font);
  painter->setPen(opt.palette.color(group, role));
  painter->drawStaticText(QPointF(x, placed.top()), text);
  painter->restore();
}

}  // namespace breakerlab::views
