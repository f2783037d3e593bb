#include <gtest/gtest.h>

#include "breakerlab/data/config_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

std::string overridesErrorOf(const std::vector<std::string>& sets, const Config& base = {}) {
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
  EXPECT_EQ(overridesErrorOf({"breaker.window.sise=3"}),
            "--set breaker.window.sise=3: unknown key 'sise' under breaker.window, expected one "
            "of type, size");
  EXPECT_EQ(overridesErrorOf({"bulkhead.size=3"}),
            "--set bulkhead.size=3: unknown key 'bulkhead' at the top level, expected one of "
            "format, breaker, timeout, retry, fallback, pool, workers, load_balancer, pricing, "
            "client_throttling, resilience4j, gobreaker, polly, opossum, cockatiel, envoy");
  EXPECT_EQ(overridesErrorOf({"load_balancer.health_check.pol=shared"}),
            "--set load_balancer.health_check.pol=shared: unknown key 'pol' under "
            "load_balancer.health_check, expected one of enabled, pool, interval, "
            "unhealthy_after, healthy_after");
  EXPECT_EQ(overridesErrorOf({"breaker.window={kind: time}"}),
            "--set breaker.window={kind: time}: unknown key 'kind' under breaker.window, expected "
            "one of type, size");
}

TEST(Overrides, BadValuesUseTheFileParsersMessages) {
  EXPECT_EQ(overridesErrorOf({"timeout.attempt=2"}),
            "--set timeout.attempt=2: timeout.attempt: expected a duration with a unit (us, ms, "
            "s, m) such as 800ms or 1.5s, got \"2\"");
  EXPECT_EQ(overridesErrorOf({"breaker.window.type=sliding"}),
            "--set breaker.window.type=sliding: breaker.window.type: expected one of count, time, "
            "consecutive, got \"sliding\"");
  EXPECT_EQ(overridesErrorOf({"breaker.failure_rate=50"}),
            "--set breaker.failure_rate=50: breaker.failure_rate: expected a percentage such as "
            "50% (with the % sign), got \"50\"");
  EXPECT_EQ(overridesErrorOf({"breaker.enabled="}),
            "--set breaker.enabled=: breaker.enabled: expected true or false, got nothing (null)");
  EXPECT_EQ(overridesErrorOf({"breaker=off"}),
            "--set breaker=off: breaker: expected a map, got \"off\"");
}

TEST(Overrides, MalformedAssignments) {
  EXPECT_EQ(overridesErrorOf({"breaker.window.size"}),
            "--set breaker.window.size: expected dotted.key=value, e.g. breaker.window.size=30");
  EXPECT_EQ(overridesErrorOf({"breaker..size=3"}),
            "--set breaker..size=3: empty part in the key 'breaker..size'");
  EXPECT_EQ(overridesErrorOf({"=3"}), "--set =3: empty key");
  EXPECT_EQ(overridesErrorOf({"breaker.enabled.x=1"}),
            "--set breaker.enabled.x=1: breaker.enabled is a value, not a section: it has no "
            "key 'x'");
  const std::string unterminated = overridesErrorOf({"breaker.failures=[timeout"});
  EXPECT_EQ(unterminated.rfind("--set breaker.failures=[timeout: cannot read the value: ", 0), 0u)
      << unterminated;
}

TEST(Overrides, ValidationBlamesTheAssignmentThatBrokeTheConfig) {
  EXPECT_EQ(overridesErrorOf({"breaker.open.interval=0s"}),
            "--set breaker.open.interval=0s: breaker.open.interval must be positive");
  // The poll is harmless until the early probe is turned on.
  EXPECT_EQ(overridesErrorOf({"breaker.open.early_probe.poll=0s", "timeout.attempt=1s",
                              "breaker.open.early_probe.enabled=true"}),
            "--set breaker.open.early_probe.enabled=true: breaker.open.early_probe.poll must be "
            "positive when the early probe is enabled");
  // A combination that is only valid as a whole is accepted.
  const Config c = applyOverrides(Config{}, {"breaker.failure_rate=0%", "breaker.failure_rate=5%"});
  EXPECT_EQ(c.breaker.failure_rate_pct, 5.0);
}

TEST(Overrides, ResourceKeys) {
  const Config c = applyOverrides(
      Config{},
      {"pool.size=20", "pool.max_wait=500ms", "workers={per_pod: 200}", "workers.queue=10",
       "load_balancer.pods=8", "load_balancer.health_check={enabled: true, pool: separate}",
       "load_balancer.health_check.interval=2s", "pricing.mode=cache_first",
       "pricing.refresh_after=30s", "retry.mode=background",
       "breaker.failures=[timeout, pool_exhausted]", "retry.retry_on=[pool_exhausted]"});
  Config expected;
  expected.pool = {20, 500 * kMillisecond};
  expected.workers = {200, 10};
  expected.load_balancer.pods = 8;
  expected.load_balancer.health_check.enabled = true;
  expected.load_balancer.health_check.pool = HealthCheckPool::separate;
  expected.load_balancer.health_check.interval = 2 * kSecond;
  expected.pricing = {PricingMode::cache_first, 30 * kSecond};
  expected.retry.mode = RetryMode::background;
  expected.breaker.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::pool_exhausted};
  expected.retry.retry_on = OutcomeSet{CallOutcome::pool_exhausted};
  EXPECT_EQ(c, expected);
  // A map value keeps the keys it does not name.
  EXPECT_EQ(applyOverrides(c, {"pool={size: 5}"}).pool.max_wait, 500 * kMillisecond);
}

TEST(Overrides, ResourceErrors) {
  EXPECT_EQ(overridesErrorOf({"pool.size=-1"}),
            "--set pool.size=-1: pool.size: expected a whole number from 0 to 4294967295, got "
            "\"-1\"");
  EXPECT_EQ(overridesErrorOf({"load_balancer.health_check.pool=both"}),
            "--set load_balancer.health_check.pool=both: load_balancer.health_check.pool: "
            "expected one of shared, separate, got \"both\"");
  EXPECT_EQ(overridesErrorOf({"pricing.mode=lazy"}),
            "--set pricing.mode=lazy: pricing.mode: expected one of sync, cache_first, got "
            "\"lazy\"");
  EXPECT_EQ(overridesErrorOf({"load_balancer.health_check.interval=5ms",
                              "load_balancer.health_check.enabled=true"}),
            "--set load_balancer.health_check.enabled=true: load_balancer.health_check.interval "
            "must be at least 10ms");
}

}  // namespace
}  // namespace breakerlab
