// `changes:` and `start:` in incident files: clock times, the keys that may change, errors with
// their positions, what-ifs with their own changes, and the round trip through the writer.
#include <gtest/gtest.h>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/values.h"
#include "support/short_units.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test::positionOf;
using test::replaceFirst;

using test_units::s;

// 8 Sep with a wall clock (t = 0 is 14:02:00 UTC, as its header says) and changes.
std::string withChanges(const std::string& changes, const std::string& what_if_changes = "") {
  // (the bundled file has the start: 2026-09-08T14:02:00Z)
  std::string text = test::pricingText();
  EXPECT_NE(text.find("\nstart: 2026-09-08T14:02:00Z\n"), std::string::npos);
  text = replaceFirst(text, "\nwhat_ifs:", "\nchanges:\n" + changes + "\nwhat_ifs:");
  if (!what_if_changes.empty())
    text = replaceFirst(text, "  - name: early-probe\n",
                        "  - name: early-probe\n    changes:\n" + what_if_changes + "\n");
  return text;
}

TEST(Values, ClockTimesAreIncidentTimesOnTheStartsDay) {
  const Micros start = *parseUtcTimestamp("2026-09-12T09:00:00Z");
  EXPECT_EQ(formatUtcTimestamp(start), "2026-09-12T09:00:00Z");
  EXPECT_EQ(parseClockTime("10:26", start), 86 * 60 * s);
  EXPECT_EQ(parseClockTime("09:00:30.5", start), 30 * s + 500'000);
  EXPECT_EQ(parseClockTime("2026-09-12T13:01:00Z", start), (4 * 3600 + 60) * s);
  EXPECT_EQ(parseClockTime("08:59", start), -60 * s);  // just before: the same day
  const Micros late = *parseUtcTimestamp("2026-09-12T23:30:00Z");
  EXPECT_EQ(parseClockTime("00:15", late), 45 * 60 * s);  // past midnight: the next day
  EXPECT_EQ(formatClockTime(start + 86 * 60 * s), "10:26");
  EXPECT_EQ(formatClockTime(start + 30 * s + 250'000), "09:00:30.25");
  for (const char* bad : {"10", "24:00", "10:60", "10:26:", "10:26:61", "1026", "10:26:3x"})
    EXPECT_EQ(parseClockTime(bad, start), std::nullopt) << bad;
}

TEST(Changes, ReadClockTimesAndValuesInTheConfigsOwnUnits) {
  const Incident inc = parseIncident(
      withChanges(
          R"(  - {at: "14:02:20", set: {timeout.attempt: 2s, retry.max_attempts: 3}, label: "timeout down"}
  - {at: 40s, set: {fallback.cache.ttl: 30s}, enabled: false})"),
      "inc.yaml");
  ASSERT_TRUE(inc.clock_start);
  ASSERT_EQ(inc.changes.size(), 2u);
  EXPECT_EQ(inc.changes[0].at, 20 * s);
  EXPECT_EQ(inc.changes[0].label, "timeout down");
  ASSERT_EQ(inc.changes[0].edits.size(), 2u);
  EXPECT_EQ(inc.changes[0].edits[0], (ConfigEdit{TimedKey::timeout_attempt, 2e6}));
  EXPECT_EQ(inc.changes[0].edits[1], (ConfigEdit{TimedKey::retry_max_attempts, 3}));
  EXPECT_EQ(inc.changes[1].at, 40 * s);
  EXPECT_FALSE(inc.changes[1].enabled);
  // The replay makes the first change: checkouts after 20 s see the 2 s timeout.
  const Result r = simulate(inc, inc.deployed);
  bool marked = false;
  for (const Event& e : r.events)
    marked = marked || (e.kind == EventKind::change && e.at == 20 * s);
  EXPECT_TRUE(marked);
}

TEST(Changes, WrittenAndReadBackTheSame) {
  const Incident inc = parseIncident(
      withChanges(
          R"(  - {at: "14:02:20", set: {timeout.attempt: 1500ms, retry.mode: background}, label: "x"}
  - {at: 30s, set: {breaker.enabled: false, retry.backoff.multiplier: 1.5}, enabled: false})",
          R"(      - {at: 10s, set: {load_balancer.pods: 3}})"),
      "inc.yaml");
  const std::string yaml = incidentToYaml(inc);
  const Incident back = parseIncident(yaml, "back.yaml");
  EXPECT_EQ(back.clock_start, inc.clock_start);
  EXPECT_EQ(back.changes, inc.changes);
  ASSERT_TRUE(inc.whatIf("early-probe")->changes);
  EXPECT_EQ(back.whatIf("early-probe")->changes, inc.whatIf("early-probe")->changes);
  EXPECT_EQ(incidentToYaml(back), yaml);
  EXPECT_NE(yaml.find("start: 2026-09-08T14:02:00Z"), std::string::npos) << yaml;
}

TEST(Changes, AKeyThatCannotChangeMidRunIsNamedWithTheKeysThatCan) {
  const std::string text = withChanges("  - {at: 20s, set: {breaker.window.size: 10}}");
  EXPECT_LOAD_ERROR_AT(parseIncident(text, "inc.yaml"), positionOf(text, "breaker.window.size"),
                       "changes[0].set: 'breaker.window.size' cannot change during a replay; the "
                       "keys that can: retry.max_attempts, retry.backoff.base");
}

TEST(Changes, ABadValueIsReportedAtItsKeyWithTheConfigReadersWords) {
  const std::string text = withChanges("  - {at: 20s, set: {timeout.attempt: 2 seconds}}");
  EXPECT_LOAD_ERROR_AT(parseIncident(text, "inc.yaml"), positionOf(text, "2 seconds"),
                       "timeout.attempt: expected a duration");
}

TEST(Changes, AChangeOutsideTheWindowOrWithoutATimeIsAnError) {
  const std::string late = withChanges("  - {at: \"14:05\", set: {retry.max_attempts: 2}}");
  // At the value, with the value and the window (it had no position, value or window).
  EXPECT_LOAD_ERROR_AT(parseIncident(late, "inc.yaml"), positionOf(late, "\"14:05\""),
                       "changes[0].at: expected a time within the window (0s to 1m, 14:02 to "
                       "14:03), got 14:05");
  const std::string no_at = withChanges("  - {set: {retry.max_attempts: 2}}");
  EXPECT_LOAD_ERROR_AT(parseIncident(no_at, "inc.yaml"), positionOf(no_at, "{set:"),
                       "changes[0]: missing required key 'at'");
  // Clock times need `start:`.
  const std::string no_clock =
      replaceFirst(withChanges("  - {at: \"14:02:20\", set: {retry.max_attempts: 2}}"),
                   "start: 2026-09-08T14:02:00Z\n", "");
  EXPECT_LOAD_ERROR_AT(parseIncident(no_clock, "inc.yaml"), positionOf(no_clock, "\"14:02:20"),
                       "changes[0].at: expected a time in seconds");
}

// 8 Sep's Pricing with a ceiling of 40 calls (the bundled file has none).
std::string capped(std::string text, const std::string& capacity = "{concurrency: 40}") {
  return replaceFirst(std::move(text), "  name: Pricing\n",
                      "  name: Pricing\n  capacity: " + capacity + "\n");
}

TEST(Changes, TheDependencysFactorsAreReadAsNumbersReplayedAndWrittenBack) {
  const Incident inc = parseIncident(
      capped(withChanges(
          R"(  - {at: 20s, set: {dependency.capacity.scale: 0.5, dependency.latency.scale: 2.5}, label: cut}
  - {at: 30s, set: {dependency.capacity.scale: 1, dependency.latency.scale: 1}})",
          R"(      - {at: 10s, set: {dependency.latency.scale: 0.25}})")),
      "inc.yaml");
  ASSERT_EQ(inc.changes.size(), 2u);
  EXPECT_EQ(inc.changes[0].edits,
            (std::vector<ConfigEdit>{{TimedKey::dependency_capacity_scale, 0.5},
                                     {TimedKey::dependency_latency_scale, 2.5}}));
  EXPECT_EQ(inc.changes[1].edits,
            (std::vector<ConfigEdit>{{TimedKey::dependency_capacity_scale, 1},
                                     {TimedKey::dependency_latency_scale, 1}}));
  // The config is not what they change.
  Config after = inc.deployed;
  for (const TimedChange& c : inc.changes) applyChange(after, c);
  EXPECT_EQ(after, inc.deployed);
  const std::string yaml = incidentToYaml(inc);
  EXPECT_NE(yaml.find("dependency.capacity.scale: 0.5"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("dependency.latency.scale: 2.5"), std::string::npos) << yaml;
  const Incident back = parseIncident(yaml, "back.yaml");
  EXPECT_EQ(back.changes, inc.changes);
  EXPECT_EQ(back.whatIf("early-probe")->changes, inc.whatIf("early-probe")->changes);
  EXPECT_EQ(incidentToYaml(back), yaml);
  // The replay makes them: the change at 20 s is marked with its label.
  const Result r = simulate(inc, inc.deployed);
  bool marked = false;
  for (const Event& e : r.events)
    marked = marked || (e.kind == EventKind::change && e.at == 20 * s && e.label == "cut");
  EXPECT_TRUE(marked);
}

TEST(Changes, ADependencyFactorOutOfRangeIsAnErrorAtItsValue) {
  for (const std::string key : {"dependency.capacity.scale", "dependency.latency.scale"}) {
    for (const std::string bad : {"0", "-1", "-0.5", ".nan", "nan", "NaN", ".inf", "inf", "100.5",
                                  "0.001", "1e9", "fast", "50%", "2x", "[1]"}) {
      const std::string entry = key + ": " + bad;
      const std::string text =
          capped(withChanges("  - {at: 20s, set: {retry.max_attempts: 2, " + entry + "}}"));
      test::TextPosition at = positionOf(text, entry);
      at.column += static_cast<int>(key.size() + 2);
      EXPECT_LOAD_ERROR_AT(parseIncident(text, "inc.yaml"), at,
                           "changes[0].set." + key + ": expected a number from 0.01 to 100, got ");
      const auto error = test::loadErrorOf([&] { (void)parseIncident(text, "inc.yaml"); });
      ASSERT_TRUE(error);
      EXPECT_EQ(error->file(), "inc.yaml") << bad;
    }
    // The bounds themselves are factors like any other.
    for (const std::string ok : {"0.01", "100", "1", "0.5"})
      EXPECT_NO_THROW(parseIncident(
          capped(withChanges("  - {at: 20s, set: {" + key + ": " + ok + "}}")), "inc.yaml"))
          << ok;
  }
}

TEST(Changes, ACapacityFactorNeedsACeilingToScale) {
  // No ceiling at all, a ceiling of 0 (none) and the load discipline (a latency per call, no
  // ceiling): the key is refused where it is written, in the incident's changes and a what-if's.
  for (const std::string& capacity :
       {std::string(), std::string("{concurrency: 0}"),
        std::string("{discipline: load, per_call: 10ms, concurrency: 5}")}) {
    const auto dependency = [&](std::string text) {
      return capacity.empty() ? text : capped(std::move(text), capacity);
    };
    const std::string text =
        dependency(withChanges("  - {at: 20s, set: {dependency.capacity.scale: 0.5}}"));
    EXPECT_LOAD_ERROR_AT(parseIncident(text, "inc.yaml"),
                         positionOf(text, "dependency.capacity.scale"),
                         "changes[0].set: dependency.capacity.scale needs a concurrency ceiling");
    const std::string in_what_if =
        dependency(withChanges("  - {at: 20s, set: {dependency.latency.scale: 2}}",
                               "      - {at: 10s, set: {dependency.capacity.scale: 2}}"));
    EXPECT_LOAD_ERROR_AT(
        parseIncident(in_what_if, "inc.yaml"), positionOf(in_what_if, "dependency.capacity.scale"),
        "what_ifs[0].changes[0].set: dependency.capacity.scale needs a concurrency");
  }
}

TEST(Changes, AStartThatIsNotATimestampIsAnError) {
  const std::string text =
      replaceFirst(test::pricingText(), "start: 2026-09-08T14:02:00Z", "start: 14:02 on the 8th");
  EXPECT_LOAD_ERROR_AT(parseIncident(text, "inc.yaml"), positionOf(text, "14:02 on"),
                       "start: expected a UTC timestamp such as 2026-09-12T09:00:00Z");
}

}  // namespace
}  // namespace breakerlab
