// The knob panel's arithmetic without a widget: slider positions <-> values, and durations as
// shown and as typed.
#include "knobs/knob_scale.h"

#include <gtest/gtest.h>

#include <cmath>

#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab::views {
namespace {

const KnobSpec& knob(std::string_view id) {
  const KnobSpec* k = findKnob(id);
  if (k == nullptr) throw std::runtime_error("no knob " + std::string(id));
  return *k;
}

bool onStep(const KnobSpec& k, double v) {
  const double steps = v / k.step;
  return std::abs(steps - std::round(steps)) < 1e-6 || v == k.min || v == k.max;
}

// Every number knob: the ends, order, the step, and that a position's value comes back.
TEST(SliderScale, EveryKnobsSliderIsMonotonicWithExactEndsAndRoundTrips) {
  int log_knobs = 0;
  for (const KnobSpec& k : knobSpecs()) {
    if (k.kind != KnobSpec::Kind::number) continue;
    const SliderScale scale(k);
    log_knobs += k.scale == KnobSpec::Scale::log;
    EXPECT_EQ(scale.value(0), k.min) << k.id;
    EXPECT_EQ(scale.value(scale.lastPosition()), k.max) << k.id;
    EXPECT_EQ(scale.position(k.min), 0) << k.id;
    EXPECT_EQ(scale.position(k.max), scale.lastPosition()) << k.id;
    EXPECT_EQ(scale.value(-5), k.min) << k.id << ": clamped";
    EXPECT_EQ(scale.value(scale.lastPosition() + 5), k.max) << k.id << ": clamped";
    double previous = -1;
    for (int p = 0; p <= scale.lastPosition(); ++p) {
      const double v = scale.value(p);
      ASSERT_GE(v, previous) << k.id << " at " << p;
      ASSERT_TRUE(onStep(k, v)) << k.id << " at " << p << ": " << v;
      ASSERT_EQ(scale.value(scale.position(v)), v) << k.id << " at " << p;
      previous = v;
    }
    if (k.scale == KnobSpec::Scale::linear) {
      for (int p = 0; p <= scale.lastPosition(); ++p)
        ASSERT_EQ(scale.position(scale.value(p)), p) << k.id << ": linear positions are values";
    }
  }
  EXPECT_GE(log_knobs, 20);
}

struct ShareCase {
  std::string_view id;
  double from, to;  // in the knob's unit
  double at_least;  // share of the slider
};

// The decades a user works in get room: 0.5-5 s of the call timeout was 10 px of a linear slider.
TEST(SliderScale, TheWorkingRangesGetAUsableShareOfTheSlider) {
  const ShareCase cases[] = {
      {"timeout.attempt", 500, 5000, 0.25},   {"timeout.attempt", 10, 500, 0.25},
      {"breaker.open.interval", 5, 60, 0.35}, {"fallback.cache.ttl", 10, 120, 0.3},
      {"breaker.window.size", 10, 100, 0.3},  {"pool.size", 5, 50, 0.3},
      {"workers.per_pod", 10, 100, 0.25},
  };
  for (const ShareCase& c : cases) {
    const SliderScale scale(knob(c.id));
    const double share =
        double(scale.position(c.to) - scale.position(c.from)) / scale.lastPosition();
    EXPECT_GE(share, c.at_least) << c.id << " " << c.from << "-" << c.to;
  }
}

TEST(SliderScale, ALogSliderFromZeroKeepsItsFirstPositionForZero) {
  const KnobSpec& pool = knob("pool.size");  // 0 = unlimited, then 1..500 by ratio
  const SliderScale scale(pool);
  EXPECT_EQ(scale.value(0), 0);
  EXPECT_EQ(scale.value(1), 1) << "the smallest positive value, the step";
  EXPECT_EQ(scale.position(0), 0);
  EXPECT_EQ(scale.position(0.4), 1) << "between 0 and the step: the first positive position";
  EXPECT_GT(scale.position(2), 1);
  const KnobSpec& ttl = knob("fallback.cache.ttl");
  EXPECT_EQ(SliderScale(ttl).value(1), 1.0);
}

struct ValueCase {
  std::string_view id;
  int position;
  double value;
};

TEST(SliderScale, LogValuesAreRoundedToThreeDigitsOnTheStep) {
  const SliderScale timeout(knob("timeout.attempt"));  // 10 ms .. 60 s, step 10 ms
  for (int p = 0; p <= timeout.lastPosition(); ++p) {
    const double v = timeout.value(p);
    const double digits = std::pow(10.0, std::floor(std::log10(v)) - 2);
    ASSERT_NEAR(std::remainder(v, std::max(10.0, digits)), 0, 1e-9) << p << ": " << v;
  }
  // Halfway along the ratio: sqrt(10 * 60000) = 774.6 ms.
  EXPECT_EQ(timeout.value(500), 770);
  const SliderScale interval(knob("breaker.open.interval"));  // 0.5 .. 120 s, step 0.5
  EXPECT_EQ(interval.value(interval.position(20)), 20);
  EXPECT_EQ(interval.value(interval.position(33.2)), 33) << "on the step of 0.5 s";
}

TEST(SliderScale, AWidenedMaxEndsTheSlider) {
  const KnobSpec& timeout = knob("timeout.attempt");
  const SliderScale wide(timeout, 30 * 60 * 1000.0);  // a deployed 30 min
  EXPECT_EQ(wide.value(wide.lastPosition()), 30 * 60 * 1000.0);
  EXPECT_EQ(wide.position(30 * 60 * 1000.0), wide.lastPosition());
  EXPECT_LT(wide.position(1000), wide.lastPosition() * 2 / 3);
  const KnobSpec& attempts = knob("retry.max_attempts");  // linear 1..10
  const SliderScale more(attempts, 12.5);
  EXPECT_EQ(more.value(more.lastPosition()), 12.5);
  EXPECT_EQ(more.position(12.5), more.lastPosition());
}

struct FormatCase {
  double micros;
  std::string_view text;
};

TEST(FormatDuration, ShowsTheNaturalUnitExactly) {
  const FormatCase cases[] = {
      {800e3, "800 ms"},       {33.2e6, "33.2 s"},       {33.24e6, "33.24 s"},
      {33'240'000, "33.24 s"}, {1.5e6, "1.5 s"},         {500e3, "500 ms"},
      {10e3, "10 ms"},         {120e6, "2 min"},         {90e6, "1.5 min"},
      {100e6, "100 s"},        {61e6, "61 s"},           {75e6, "1.25 min"},
      {30 * 60e6, "30 min"},   {3600e6, "1 h"},          {5400e6, "1.5 h"},
      {4000e6, "4000 s"},      {1'234'500, "1234.5 ms"}, {1'234'567, "1234.567 ms"},
      {1.235e6, "1.235 s"},    {250, "250 µs"},          {0.5, "0.5 µs"},
      {60e6, "1 min"},         {59.9e6, "59.9 s"},       {1e6, "1 s"},
  };
  for (const FormatCase& c : cases) EXPECT_EQ(formatDuration(c.micros), c.text) << c.micros;
  EXPECT_EQ(formatDuration(0, "ms"), "0 ms");
  EXPECT_EQ(formatDuration(0, "s"), "0 s");
  EXPECT_EQ(durationUnit(33.2e6), "s");
  EXPECT_EQ(durationUnit(800e3), "ms");
  EXPECT_EQ(durationUnit(0, "ms"), "ms");
}

// A knob's value (its own unit) to text and back is exact: what is shown is what is kept.
TEST(FormatDuration, WhatIsShownParsesBackToTheSameValue) {
  for (const KnobSpec& k : knobSpecs()) {
    if (!knobIsDuration(k)) continue;
    const SliderScale scale(k);
    for (int p = 0; p <= scale.lastPosition(); p += 7) {
      const double v = scale.value(p);
      const double micros = knobMicros(k, v);
      const auto back = parseDuration(formatDuration(micros, k.unit), "s");
      ASSERT_TRUE(back) << k.id << " " << formatDuration(micros, k.unit);
      ASSERT_NEAR(knobValueOfMicros(k, *back), v, 1e-9 * std::max(1.0, v)) << k.id;
    }
  }
}

struct ParseCase {
  std::string_view text;
  std::string_view bare_unit;
  std::optional<double> micros;
};

TEST(ParseDuration, TakesAnyUnitAndBareNumbersInTheShownOne) {
  const ParseCase cases[] = {
      {"2s", "ms", 2e6},
      {"2 s", "ms", 2e6},
      {"800ms", "s", 800e3},
      {"800 ms", "s", 800e3},
      {"1.5 min", "s", 90e6},
      {"1.5min", "s", 90e6},
      {"1.5m", "s", 90e6},
      {"2h", "s", 7200e6},
      {"500us", "s", 500},
      {"500 µs", "s", 500},
      {"33.2 s", "ms", 33.2e6},
      {"1,5 s", "ms", 1.5e6},
      {"  40  ", "s", 40e6},
      {"40", "ms", 40e3},
      {"2", "min", 120e6},
      {"2 S", "ms", 2e6},
      {"2 MS", "s", 2e3},
      {".5s", "ms", 0.5e6},
      {"", "s", std::nullopt},
      {"s", "s", std::nullopt},
      {"2 parsecs", "s", std::nullopt},
      {"-2s", "s", std::nullopt},
      {"1.2.3 s", "s", std::nullopt},
      {"2 s 3", "s", std::nullopt},
  };
  for (const ParseCase& c : cases) {
    const auto got = parseDuration(c.text, c.bare_unit);
    ASSERT_EQ(got.has_value(), c.micros.has_value()) << "'" << c.text << "'";
    if (got) {
      EXPECT_NEAR(*got, *c.micros, 1e-6) << "'" << c.text << "'";
    }
  }
  EXPECT_TRUE(couldBeDuration("1.5 mi"));
  EXPECT_TRUE(couldBeDuration(""));
  EXPECT_FALSE(couldBeDuration("2+3"));
  EXPECT_FALSE(couldBeDuration("-1"));
}

// Every choice has a name to show, apart from its config spelling, and no two alike.
TEST(KnobSpecs, EveryChoiceHasADisplayName) {
  for (const KnobSpec& k : knobSpecs()) {
    if (k.kind != KnobSpec::Kind::choice) continue;
    ASSERT_EQ(k.max + 1, static_cast<double>(k.choices.size())) << k.id;
    for (const KnobChoice& c : k.choices) {
      EXPECT_FALSE(c.name.empty()) << k.id << " " << c.id;
      EXPECT_EQ(c.name.find('_'), std::string_view::npos) << k.id << " " << c.name;
      for (const KnobChoice& other : k.choices)
        if (&other != &c) {
          EXPECT_NE(c.name, other.name) << k.id;
        }
    }
  }
  EXPECT_EQ(knob("breaker.placement").choices[0].name, "Outside the retries");
  EXPECT_EQ(knob("breaker.half_open.close_when").choices[0].name, "All probes succeed");
}

// What 0 means is labelled only where the model gives 0 that meaning (checked in core/).
TEST(KnobSpecs, ZeroIsLabelledWhereTheModelGivesItAMeaning) {
  const std::pair<std::string_view, std::string_view> labelled[] = {
      {"pool.size", "unlimited"},
      {"workers.per_pod", "unlimited"},
      {"workers.queue", "no queue"},
      {"pool.max_wait", "no limit"},
      {"timeout.total", "no deadline"},
      {"retry.backoff.max", "no cap"},
      {"breaker.slow_call.duration", "off"},
  };
  for (const auto& [id, zero] : labelled) EXPECT_EQ(knob(id).zero, zero) << id;
  for (const KnobSpec& k : knobSpecs())
    if (!k.zero.empty()) {
      EXPECT_EQ(k.min, 0) << k.id << ": a label for a value it cannot take";
    }
  // 0 is an amount here: no wait, a cap at the base interval, nothing served.
  for (std::string_view id :
       {"retry.backoff.base", "breaker.open.backoff.max", "fallback.cache.ttl"})
    EXPECT_TRUE(knob(id).zero.empty()) << id;
}

}  // namespace
}  // namespace breakerlab::views
