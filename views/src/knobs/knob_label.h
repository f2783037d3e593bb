#pragma once
// A knob's name: a label beside its field, or a check box's text. A name wraps at its spaces and
// at the joints of a camelCase name within the width the panel allows, and what still does not
// fit is elided (issue #33, item 2: a wider name widened the form's label column, the sliders
// shrank to their handle, the value boxes and reset buttons went past the right edge of a panel
// that does not scroll sideways).
//
// A changed knob is marked by a dot in a gutter every label keeps left of its name, and its name
// in the link colour. The name's font and lines stay as they were: a bold name behind a dot was
// wider, so it wrapped onto another line (the rows below moved) or was elided to "• Pro…"
// (the second walkthrough of issue #33).
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

  // The lines the name is painted in, `width` pixels wide (the label's width less its margins and
  // the mark's gutter): wrapped where it may break, each elided to fit. The same marked or not.
  QStringList lines(int width) const;

  void setMarked(bool marked);
  bool isMarked() const { return marked_; }
  // The room left of the name where a changed knob's dot goes.
  int markGutter() const;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  // The width the form gave it last: its lines are counted at that width when it is narrower
  // than asked for (a long library name in a label column set by shorter names).
  int given_width_ = 0;
  bool marked_ = false;
  // QLabel's word-wrapped hints for the name, with the gutter (the text they were taken for).
  void takeHints() const;
  mutable QString hinted_text_;
  mutable QSize hint_;
  mutable QSize minimum_;
};

// A toggle's text on one line, elided to the room its row has; it never asks for more room than
// its box and a few letters. Marked, its text is in the link colour behind a dot.
class KnobCheckBox : public QCheckBox {
 public:
  explicit KnobCheckBox(const QString& text, QWidget* parent = nullptr);

  QSize minimumSizeHint() const override;
  // The text as painted now (its dot when marked; elided when the row is narrower than it).
  QString shownText() const;

  void setMarked(bool marked);
  bool isMarked() const { return marked_; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int textRoom() const;
  bool marked_ = false;
};

}  // namespace breakerlab::views
