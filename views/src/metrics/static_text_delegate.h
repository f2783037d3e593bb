#pragma once
// An item delegate that draws a cell's text from a cache of laid-out QStaticText: the stock
// delegate shapes every cell's text again on each repaint (about 120,000 instructions a cell),
// and a knob change repaints most of the metrics table. Cells it cannot draw the same way (an
// icon, a check box, several lines, text wider than the cell, which the stock one elides) go
// to the stock delegate.
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace breakerlab::views {

class StaticTextDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;

 private:
  const QStaticText& laidOut(const QString& text, const QFont& font,
                             Qt::LayoutDirection direction) const;
  mutable QHash<QString, QStaticText> cache_;
};

}  // namespace breakerlab::views
