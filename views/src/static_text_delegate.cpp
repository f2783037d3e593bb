#include "static_text_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace breakerlab::views {

namespace {
// Bounds the cache: a long drag makes a few new numbers per cell per step.
constexpr qsizetype kMaxCached = 4096;
}  // namespace

const QStaticText& StaticTextDelegate::laidOut(const QString& text, const QFont& font) const {
  const QString key = font.key() + QChar(0x1f) + text;
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it;
  if (cache_.size() >= kMaxCached) cache_.clear();
  QStaticText laid(text);
  laid.setTextFormat(Qt::PlainText);
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
  const QStaticText& text = laidOut(opt.text, opt.font);
  const QSize size = text.size().toSize();
  if (size.width() > text_rect.width()) {  // the stock delegate elides it
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
  painter->save();
  painter->setFont(opt.font);
  painter->setPen(opt.palette.color(group, role));
  const QRect placed = QStyle::alignedRect(opt.direction, opt.displayAlignment, size, text_rect);
  painter->drawStaticText(placed.topLeft(), text);
  painter->restore();
}

}  // namespace breakerlab::views
