// Errors in incident files name the file, the line and column of the offending item, and what
// was expected. Each test breaks one thing in the bundled incident.
#include <gtest/gtest.h>

#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test::positionOf;
using test::replaceFirst;

Incident parseIncidentText(const std::string& text) {
  return parseIncident(text, "inc.yaml");
}

TEST(IncidentErrors, UnknownTopLevelKey) {
  const std::string text = replaceFirst(test::pricingText(), "\nseed:", "\ncolour: red\nseed:");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "colour"),
                       "unknown key 'colour' at the top level, expected one of format, id, "
                       "title, summary, source, start, window, seed, traffic, dependency, "
                       "checkout_lane, config, changes, what_ifs, recorded, expect");
}

TEST(IncidentErrors, UnknownNestedKey) {
  const std::string text =
      replaceFirst(test::pricingText(), "refused_latency: 2ms", "refused_latncy: 2ms");
  EXPECT_LOAD_ERROR_AT(
      parseIncidentText(text), positionOf(text, "refused_latncy"),
      "unknown key 'refused_latncy' under dependency.segments[2], expected one "
      "of state, from, to, health, latency, outcomes, refused_latency, retry_correlation, "
      "ramp_to");
}

TEST(IncidentErrors, BadDurationUnit) {
  const std::string text =
      replaceFirst(test::pricingText(), "refused_latency: 2ms", "refused_latency: 2msec");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "2msec"),
                       "dependency.segments[2].refused_latency: expected a duration with one of "
                       "the units us, ms, s, m (not 'msec'), got \"2msec\"");
}

TEST(IncidentErrors, BadEnum) {
  const std::string text =
      replaceFirst(test::pricingText(), "arrivals: uniform", "arrivals: regular");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "regular"),
                       "traffic.arrivals: expected one of uniform, poisson, recorded, got "
                       "\"regular\"");
  const std::string window =
      replaceFirst(test::pricingText(), "{type: count, size: 20}", "{type: sliding, size: 20}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(window), positionOf(window, "sliding"),
                       "config.breaker.window.type: expected one of count, time, consecutive, "
                       "got \"sliding\"");
}

TEST(IncidentErrors, MissingPercentSign) {
  const std::string text =
      replaceFirst(test::pricingText(), "outcomes: {refused: 100%}", "outcomes: {refused: 100}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "100}"),
                       "dependency.segments[2].outcomes.refused: expected a percentage such as "
                       "50% (with the % sign), got \"100\"");
}

TEST(IncidentErrors, OutcomesAddUpToMoreThan100) {
  const std::string text = replaceFirst(test::pricingText(), "outcomes: {refused: 100%}",
                                        "outcomes: {refused: 100%, timeout: 10%}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "{refused: 100%, timeout"),
                       "dependency.segments[2].outcomes: the outcomes add up to 110%");
}

TEST(IncidentErrors, UnsortedSegments) {
  const std::string original = test::pricingText();
  // The "connection refused" segment starts one second late: a gap.
  const std::size_t at = original.find("state: connection refused");
  ASSERT_NE(at, std::string::npos);
  std::string text = original;
  const std::size_t from = text.find("from: 14s", at);
  ASSERT_NE(from, std::string::npos);
  text.replace(from, 9, "from: 15s");
  const auto e = test::loadErrorOf([&] { parseIncidentText(text); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), positionOf(text, "from: 15s").line) << e->what();
  EXPECT_EQ(e->column(), positionOf(text, "15s").column) << e->what();
  EXPECT_NE(e->message().find("dependency.segments[2].from: segments must be in order and "
                              "contiguous: expected 14s (where the previous segment ends), got "
                              "15s"),
            std::string::npos)
      << e->what();
}

TEST(IncidentErrors, SegmentsMustCoverTheWindow) {
  const std::string text = replaceFirst(test::pricingText(), "window: {from: 0s, to: 60s}",
                                        "window: {from: 0s, to: 70s}");
  const auto e = test::loadErrorOf([&] { parseIncidentText(text); });
  ASSERT_TRUE(e);
  EXPECT_NE(e->message().find("the last segment must reach the window end (70s), got 60s"),
            std::string::npos)
      << e->what();
  EXPECT_GT(e->line(), positionOf(text, "state: healthy\n      from: 41s").line);
}

TEST(IncidentErrors, UnsortedRecordedLane) {
  const std::string text = replaceFirst(test::pricingText(), "{state: open, from: 33, to: 53}",
                                        "{state: open, from: 30, to: 53}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "30, to: 53"),
                       "recorded.lanes.breaker[3].from: 30.0 s is before the end of the previous "
                       "item (33.0 s)");
}

TEST(IncidentErrors, IntervalEndingBeforeItStarts) {
  const std::string text =
      replaceFirst(test::pricingText(), "{from: 8, to: 11, label: 3 s to trip}",
                   "{from: 8, to: 7, label: 3 s to trip}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "7, label: 3 s"),
                       "recorded.brackets[0].to: must be after from (8.0 s), got 7.0 s");
}

TEST(IncidentErrors, UnknownMetricInExpect) {
  const std::string original = test::pricingText();
  const std::string text = replaceFirst(original, "\"time_to_trip_s == 3", "\"time_to_trp_s == 3");
  // The column is the metric's, inside the quoted string.
  const auto pos = positionOf(text, "time_to_trp_s");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), pos,
                       "unknown metric 'time_to_trp_s', did you mean time_to_trip_s?");
}

TEST(IncidentErrors, BadExpectationSyntaxPointsIntoTheString) {
  const std::string text =
      replaceFirst(test::pricingText(), "\"failed_checkouts == 0\"", "\"failed_checkouts => 0\"");
  auto pos = positionOf(text, "=> 0");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), pos,
                       "expected a comparison (==, !=, <, <=, >, >=)");
}

TEST(IncidentErrors, LaneCheckNeedsARecordedLane) {
  const std::string text = replaceFirst(test::pricingText(), "{lane: checkout, matches: recorded",
                                        "{lane: health, matches: recorded");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "health, matches"),
                       "there is no recorded lane 'health'");
  const std::string bogus = replaceFirst(test::pricingText(), "{lane: checkout, matches: recorded",
                                         "{lane: checkout, matches: replayed");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(bogus), positionOf(bogus, "replayed"),
                       "expected recorded, got \"replayed\"");
}

TEST(IncidentErrors, WhatIfOverrideUnknownKey) {
  const std::string text =
      replaceFirst(test::pricingText(), "breaker.open.early_probe.enabled: true",
                   "breaker.open.early_probe.enable: true");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text),
                       positionOf(text, "breaker.open.early_probe.enable:"),
                       "what-if 'early-probe': unknown key 'enable' under "
                       "breaker.open.early_probe, expected one of enabled, poll");
}

TEST(IncidentErrors, WhatIfOverrideBadValue) {
  const std::string text =
      replaceFirst(test::pricingText(), "fallback.cache.ttl: 20s", "fallback.cache.ttl: 20");
  auto pos = positionOf(text, "ttl: 20\n");
  pos.column += 5;
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), pos,
                       "what-if 'short-ttl': fallback.cache.ttl: expected a duration with a unit");
}

TEST(IncidentErrors, WhatIfOverrideInvalidConfigPointsAtTheWhatIf) {
  const std::string text =
      replaceFirst(test::pricingText(), "fallback.cache.ttl: 20s", "breaker.open.interval: 0s");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "name: short-ttl"),
                       "what-if 'short-ttl': breaker.open.interval must be positive");
}

TEST(IncidentErrors, DuplicateWhatIfNames) {
  const std::string text =
      replaceFirst(test::pricingText(), "name: short-ttl", "name: early-probe");
  auto pos = positionOf(text, "name: early-probe", 1);
  pos.column += 6;
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), pos,
                       "what_ifs[1].name: the name 'early-probe' is used twice");
}

TEST(IncidentErrors, RequiredKeys) {
  const std::string text = replaceFirst(test::pricingText(), "id: INC-2026-0908\n", "");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(text), positionOf(text, "format"),
                       "missing required key 'id'");
  const std::string no_state =
      replaceFirst(test::pricingText(), "{state: open, from: 11, to: 31}", "{from: 11, to: 31}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(no_state), positionOf(no_state, "{from: 11, to: 31}"),
                       "recorded.lanes.breaker[1]: missing required key 'state'");
  const std::string version =
      replaceFirst(test::pricingText(), "format: breakerlab/1", "format: breakerlab/2");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(version), positionOf(version, "breakerlab/2"),
                       "format: expected \"breakerlab/1\", got \"breakerlab/2\"");
}

TEST(IncidentErrors, AConfigFileIsNotAnIncident) {
  const std::string config = "# a config\nformat: breakerlab-config/1\nbreaker: {enabled: false}\n";
  EXPECT_LOAD_ERROR_AT(parseIncidentText(config), positionOf(config, "breakerlab-config/1"),
                       "format: expected \"breakerlab/1\", got \"breakerlab-config/1\"");
}

TEST(IncidentErrors, LatencyForms) {
  const std::string both = replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                                        "latency: {fixed: 1s, p50: 300ms, p99: 1500ms}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(both), positionOf(both, "p50: 300ms"),
                       "give either fixed or p50 and p99, not both");
  const std::string order = replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                                         "latency: {p50: 300ms, p99: 100ms}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(order), positionOf(order, "100ms}"),
                       "dependency.segments[3].latency.p99: must be at least p50 (300ms), got "
                       "100ms");
  const std::string half = replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                                        "latency: {p50: 300ms}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(half), positionOf(half, "{p50: 300ms}"),
                       "dependency.segments[3].latency: missing required key 'p99'");
}

TEST(IncidentErrors, YamlSyntaxError) {
  const std::string text = replaceFirst(test::pricingText(), "keys: {count:", "keys: {count: [");
  const auto e = test::loadErrorOf([&] { parseIncidentText(text); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->file(), "inc.yaml");
  EXPECT_NE(e->message().find("YAML syntax error"), std::string::npos) << e->what();
  EXPECT_GE(e->line(), positionOf(text, "keys: {count").line) << e->what();
  EXPECT_GT(e->column(), 0);

  const std::string tab = "format: breakerlab/1\nid: x\n\ttraffic: {}\n";
  const auto t = test::loadErrorOf([&] { parseIncidentText(tab); });
  ASSERT_TRUE(t);
  EXPECT_EQ(t->line(), 3) << t->what();
}

TEST(IncidentErrors, ExponentialLatencyForms) {
  const std::string mixed = replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                                         "latency: {mean: 300ms, p99: 1500ms}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(mixed), positionOf(mixed, "p99: 1500ms"),
                       "dependency.segments[3].latency: give either mean or p50 and p99, not both");
  const std::string fixed = replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                                         "latency: {fixed: 1s, mean: 300ms}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(fixed), positionOf(fixed, "mean: 300ms"),
                       "dependency.segments[3].latency: give either fixed or mean, not both");
  const std::string empty =
      replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}", "latency: {}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(empty), positionOf(empty, "{}"),
                       "dependency.segments[3].latency: expected {fixed: D}, {p50: D, p99: D} or "
                       "{mean: D}, got a map");
  const std::string bare = replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                                        "latency: {mean: 300}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(bare), positionOf(bare, "300}"),
                       "dependency.segments[3].latency.mean: expected a duration with a unit");
  // ramp_to.latency takes the form of the start.
  const std::string ramp =
      replaceFirst(test::pricingText(), "latency: {p50: 300ms, p99: 1500ms}",
                   "latency: {mean: 300ms}\n      ramp_to: {latency: {p99: 2s}}");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(ramp), positionOf(ramp, "p99: 2s"),
                       "unknown key 'p99' under dependency.segments[3].ramp_to.latency, expected "
                       "one of mean");
}

TEST(IncidentErrors, DependencyCapacity) {
  const std::string many = replaceFirst(test::pricingText(), "  name: Pricing\n",
                                        "  name: Pricing\n  capacity: {concurrency: many}\n");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(many), positionOf(many, "many"),
                       "dependency.capacity.concurrency: expected a whole number from 0 to "
                       "4294967295, got \"many\"");
  const std::string wait = replaceFirst(test::pricingText(), "  name: Pricing\n",
                                        "  name: Pricing\n  capacity:\n    queue_timeout: 10\n");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(wait), positionOf(wait, "10\n"),
                       "dependency.capacity.queue_timeout: expected a duration with a unit");
  const std::string flag = replaceFirst(test::pricingText(), "  name: Pricing\n",
                                        "  name: Pricing\n  capacity: {keeps_working: yes}\n");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(flag), positionOf(flag, "yes}"),
                       "dependency.capacity.keeps_working: expected true or false, got \"yes\"");
  const std::string key = replaceFirst(test::pricingText(), "  name: Pricing\n",
                                       "  name: Pricing\n  capacity: {limit: 4}\n");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(key), positionOf(key, "limit"),
                       "unknown key 'limit' under dependency.capacity, expected one of "
                       "concurrency, discipline, queue_timeout, keeps_working");
  const std::string discipline = replaceFirst(test::pricingText(), "  name: Pricing\n",
                                              "  name: Pricing\n  capacity: {discipline: lifo}\n");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(discipline), positionOf(discipline, "lifo}"),
                       "dependency.capacity.discipline: expected one of queue, share");
  const std::string where = replaceFirst(test::pricingText(), "  name: Pricing\n",
                                         "  name: Pricing\n  capacty: {concurrency: 4}\n");
  EXPECT_LOAD_ERROR_AT(parseIncidentText(where), positionOf(where, "capacty"),
                       "unknown key 'capacty' under dependency, expected one of name, capacity, "
                       "segments, health");
}

}  // namespace
}  // namespace breakerlab
