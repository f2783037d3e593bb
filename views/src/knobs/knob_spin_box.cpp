#include "breakerlab/views/knob_spin_box.h"
#include "breakerlab/views/qt_text.h"

#include <QLocale>

#include "knobs/knob_scale.h"

namespace breakerlab::views {

KnobSpinBox::KnobSpinBox(const KnobSpec* knob, QWidget* parent) : QDoubleSpinBox(parent) {
  setKnob(knob);
  connect(this, &QDoubleSpinBox::valueChanged, this, [this] { refreshUnit(); });
}

void KnobSpinBox::setUnit(const QString& unit) {
  unit_ = unit;
  unit_set_ = true;
  refreshUnit();
}

void KnobSpinBox::refreshUnit() {
  if (!unit_set_) return;  // a suffix set by its owner stays
  const QString suffix = unitSuffix(unit_, value());
  if (suffix != this->suffix()) setSuffix(suffix);
}

QString unitSuffix(const QString& unit, double value) {
  if (unit.isEmpty()) return {};
  bool word = unit.size() >= 4 && unit.endsWith(QLatin1Char('s'));
  for (const QChar c : unit) word = word && c.isLetter();
  return QStringLiteral(" ") + (word && value == 1 ? unit.chopped(1) : unit);
}

void KnobSpinBox::setKnob(const KnobSpec* knob, bool zero_text) {
  knob_ = knob;
  duration_ = knob != nullptr && knobIsDuration(*knob);
  // Also shows the value anew, in the knob's way.
  setSpecialValueText(knob != nullptr && zero_text ? qs(knob->zero) : QString());
}

void KnobSpinBox::setRangeEndOf(const KnobSpec& knob) {
  setKnob(&knob, false);
  setDecimals(knob.decimals);
  setRange(knob.min, knob.max);
  setSingleStep(knob.step > 0 ? knob.step : 1);
  // A duration shows its own unit ("800 ms", "60 s").
  setUnit(duration_ ? QString() : qs(knob.unit));
}

QString KnobSpinBox::textFromValue(double value) const {
  if (duration_)
    return QString::fromStdString(formatDuration(knobMicros(*knob_, value), knob_->unit));
  QString text = QLocale().toString(value, 'f', decimals());
  if (text.contains(QLocale().decimalPoint())) {
    while (text.endsWith(QLatin1Char('0'))) text.chop(1);
    if (text.endsWith(QLocale().decimalPoint())) text.chop(1);
  }
  return text;
}

double KnobSpinBox::valueFromText(const QString& text) const {
  if (!duration_) return QDoubleSpinBox::valueFromText(text);
  if (isZeroText(text)) return 0;
  const std::optional<double> micros = parseDuration(text.toStdString(), bareUnit());
  return micros ? knobValueOfMicros(*knob_, *micros) : value();
}

QValidator::State KnobSpinBox::validate(QString& text, int& pos) const {
  if (!duration_) return QDoubleSpinBox::validate(text, pos);
  if (isZeroText(text)) return QValidator::Acceptable;
  const std::string typed = text.toStdString();
  if (parseDuration(typed, bareUnit())) return QValidator::Acceptable;  // clamped when set
  return couldBeDuration(typed) ? QValidator::Intermediate : QValidator::Invalid;
}

void KnobSpinBox::fixup(QString& text) const {
  if (!duration_) QDoubleSpinBox::fixup(text);
}

bool KnobSpinBox::isZeroText(const QString& text) const {
  return !specialValueText().isEmpty() &&
         text.trimmed().compare(specialValueText(), Qt::CaseInsensitive) == 0;
}

std::string KnobSpinBox::bareUnit() const {
  return std::string(durationUnit(knobMicros(*knob_, value()), knob_->unit));
}

}  // namespace breakerlab::views
