// The knob spin box, as the knob panel and a sensitivity map's range show a knob's value: a
// duration in its natural unit, typed with any unit, other numbers without trailing zeros.
#include "breakerlab/views/knob_spin_box.h"

#include <gtest/gtest.h>

#include <QLocale>
#include <QSignalBlocker>

namespace breakerlab::views {
namespace {

struct ShownValue {
  const char* knob;
  double value;
  const char* text;
};

TEST(KnobSpinBox, ShowsADurationInItsUnitAndOtherNumbersWithoutTrailingZeros) {
  const ShownValue cases[] = {
      {"timeout.attempt", 10, "10 ms"},  // a knob in ms
      {"timeout.attempt", 800, "800 ms"},
      {"timeout.attempt", 60000, "1 min"},       // "60,000" with its unit cut off, before
      {"breaker.open.interval", 0.5, "500 ms"},  // a knob in s
      {"breaker.open.interval", 120, "2 min"},
      {"workers.per_pod", 40, "40"},  // a count
  };
  for (const ShownValue& c : cases) {
    const KnobSpec* knob = findKnob(c.knob);
    ASSERT_NE(knob, nullptr) << c.knob;
    KnobSpinBox spin(knob);
    spin.setDecimals(knob->decimals);
    spin.setRange(knob->min, std::max(knob->max, c.value));
    spin.setValue(c.value);
    EXPECT_EQ(spin.text(), QString::fromUtf8(c.text)) << c.knob << " " << c.value;
  }
  KnobSpinBox plain;
  plain.setDecimals(2);
  plain.setValue(0.5);
  EXPECT_EQ(plain.text(), QStringLiteral("0.5"));
  plain.setValue(3);
  EXPECT_EQ(plain.text(), QStringLiteral("3"));
}

TEST(KnobSpinBox, TakesADurationTypedWithAnyUnitAndABareNumberInTheUnitShown) {
  const KnobSpec* timeout = findKnob("timeout.attempt");  // in ms
  KnobSpinBox spin(timeout);
  spin.setDecimals(timeout->decimals);
  spin.setRange(timeout->min, timeout->max);
  spin.setValue(2000);  // "2 s"
  EXPECT_DOUBLE_EQ(spin.valueFromText(QStringLiteral("2s")), 2000);
  EXPECT_DOUBLE_EQ(spin.valueFromText(QStringLiteral("1.5 min")), 90000);
  EXPECT_DOUBLE_EQ(spin.valueFromText(QStringLiteral("3")), 3000) << "bare: the unit shown, s";
  EXPECT_DOUBLE_EQ(spin.valueFromText(QStringLiteral("250ms")), 250);
  QString text = QStringLiteral("2 parsecs");
  int pos = 0;
  EXPECT_EQ(spin.validate(text, pos), QValidator::Intermediate) << "a unit may be half typed";
  text = QStringLiteral("2 + 3");
  EXPECT_EQ(spin.validate(text, pos), QValidator::Invalid);
}

TEST(KnobSpinBox, ZeroShowsWhatTheKnobSaysItMeansOnlyWhenAsked) {
  const KnobSpec* pool = findKnob("pool.size");
  ASSERT_FALSE(pool->zero.empty());
  KnobSpinBox setting(pool);
  setting.setRange(0, pool->max);
  setting.setValue(0);
  EXPECT_EQ(setting.text(), QString::fromUtf8(pool->zero.data(), pool->zero.size()));
  // A range's end is a value: 0 is 0.
  KnobSpinBox range_end;
  range_end.setKnob(pool, false);
  range_end.setRange(0, pool->max);
  range_end.setValue(0);
  EXPECT_EQ(range_end.text(), QStringLiteral("0"));
  // Another knob shows the value anew, in its own way.
  const KnobSpec* timeout = findKnob("timeout.attempt");
  range_end.setRange(0, timeout->max);
  range_end.setValue(60000);
  EXPECT_EQ(range_end.text(), QLocale().toString(60000.0, 'f', 0));
  range_end.setKnob(timeout, false);
  EXPECT_EQ(range_end.text(), QStringLiteral("1 min"));
}

// "1 calls" (the second walkthrough of issue #33): a count's unit is singular for 1.
TEST(KnobSpinBox, ACountsUnitIsSingularForOne) {
  struct Case {
    const char* unit;
    double value;
    const char* suffix;
  };
  const Case cases[] = {
      {"calls", 1, " call"},
      {"calls", 20, " calls"},
      {"calls", 0, " calls"},
      {"calls", 1.5, " calls"},
      {"failures", 1, " failure"},
      {"hosts", 1, " host"},
      {"ms", 1, " ms"},
      {"s", 1, " s"},
      {"%", 1, " %"},
      {"", 1, ""},
      {"pods", 1, " pod"},
      {"req/s", 1, " req/s"},
  };
  for (const Case& c : cases)
    EXPECT_EQ(unitSuffix(QString::fromUtf8(c.unit), c.value), QString::fromUtf8(c.suffix))
        << c.unit << " " << c.value;

  // In the spin box: the suffix follows the value, and a value set with its signals blocked (the
  // knob panel's showValues) is caught up by refreshUnit.
  KnobSpinBox spin;
  spin.setRange(0, 100);
  spin.setUnit(QStringLiteral("calls"));
  spin.setValue(1);
  EXPECT_EQ(spin.text(), QStringLiteral("1 call"));
  spin.setValue(2);
  EXPECT_EQ(spin.text(), QStringLiteral("2 calls"));
  {
    const QSignalBlocker block(&spin);
    spin.setValue(1);
  }
  spin.refreshUnit();
  EXPECT_EQ(spin.text(), QStringLiteral("1 call"));
  // A suffix its owner set is left alone.
  KnobSpinBox plain;
  plain.setSuffix(QStringLiteral(" pods"));
  plain.setValue(1);
  EXPECT_EQ(plain.suffix(), QStringLiteral(" pods"));
}

}  // namespace
}  // namespace breakerlab::views
