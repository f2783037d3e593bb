#pragma once
// The spin box of a number knob, in the knob panel and at the ends of a sensitivity map's range.
// A duration shows in its natural unit ("800 ms", "33.2 s", "2 min") and takes a typed one with
// any unit ("2s", "1.5 min"); a bare number is in the unit shown. Other numbers show without
// trailing zeros ("0.5", "120"). The value is always in the knob's own unit.
#include <QDoubleSpinBox>

#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab::views {

class KnobSpinBox : public QDoubleSpinBox {
 public:
  explicit KnobSpinBox(const KnobSpec* knob = nullptr, QWidget* parent = nullptr);

  // The knob whose values it shows (null: a plain number). With `zero_text`, 0 shows as what
  // the knob says it means ("unlimited"); a range's end is a value, not a setting, so without.
  void setKnob(const KnobSpec* knob, bool zero_text = true);
  // An end of a search's or a map's range over a number knob: the knob's values, decimals, step
  // and unit, 0 as a number (a range's end is a value, not a setting).
  void setRangeEndOf(const KnobSpec& knob);
  // Whether it shows a duration (in its own unit, no suffix).
  bool showsDuration() const { return duration_; }
  // The unit after the number (unitSuffix): "20 calls", "1 call", "50 %". It follows the value
  // as the user edits it; a value set with the spin box's signals blocked needs refreshUnit().
  void setUnit(const QString& unit);
  void refreshUnit();

  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& pos) const override;
  void fixup(QString& text) const override;

 private:
  bool isZeroText(const QString& text) const;
  // A number typed without a unit is in the unit shown.
  std::string bareUnit() const;

  const KnobSpec* knob_ = nullptr;
  bool duration_ = false;
  QString unit_;
  bool unit_set_ = false;
};

// What follows a number of `unit`: nothing without one, else a space and the unit ("50 %", as
// the knob panel always wrote it), a count's in the singular for 1 ("1 call", not "1 calls": the
// second walkthrough of issue #33). A count's unit is a plural word: "calls", "failures", "hosts";
// "ms" and "s" are not.
QString unitSuffix(const QString& unit, double value);

}  // namespace breakerlab::views
