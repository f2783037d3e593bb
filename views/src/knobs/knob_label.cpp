#include "knobs/knob_label.h"

#include <QPainter>
#include <QResizeEvent>
#include <QStyleOptionButton>
#include <QStylePainter>
#include <algorithm>

namespace breakerlab::views {

namespace {
constexpr QChar kZeroWidthSpace(0x200B);
// The width a jointed library name asks for, in average characters: about the panel's own
// longest labels ("Slow-call threshold").
constexpr int kJointedNameChars = 20;

// The name cut where a line may break: after a space, and before a zero-width space (put
// between the words of a camelCase name, knob_panel.cpp).
QStringList breakablePieces(const QString& text) {
  QStringList pieces;
  QString piece;
  for (const QChar c : text) {
    if (c == kZeroWidthSpace && !piece.isEmpty()) {
      pieces << piece;
      piece.clear();
    }
    piece += c;
    if (c == QLatin1Char(' ')) {
      pieces << piece;
      piece.clear();
    }
  }
  if (!piece.isEmpty()) pieces << piece;
  return pieces;
}

int advance(const QFontMetrics& metrics, const QString& text) {
  return metrics.horizontalAdvance(text.trimmed());
}
}  // namespace

QString wrappableName(const QString& name) {
  QString wrapped;
  for (qsizetype i = 0; i < name.size(); ++i) {
    if (i > 0 && name[i].isUpper() && name[i - 1].isLower()) wrapped += kZeroWidthSpace;
    if (i > 1 && name[i - 1] == QLatin1Char('_') && name[i].isLetterOrNumber() &&
        name[i - 2].isLetterOrNumber())
      wrapped += kZeroWidthSpace;
    wrapped += name[i];
  }
  return wrapped;
}

KnobLabel::KnobLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {
  // Wrapped and elided here, at the breaks the name allows. Not height-for-width: the form does
  // not give a label's height for its width to the row (a second line was cut off), so the label
  // asks for the height of its lines at the width it asks for.
  setWordWrap(false);
}

QStringList KnobLabel::lines(int width) const {
  const QFontMetrics metrics = fontMetrics();
  QStringList out;
  QString line;
  for (const QString& piece : breakablePieces(text())) {
    if (!line.isEmpty() && advance(metrics, line + piece) > width) {
      out << line.trimmed();
      line.clear();
    }
    line += piece;
  }
  if (!line.isEmpty()) out << line.trimmed();
  for (QString& l : out) l = metrics.elidedText(l, Qt::ElideRight, width);
  return out;
}

int KnobLabel::markGutter() const {
  return fontMetrics().horizontalAdvance(QStringLiteral("• "));
}

void KnobLabel::setMarked(bool marked) {
  if (marked == marked_) return;
  marked_ = marked;
  update();
}

// The hints a word-wrapped QLabel gives the name, and the gutter: a balanced width, not the whole
// line.
void KnobLabel::takeHints() const {
  if (hinted_text_ == text() && hint_.isValid()) return;
  QLabel probe(text());
  probe.setFont(font());
  probe.setContentsMargins(contentsMargins() + QMargins(markGutter(), 0, 0, 0));
  probe.setWordWrap(true);
  hint_ = probe.sizeHint();
  // A library's name that fits on one line asks for all of it (QLabel's hint), and one such name
  // (automaticTransitionFromOpenToHalfOpenEnabled) would take the label column from the sliders:
  // it asks for about as much as the panel's own labels, and wraps at its joints.
  if (text().contains(kZeroWidthSpace))
    hint_.setWidth(std::min(
        hint_.width(), markGutter() + probe.fontMetrics().averageCharWidth() * kJointedNameChars));
  minimum_ = probe.minimumSizeHint();
  hinted_text_ = text();
}

QSize KnobLabel::sizeHint() const {
  takeHints();
  const int width = hint_.width();
  const int laid_out = given_width_ > 0 ? std::min(given_width_, width) : width;
  return {width, heightForWidth(laid_out)};
}

// Given less width than it asked for, it may need more lines: the form asks again.
void KnobLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  if (width() == given_width_) return;
  const int height_before = sizeHint().height();
  given_width_ = width();
  if (sizeHint().height() != height_before) updateGeometry();
}

// As narrow as QLabel allows the name, as tall as its lines at the width it asks for.
QSize KnobLabel::minimumSizeHint() const {
  takeHints();
  return {minimum_.width(), sizeHint().height()};
}

int KnobLabel::heightForWidth(int width) const {
  const QMargins margins = contentsMargins();
  const int room = std::max(1, width - margins.left() - margins.right() - markGutter());
  const auto count = static_cast<int>(std::max<qsizetype>(1, lines(room).size()));
  return count * fontMetrics().lineSpacing() + margins.top() + margins.bottom();
}

void KnobLabel::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const int gutter = markGutter();
  const QRect room = contentsRect().adjusted(gutter, 0, 0, 0);
  const QStringList shown = lines(room.width());
  const int line_height = fontMetrics().lineSpacing();
  const auto count = static_cast<int>(shown.size());
  QPalette colours = palette();
  if (marked_) colours.setColor(foregroundRole(), colours.color(QPalette::Link));
  // Centred on the row's field, as QLabel's default alignment puts one line.
  int top = room.top() + std::max(0, (room.height() - count * line_height) / 2);
  if (marked_)
    style()->drawItemText(&painter, QRect(room.left() - gutter, top, gutter, line_height),
                          Qt::AlignLeft | Qt::AlignVCenter, colours, isEnabled(),
                          QStringLiteral("•"), foregroundRole());
  for (const QString& line : shown) {
    style()->drawItemText(&painter, QRect(room.left(), top, room.width(), line_height),
                          Qt::AlignLeft | Qt::AlignVCenter, colours, isEnabled(), line,
                          foregroundRole());
    top += line_height;
  }
}

KnobCheckBox::KnobCheckBox(const QString& text, QWidget* parent) : QCheckBox(text, parent) {
  // A check box does not shrink below its text by default; this one elides it.
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

// The box and room for a few letters: the row gives it what is left beside the reset button.
QSize KnobCheckBox::minimumSizeHint() const {
  QStyleOptionButton option;
  initStyleOption(&option);
  const int box = style()->pixelMetric(QStyle::PM_IndicatorWidth, &option, this) +
                  style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing, &option, this);
  return {box + fontMetrics().horizontalAdvance(QStringLiteral("Mmmm…")), sizeHint().height()};
}

int KnobCheckBox::textRoom() const {
  QStyleOptionButton option;
  initStyleOption(&option);
  return style()->subElementRect(QStyle::SE_CheckBoxContents, &option, this).width();
}

QString KnobCheckBox::shownText() const {
  const QString text =
      marked_ && !this->text().isEmpty() ? QStringLiteral("• ") + this->text() : this->text();
  return fontMetrics().elidedText(text, Qt::ElideRight, textRoom());
}

void KnobCheckBox::setMarked(bool marked) {
  if (marked == marked_) return;
  marked_ = marked;
  update();
}

void KnobCheckBox::paintEvent(QPaintEvent*) {
  QStylePainter painter(this);
  QStyleOptionButton option;
  initStyleOption(&option);
  option.text = shownText();
  if (marked_) {
    const QColor link = option.palette.color(QPalette::Link);
    option.palette.setColor(QPalette::WindowText, link);
    option.palette.setColor(QPalette::ButtonText, link);
  }
  painter.drawControl(QStyle::CE_CheckBox, option);
}

}  // namespace breakerlab::views
