// The one accessor table of config keys (config_keys.cpp) and the tables that derive from it:
// BreakerLab's knobs (in ms or s) and the timed changes (in microseconds) edit each key through
// the same getter and setter, and convert only at their edges.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "breakerlab/core/inputs/config_keys.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab {
namespace {

TEST(ConfigKeys, EachKeyOnceAndEachSetterTakesBackWhatItsGetterGives) {
  std::set<std::string_view> seen;
  for (const ConfigKey& k : configKeys()) {
    EXPECT_TRUE(seen.insert(k.key).second) << k.key;
    EXPECT_EQ(findConfigKey(k.key), &k);
    Config c;
    const Config before = c;
    k.set(c, k.get(c));
    EXPECT_EQ(c, before) << k.key;
  }
  EXPECT_EQ(findConfigKey("no.such.key"), nullptr);
}

TEST(ConfigKeys, EveryOwnKnobEditsItsKeyThroughTheAccessorAndALibrarysKnobThroughItsOwn) {
  for (const KnobSpec& k : knobSpecs()) {
    EXPECT_TRUE(k.editable()) << k.id;
    if (k.library && *k.library != BreakerLibrary::breakerlab) {
      EXPECT_EQ(k.key, nullptr) << k.id;
      continue;
    }
    ASSERT_NE(k.key, nullptr) << k.id;
    EXPECT_EQ(k.key->key, k.id);
    // A duration's knob shows it in ms or s; nothing else converts.
    if (k.key->unit == ConfigKey::Unit::micros)
      EXPECT_TRUE(k.unit == "ms" || k.unit == "s") << k.id << " in " << k.unit;
    else
      EXPECT_FALSE(k.unit == "ms" || k.unit == "s") << k.id;
  }
}

// What the knobs did before they took their accessors from the table: ms and s converted by
// fromSeconds and toSeconds. The values a slider, `tune` or a map gives stay the same bit for
// bit.
TEST(ConfigKeys, ADurationKnobConvertsAsFromSecondsAndToSecondsDo) {
  const KnobSpec& attempt = *findKnob("timeout.attempt");
  const KnobSpec& interval = *findKnob("breaker.open.interval");
  for (double v : {0.0, 0.001, 0.0005, 0.7, 12.3, 33.25, 700.0, 799.9999, 1234.5678, 60000.0}) {
    Config c;
    attempt.set(c, v);
    EXPECT_EQ(c.timeout.attempt, fromSeconds(v / 1000)) << v;
    EXPECT_EQ(attempt.get(c), toSeconds(c.timeout.attempt) * 1000) << v;
    interval.set(c, v);
    EXPECT_EQ(c.breaker.open_interval, fromSeconds(v)) << v;
    EXPECT_EQ(interval.get(c), toSeconds(c.breaker.open_interval)) << v;
  }
}

TEST(ConfigKeys, EveryTimedKeyIsTheAccessorOfItsConfigKey) {
  using K = TimedKeyInfo::Kind;
  using U = ConfigKey::Unit;
  for (const TimedKeyInfo& t : timedKeys()) {
    const ConfigKey* k = findConfigKey(t.name);
    // The dependency's keys are not the client's config: no config key, no knob.
    if (t.onDependency()) {
      EXPECT_EQ(k, nullptr) << t.name;
      EXPECT_EQ(findKnob(t.name), nullptr) << t.name;
      continue;
    }
    ASSERT_NE(k, nullptr) << t.name;
    EXPECT_EQ(t.get, k->get) << t.name;
    EXPECT_EQ(t.set, k->set) << t.name;
    const U expected = t.kind == K::duration ? U::micros
                       : t.kind == K::count  ? U::count
                       : t.kind == K::number ? U::number
                       : t.kind == K::toggle ? U::toggle
                                             : U::choice;
    EXPECT_EQ(k->unit, expected) << t.name;
    EXPECT_EQ(&timedKeyInfo(t.key), &t);
  }
  // The same field, two editors: a knob in ms and a timed change in microseconds.
  Config by_knob, by_change;
  findKnob("timeout.attempt")->set(by_knob, 700);
  TimedChange change;
  change.edits = {{TimedKey::timeout_attempt, 700'000}};
  applyChange(by_change, change);
  EXPECT_EQ(by_knob, by_change);
}

TEST(ScenarioKeys, EachKeyHasALabelAndItsSetterTakesBackWhatItsGetterGives) {
  std::set<std::string_view> labels;
  for (const ScenarioKeyInfo& k : scenarioKeys()) {
    EXPECT_TRUE(labels.insert(k.label).second) << k.name;
    EXPECT_EQ(findScenarioKey(k.name), &k);
    Scenario s;
    k.set(s, k.duration ? 30.0 * kSecond : 2.5);
    EXPECT_FALSE(s.empty()) << k.name;
    EXPECT_EQ(k.get(s), k.duration ? 30.0 * kSecond : 2.5) << k.name;
  }
}

}  // namespace
}  // namespace breakerlab
