#include <gtest/gtest.h>

#include "breakerlab/data/config_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

std::string errorOf(const std::vector<std::string>& sets, const Config& base = {}) {
  const auto e = test::loadErrorOf([&] { applyOverrides(base, sets); });
  return e ? e->what() : "";
}

TEST(Overrides, SetValuesAtDottedKeys) {
  const Config c = applyOverrides(
      Config{}, {"breaker.window.size=30", "timeout.attempt=2s",
                 "breaker.open.early_probe.enabled=true", "breaker.failures=[timeout,refused]",
                 "breaker.failure_rate=25%", "fallback.cache.ttl=1.5m"});
  Config expected;
  expected.breaker.window_size = 30;
  expected.timeout.attempt = 2 * kSecond;
  expected.breaker.early_probe = true;
  expected.breaker.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::refused};
  expected.breaker.failure_rate_pct = 25;
  expected.cache.ttl = 90 * kSecond;
  EXPECT_EQ(c, expected);
}

TEST(Overrides, StartFromTheBaseNotTheDefaults) {
  Config base;
  base.breaker.window_size = 50;
  base.timeout.attempt = 5 * kSecond;
  const Config c = applyOverrides(base, {"breaker.min_calls=5"});
  EXPECT_EQ(c.breaker.window_size, 50u);
  EXPECT_EQ(c.timeout.attempt, 5 * kSecond);
  EXPECT_EQ(c.breaker.min_calls, 5u);
  EXPECT_EQ(applyOverrides(base, {}), base);
}

TEST(Overrides, AMapValueSetsOnlyTheKeysItNames) {
  const Config c = applyOverrides(
      Config{}, {"breaker.window={type: time}", "breaker.half_open={probes: 1, spacing: 0s}"});
  EXPECT_EQ(c.breaker.window_type, WindowType::time);
  EXPECT_EQ(c.breaker.window_size, 20u);
  EXPECT_EQ(c.breaker.probes, 1u);
  EXPECT_EQ(c.breaker.probe_spacing, 0);
  EXPECT_EQ(c.breaker.close_when, CloseRule::all_succeed);
}

TEST(Overrides, LaterAssignmentsWin) {
  const Config c = applyOverrides(Config{}, {"timeout.attempt=1s", "timeout.attempt=3s"});
  EXPECT_EQ(c.timeout.attempt, 3 * kSecond);
}

TEST(Overrides, UnknownKeyNamesTheAssignmentAndTheAllowedKeys) {
  EXPECT_EQ(errorOf({"breaker.window.sise=3"}),
            "--set breaker.window.sise=3: unknown key 'sise' under breaker.window, expected one "
            "of type, size");
  EXPECT_EQ(errorOf({"pool.size=3"}),
            "--set pool.size=3: unknown key 'pool' at the top level, expected one of "
            "format, breaker, timeout, retry, fallback");
  EXPECT_EQ(errorOf({"breaker.window={kind: time}"}),
            "--set breaker.window={kind: time}: unknown key 'kind' under breaker.window, expected "
            "one of type, size");
}

TEST(Overrides, BadValuesUseTheFileParsersMessages) {
  EXPECT_EQ(errorOf({"timeout.attempt=2"}),
            "--set timeout.attempt=2: timeout.attempt: expected a duration with a unit (us, ms, "
            "s, m) such as 800ms or 1.5s, got \"2\"");
  EXPECT_EQ(errorOf({"breaker.window.type=sliding"}),
            "--set breaker.window.type=sliding: breaker.window.type: expected one of count, time, "
            "consecutive, got \"sliding\"");
  EXPECT_EQ(errorOf({"breaker.failure_rate=50"}),
            "--set breaker.failure_rate=50: breaker.failure_rate: expected a percentage such as "
            "50% (with the % sign), got \"50\"");
  EXPECT_EQ(errorOf({"breaker.enabled="}),
            "--set breaker.enabled=: breaker.enabled: expected true or false, got nothing (null)");
  EXPECT_EQ(errorOf({"breaker=off"}), "--set breaker=off: breaker: expected a map, got \"off\"");
}

TEST(Overrides, MalformedAssignments) {
  EXPECT_EQ(errorOf({"breaker.window.size"}),
            "--set breaker.window.size: expected dotted.key=value, e.g. breaker.window.size=30");
  EXPECT_EQ(errorOf({"breaker..size=3"}),
            "--set breaker..size=3: empty part in the key 'breaker..size'");
  EXPECT_EQ(errorOf({"=3"}), "--set =3: empty key");
  EXPECT_EQ(errorOf({"breaker.enabled.x=1"}),
            "--set breaker.enabled.x=1: breaker.enabled is a value, not a section: it has no "
            "key 'x'");
  const std::string unterminated = errorOf({"breaker.failures=[timeout"});
  EXPECT_EQ(unterminated.rfind("--set breaker.failures=[timeout: cannot read the value: ", 0), 0u)
      << unterminated;
}

TEST(Overrides, ValidationBlamesTheAssignmentThatBrokeTheConfig) {
  EXPECT_EQ(errorOf({"breaker.open.interval=0s"}),
            "--set breaker.open.interval=0s: breaker.open.interval must be positive");
  // The poll is harmless until the early probe is turned on.
  EXPECT_EQ(errorOf({"breaker.open.early_probe.poll=0s", "timeout.attempt=1s",
                     "breaker.open.early_probe.enabled=true"}),
            "--set breaker.open.early_probe.enabled=true: breaker.open.early_probe.poll must be "
            "positive when the early probe is enabled");
  // A combination that is only valid as a whole is accepted.
  const Config c = applyOverrides(Config{}, {"breaker.failure_rate=0%", "breaker.failure_rate=5%"});
  EXPECT_EQ(c.breaker.failure_rate_pct, 5.0);
}

}  // namespace
}  // namespace breakerlab
