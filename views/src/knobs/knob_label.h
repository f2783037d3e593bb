#pragma once
// A knob's name: a label beside its field, or a check box's text. Marking a changed knob makes
// its name bold behind a dot; a wider name must not widen the panel (issue #33, item 2: the form's
// label column grew, the sliders shrank to their handle, the value boxes and reset buttons went
// past the right edge of a panel that does not scroll sideways). So a name wraps at its spaces and
// at the joints of a camelCase name within the width the panel allows, and what still does not fit
// is elided. A label asks for the room its name asked for unmarked, so the form's label column
// stays where it was.
#include <QCheckBox>
#include <QLabel>
#include <QStringList>

namespace breakerlab::views {

// A library's names are long camelCase or snake_case words (permittedNumberOfCallsInHalfOpenState,
// enforcing_consecutive_local_origin_failure): a zero-width space at each joint inside them
// (before an upper-case letter after a lower-case one, after an underscore between two words)
// lets a KnobLabel wrap there, so the panel keeps its width.
QString wrappableName(const QString& name);

class KnobLabel : public QLabel {
 public:
  explicit KnobLabel(const QString& text, QWidget* parent = nullptr);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  int heightForWidth(int width) const override;

  // The lines the name is painted in at `width`: wrapped where it may break, each elided to fit.
  QStringList lines(int width) const;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // The width the form gave it last: its lines are counted at that width when it is narrower
  // than asked for (a long library name in a label column set by shorter names).
  int given_width_ = 0;
  // QLabel's word-wrapped hints for the name unmarked (the text they were taken for), kept once
  // it is marked.
  void takeUnmarkedHints() const;
  mutable QString hinted_text_;
  mutable QSize unmarked_hint_;
  mutable QSize unmarked_minimum_;
};

// A toggle's text on one line, elided to the room its row has; it never asks for more room than
// its box and a few letters.
class KnobCheckBox : public QCheckBox {
 public:
  explicit KnobCheckBox(const QString& text, QWidget* parent = nullptr);

  QSize minimumSizeHint() const override;
  // The text as painted now (elided when the row is narrower than it).
  QString shownText() const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int textRoom() const;
};

}  // namespace breakerlab::views
