#include <gtest/gtest.h>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test::positionOf;

constexpr const char* kConfigHeader = "format: breakerlab-config/1\n";

TEST(ConfigFile, AllKeysOptionalDefaultsAreConfigDefaults) {
  EXPECT_EQ(parseConfig(kConfigHeader, "c.yaml"), Config{});
}

TEST(ConfigFile, ReadsEveryKey) {
  const std::string text = std::string(kConfigHeader) + R"(
breaker:
  enabled: false
  window: {type: time, size: 30}
  min_calls: 10
  failure_rate: 25%
  consecutive_failures: 7
  slow_call: {duration: 2s, rate: 80%}
  failures: [timeout, client_error]
  open:
    interval: 10s
    backoff: {multiplier: 2, max: 1m}
    early_probe: {enabled: true, poll: 500ms}
  half_open: {probes: 1, spacing: 0s, close_when: rate, reopen_on_first_failure: true}
timeout: {attempt: 1.5s}
fallback:
  cache: {enabled: false, ttl: 250us}
)";
  const Config c = parseConfig(text, "c.yaml");
  const BreakerConfig& b = c.breaker;
  EXPECT_FALSE(b.enabled);
  EXPECT_EQ(b.window_type, WindowType::time);
  EXPECT_EQ(b.window_size, 30u);
  EXPECT_EQ(b.min_calls, 10u);
  EXPECT_EQ(b.failure_rate_pct, 25.0);
  EXPECT_EQ(b.consecutive_failures, 7u);
  EXPECT_EQ(b.slow_call_duration, 2 * kSecond);
  EXPECT_EQ(b.slow_call_rate_pct, 80.0);
  EXPECT_EQ(b.failures, (OutcomeSet{CallOutcome::timeout, CallOutcome::client_error}));
  EXPECT_EQ(b.open_interval, 10 * kSecond);
  EXPECT_EQ(b.backoff_multiplier, 2.0);
  EXPECT_EQ(b.backoff_max, 60 * kSecond);
  EXPECT_TRUE(b.early_probe);
  EXPECT_EQ(b.early_probe_poll, 500 * kMillisecond);
  EXPECT_EQ(b.probes, 1u);
  EXPECT_EQ(b.probe_spacing, 0);
  EXPECT_EQ(b.close_when, CloseRule::rate);
  EXPECT_TRUE(b.reopen_on_first_failure);
  EXPECT_EQ(c.timeout.attempt, 1500 * kMillisecond);
  EXPECT_FALSE(c.cache.enabled);
  EXPECT_EQ(c.cache.ttl, 250);
}

TEST(ConfigFile, FormatIsRequired) {
  EXPECT_LOAD_ERROR_AT(parseConfig("breaker: {enabled: true}\n", "c.yaml"),
                       (test::TextPosition{1, 1}), "missing required key 'format'");
  const std::string wrong = "format: breakerlab-config/2\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(wrong, "c.yaml"), positionOf(wrong, "breakerlab-config/2"),
                       "format: expected \"breakerlab-config/1\", got \"breakerlab-config/2\"");
}

TEST(ConfigFile, AnotherKindOfFileFailsOnItsFormat) {
  const std::string incident = test::pricingText();
  const auto pos = positionOf(incident, "breakerlab/1");
  EXPECT_LOAD_ERROR_AT(parseConfig(incident, "inc.yaml"), pos,
                       "format: expected \"breakerlab-config/1\", got \"breakerlab/1\"");
}

TEST(ConfigFile, UnknownKeyListsTheAllowedOnes) {
  const std::string text =
      std::string(kConfigHeader) + "breaker:\n  window: {type: count, sise: 3}\n";
  const auto e = test::loadErrorOf([&] { parseConfig(text, "c.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), positionOf(text, "sise").line);
  EXPECT_EQ(e->column(), positionOf(text, "sise").column);
  EXPECT_STREQ(e->what(),
               "c.yaml:3:25: unknown key 'sise' under breaker.window, expected one "
               "of type, size");
}

TEST(ConfigFile, UnknownTopLevelKey) {
  const std::string text = std::string(kConfigHeader) + "bulkhead: {max_concurrent: 20}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "bulkhead"),
                       "unknown key 'bulkhead' at the top level, expected one of format, breaker, "
                       "timeout, retry, fallback, pool, workers, load_balancer, pricing");
}

TEST(ConfigFile, BadEnumNamesTheChoices) {
  const std::string text = std::string(kConfigHeader) + "breaker:\n  window: {type: sliding}\n";
  const auto e = test::loadErrorOf([&] { parseConfig(text, "inc.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_STREQ(e->what(),
               "inc.yaml:3:18: breaker.window.type: expected one of count, time, consecutive, "
               "got \"sliding\"");
}

TEST(ConfigFile, BadDurationUnit) {
  const std::string text = std::string(kConfigHeader) + "timeout:\n  attempt: 800millis\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "800millis"),
                       "timeout.attempt: expected a duration with one of the units us, ms, s, m "
                       "(not 'millis'), got \"800millis\"");
  const std::string bare = std::string(kConfigHeader) + "timeout: {attempt: 800}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(bare, "c.yaml"), positionOf(bare, "800}"),
                       "timeout.attempt: expected a duration with a unit");
}

TEST(ConfigFile, PercentagesNeedTheSign) {
  const std::string text = std::string(kConfigHeader) + "breaker:\n  failure_rate: 50\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "50\n"),
                       "breaker.failure_rate: expected a percentage such as 50% (with the % sign), "
                       "got \"50\"");
}

TEST(ConfigFile, WrongTypesAreErrors) {
  const std::string list = std::string(kConfigHeader) + "breaker: [1, 2]\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(list, "c.yaml"), positionOf(list, "[1"),
                       "breaker: expected a map, got a list");
  const std::string boolean = std::string(kConfigHeader) + "breaker: {enabled: yes}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(boolean, "c.yaml"), positionOf(boolean, "yes"),
                       "breaker.enabled: expected true or false, got \"yes\"");
  const std::string count = std::string(kConfigHeader) + "breaker: {min_calls: 2.5}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(count, "c.yaml"), positionOf(count, "2.5"),
                       "breaker.min_calls: expected a whole number");
  const std::string failures = std::string(kConfigHeader) + "breaker: {failures: timeout}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(failures, "c.yaml"), positionOf(failures, "timeout}"),
                       "breaker.failures: expected a list");
  const std::string klass =
      std::string(kConfigHeader) + "breaker: {failures: [timeout, success]}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(klass, "c.yaml"), positionOf(klass, "success"),
                       "breaker.failures[1]: expected one of timeout, refused, server_error, "
                       "client_error, pool_exhausted, got \"success\"");
  const std::string null = std::string(kConfigHeader) + "timeout:\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(null, "c.yaml"), (test::TextPosition{2, 1}),
                       "timeout: expected a map");
}

TEST(ConfigFile, RepeatedKeysAreErrors) {
  const std::string text = std::string(kConfigHeader) + "timeout: {attempt: 1s, attempt: 2s}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "attempt", 1),
                       "timeout: key 'attempt' appears twice");
}

TEST(ConfigFile, ValidationProblemsPointAtTheConfig) {
  const std::string text = std::string(kConfigHeader) + "breaker: {failure_rate: 0%}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), (test::TextPosition{1, 1}),
                       "breaker.failure_rate must be in (0%, 100%]");
  const std::string probe =
      std::string(kConfigHeader) + "breaker:\n  open: {early_probe: {enabled: true, poll: 0s}}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(probe, "c.yaml"), (test::TextPosition{1, 1}),
                       "early_probe.poll must be positive");
}

TEST(ConfigFile, YamlSyntaxErrorsHavePositions) {
  const std::string text = std::string(kConfigHeader) + "breaker:\n  window: {type: count\n";
  const auto e = test::loadErrorOf([&] { parseConfig(text, "c.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->file(), "c.yaml");
  EXPECT_GE(e->line(), 3);
  EXPECT_GT(e->column(), 0);
  EXPECT_NE(e->message().find("YAML syntax error"), std::string::npos) << e->what();

  const std::string bad_indent =
      std::string(kConfigHeader) + "breaker:\n  enabled: true\n   x: 1\n";
  const auto e2 = test::loadErrorOf([&] { parseConfig(bad_indent, "c.yaml"); });
  ASSERT_TRUE(e2);
  EXPECT_EQ(e2->line(), 4) << e2->what();
  EXPECT_GT(e2->column(), 0);
}

TEST(ConfigFile, EmptyAndMultiDocumentFiles) {
  EXPECT_LOAD_ERROR_AT(parseConfig("", "c.yaml"), (test::TextPosition{0, 0}), "empty");
  const std::string two = std::string(kConfigHeader) + "---\nformat: breakerlab-config/1\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(two, "c.yaml"), (test::TextPosition{2, 1}), "more than one");
  EXPECT_LOAD_ERROR_AT(parseConfig("just a string", "c.yaml"), (test::TextPosition{1, 1}),
                       "document: expected a map");
}

TEST(ConfigFile, MissingFileGivesTheOsReason) {
  const auto e = test::loadErrorOf([] { loadConfig("/nonexistent/dir/c.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->file(), "/nonexistent/dir/c.yaml");
  EXPECT_EQ(e->line(), 0);
  EXPECT_EQ(e->message(), "cannot read: No such file or directory");
}

TEST(ConfigToYaml, IsCanonical) {
  const std::string text = configToYaml(Config{});
  EXPECT_EQ(text.rfind("format: breakerlab-config/1\n", 0), 0u) << text;
  for (const char* fragment :
       {"window: {type: count, size: 20}", "failure_rate: 50%", "interval: 20s",
        "slow_call: {duration: 0s, rate: 100%}",
        "failures: [timeout, refused, server_error, pool_exhausted]",
        "early_probe: {enabled: false, poll: 2s}",
        "half_open: {probes: 3, spacing: 1s, close_when: all_succeed, "
        "reopen_on_first_failure: false}",
        "timeout: {attempt: 800ms, total: 0s}", "cache: {enabled: true, scope: per_pod, ttl: 60s}",
        "  enabled: true\n  scope: per_pod\n  library: breakerlab",
        "budget: {scope: per_pod, ratio: 0%, min_per_second: 0, window: 10s}",
        "backoff: {kind: exponential, base: 200ms, multiplier: 2, max: 5s}",
        "retry_on: [timeout, refused, server_error, pool_exhausted]", "mode: in_request",
        "pool: {size: 0, max_wait: 0s}", "workers: {per_pod: 0, queue: 0, call_threads: false}",
        "load_balancer:\n  pods: 1\n  health_check: {enabled: false, pool: shared, interval: 5s, "
        "unhealthy_after: 2, healthy_after: 2}",
        "pricing: {mode: sync, refresh_after: 10s}"})
    EXPECT_NE(text.find(fragment), std::string::npos) << fragment << "\n" << text;
}

Config variant(int i) {
  Config c;
  BreakerConfig& b = c.breaker;
  switch (i) {
    case 0:
      break;
    case 1:
      b.enabled = false;
      b.window_type = WindowType::time;
      b.window_size = 30;
      b.failure_rate_pct = 100.0 / 3.0;
      b.failures = OutcomeSet{};
      c.timeout.attempt = 1;
      c.cache.ttl = 0;
      break;
    case 2:
      b.window_type = WindowType::consecutive;
      b.consecutive_failures = 4294967295u;
      b.min_calls = 0;
      b.slow_call_duration = 1'234'567;
      b.slow_call_rate_pct = 0.1;
      b.failures = OutcomeSet{CallOutcome::client_error};
      b.backoff_multiplier = 1.7;
      b.backoff_max = 5 * 60 * kSecond;
      break;
    case 3:
      b.early_probe = true;
      b.early_probe_poll = 250 * kMillisecond;
      b.probes = 10;
      b.probe_spacing = 0;
      b.close_when = CloseRule::rate;
      b.reopen_on_first_failure = true;
      b.open_interval = kMaxDuration;
      c.cache.enabled = false;
      c.timeout.attempt = 30 * kSecond;
      break;
    case 4:
      b.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                              CallOutcome::client_error, CallOutcome::pool_exhausted};
      b.failure_rate_pct = 99.99999999;
      b.backoff_multiplier = 100;
      break;
    default:  // every resource key away from its default
      b.failures = OutcomeSet{CallOutcome::pool_exhausted};
      c.retry.max_attempts = 3;
      c.retry.retry_on = OutcomeSet{CallOutcome::pool_exhausted, CallOutcome::timeout};
      c.retry.mode = RetryMode::background;
      c.pool = {20, 1'500};
      c.workers = {200, 7, true};
      c.load_balancer.pods = 8;
      c.load_balancer.health_check = {true, HealthCheckPool::separate, 2500 * kMillisecond, 3, 4};
      c.pricing = {PricingMode::cache_first, 0};
      break;
  }
  return c;
}

TEST(ConfigToYaml, RoundTripsThroughTheParser) {
  for (int i = 0; i < 6; ++i) {
    const Config c = variant(i);
    ASSERT_EQ(validate(c), "") << i;
    const std::string text = configToYaml(c);
    EXPECT_EQ(parseConfig(text, "round-trip.yaml"), c) << i << "\n" << text;
  }
}

}  // namespace
}  // namespace breakerlab

namespace breakerlab {
namespace {

TEST(ConfigRetry, RetryKeysRoundTripAndParse) {
  const std::string text = R"(format: breakerlab-config/1
breaker: {placement: inside_retry}
timeout: {attempt: 2s, total: 5s}
retry:
  max_attempts: 4
  backoff: {kind: exponential, base: 200ms, multiplier: 2, max: 5s}
  jitter: decorrelated
  retry_on: [timeout, server_error]
  budget: {ratio: 7%, min_per_second: 10, window: 10s}
  token_bucket: {capacity: 500, cost: 5, refund: 1}
)";
  const Config c = parseConfig(text, "retry.yaml");
  EXPECT_EQ(c.breaker.placement, BreakerPlacement::inside_retry);
  EXPECT_EQ(c.timeout.total, 5 * kSecond);
  EXPECT_EQ(c.retry.max_attempts, 4u);
  EXPECT_EQ(c.retry.jitter, Jitter::decorrelated);
  EXPECT_FALSE(c.retry.retry_on.contains(CallOutcome::refused));
  EXPECT_DOUBLE_EQ(c.retry.budget.ratio, 0.07);
  EXPECT_DOUBLE_EQ(c.retry.token_bucket.capacity, 500);
  EXPECT_EQ(parseConfig(configToYaml(c), "again.yaml"), c);
  EXPECT_EQ(applyOverrides(Config{}, {"retry.jitter=equal"}).retry.jitter, Jitter::equal);
}

TEST(ConfigRetry, EnvoysRetryBudgetInItsOwnNames) {
  const Config c = parseConfig(std::string(kConfigHeader) +
                                   "retry:\n  max_attempts: 2\n  concurrency_budget: "
                                   "{budget_percent: 20%, min_retry_concurrency: 3}\n",
                               "t.yaml");
  EXPECT_DOUBLE_EQ(c.retry.concurrency_budget.budget_percent, 20);
  EXPECT_EQ(c.retry.concurrency_budget.min_retry_concurrency, 3u);
  EXPECT_EQ(parseConfig(configToYaml(c), "again.yaml"), c);
  EXPECT_NE(configToYaml(Config{}).find(
                "concurrency_budget: {budget_percent: 0%, min_retry_concurrency: 3}"),
            std::string::npos);
  EXPECT_LOAD_ERROR_AT(parseConfig(std::string(kConfigHeader) +
                                       "retry:\n  concurrency_budget: {budget_percent: 20}\n",
                                   "t.yaml"),
                       (test::TextPosition{3, 40}), "%");
}

TEST(ConfigClientThrottling, ReadsWritesAndChecksTheKeys) {
  const Config c = parseConfig(
      std::string(kConfigHeader) + "client_throttling: {k: 2, window: 30s}\n", "t.yaml");
  EXPECT_DOUBLE_EQ(c.client_throttling.k, 2);
  EXPECT_EQ(c.client_throttling.window, 30 * kSecond);
  EXPECT_EQ(parseConfig(configToYaml(c), "again.yaml"), c);
  EXPECT_NE(configToYaml(Config{}).find("client_throttling: {k: 0, window: 120s}"),
            std::string::npos);
  EXPECT_DOUBLE_EQ(applyOverrides(Config{}, {"client_throttling.k=1.5"}).client_throttling.k, 1.5);
  EXPECT_LOAD_ERROR_AT(
      parseConfig(std::string(kConfigHeader) + "client_throttling: {k: 0.05}\n", "t.yaml"),
      (test::TextPosition{1, 1}), "client_throttling.k must be 0 (off) or 0.1 to 100");
  EXPECT_LOAD_ERROR_AT(
      parseConfig(std::string(kConfigHeader) + "client_throttling: {window: 500ms}\n", "t.yaml"),
      (test::TextPosition{1, 1}), "client_throttling.window must be 1s to 1h");
  EXPECT_LOAD_ERROR_AT(
      parseConfig(std::string(kConfigHeader) + "client_throttling: {k: 101}\n", "t.yaml"),
      (test::TextPosition{2, 24}), "100");
}

// gRPC's retryThrottling, read as grpc-js's validateRetryThrottling (src/service-config.ts) reads
// it: maxTokens in (0, 1000], tokenRatio above 0, three decimals each.
TEST(ConfigRetry, ThrottlingIsReadAsGrpcReadsIt) {
  const std::string header = std::string(kConfigHeader) + "retry:\n  max_attempts: 3\n";
  const Config c =
      parseConfig(header + "  throttling: {max_tokens: 10, token_ratio: 0.1}\n", "t.yaml");
  EXPECT_DOUBLE_EQ(c.retry.throttling.max_tokens, 10);
  EXPECT_DOUBLE_EQ(c.retry.throttling.token_ratio, 0.1);
  EXPECT_EQ(parseConfig(configToYaml(c), "again.yaml"), c);
  EXPECT_NE(configToYaml(Config{}).find("throttling: {max_tokens: 0, token_ratio: 0.1}"),
            std::string::npos);
  EXPECT_DOUBLE_EQ(
      applyOverrides(Config{}, {"retry.throttling.max_tokens=100"}).retry.throttling.max_tokens,
      100);
  // A fourth decimal would be dropped by gRPC (toFixed(3)): refused, not replayed as another value.
  EXPECT_LOAD_ERROR_AT(
      parseConfig(header + "  throttling: {max_tokens: 10, token_ratio: 0.1234}\n", "t.yaml"),
      (test::TextPosition{1, 1}), "retry.throttling.token_ratio must be above 0");
  EXPECT_LOAD_ERROR_AT(parseConfig(header + "  throttling: {max_tokens: 10.0005}\n", "t.yaml"),
                       (test::TextPosition{1, 1}),
                       "retry.throttling.max_tokens must be 0 (none) or in (0, 1000]");
  // Out of gRPC's ranges: the value itself is pointed at.
  EXPECT_LOAD_ERROR_AT(parseConfig(header + "  throttling: {max_tokens: 1001}\n", "t.yaml"),
                       (test::TextPosition{4, 28}), "1000");
  EXPECT_LOAD_ERROR_AT(parseConfig(header + "  throttling: {token_ratio: 0}\n", "t.yaml"),
                       (test::TextPosition{4, 29}), "0.001");
}

}  // namespace
}  // namespace breakerlab

namespace breakerlab {
namespace {

TEST(ConfigResources, ReadsThePoolWorkersLoadBalancerAndPricingKeys) {
  const std::string text = R"(format: breakerlab-config/1
breaker: {failures: [timeout, pool_exhausted]}
retry:
  max_attempts: 3
  retry_on: [pool_exhausted]
  mode: background
pool: {size: 20, max_wait: 250ms}
workers: {per_pod: 200, queue: 5, call_threads: true}
load_balancer:
  pods: 8
  health_check: {enabled: true, pool: separate, interval: 2s, unhealthy_after: 3, healthy_after: 1}
pricing: {mode: cache_first, refresh_after: 15s}
)";
  const Config c = parseConfig(text, "resources.yaml");
  EXPECT_EQ(c.breaker.failures, (OutcomeSet{CallOutcome::timeout, CallOutcome::pool_exhausted}));
  EXPECT_EQ(c.retry.retry_on, OutcomeSet{CallOutcome::pool_exhausted});
  EXPECT_EQ(c.retry.mode, RetryMode::background);
  EXPECT_EQ(c.pool.size, 20u);
  EXPECT_EQ(c.pool.max_wait, 250 * kMillisecond);
  EXPECT_EQ(c.workers.per_pod, 200u);
  EXPECT_EQ(c.workers.queue, 5u);
  EXPECT_TRUE(c.workers.call_threads);
  EXPECT_EQ(c.load_balancer.pods, 8u);
  const HealthCheckConfig& hc = c.load_balancer.health_check;
  EXPECT_TRUE(hc.enabled);
  EXPECT_EQ(hc.pool, HealthCheckPool::separate);
  EXPECT_EQ(hc.interval, 2 * kSecond);
  EXPECT_EQ(hc.unhealthy_after, 3u);
  EXPECT_EQ(hc.healthy_after, 1u);
  EXPECT_EQ(c.pricing.mode, PricingMode::cache_first);
  EXPECT_EQ(c.pricing.refresh_after, 15 * kSecond);
  // Written and read back equal, and the sections absent from a file keep their defaults.
  EXPECT_EQ(parseConfig(configToYaml(c), "again.yaml"), c);
  const Config partial = parseConfig(std::string(kConfigHeader) + "pool: {size: 4}\n", "p.yaml");
  EXPECT_EQ(partial.pool.size, 4u);
  EXPECT_EQ(partial.pool.max_wait, 0);
  EXPECT_EQ(partial.workers, WorkerConfig{});
  EXPECT_EQ(partial.load_balancer, LoadBalancerConfig{});
  EXPECT_EQ(partial.pricing, PricingConfig{});
}

TEST(ConfigResources, BadValuesPointAtTheValue) {
  const std::string size = std::string(kConfigHeader) + "pool:\n  size: -1\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(size, "c.yaml"), positionOf(size, "-1"),
                       "pool.size: expected a whole number from 0 to 4294967295, got \"-1\"");
  const std::string wait = std::string(kConfigHeader) + "pool: {size: 20, max_wait: 500}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(wait, "c.yaml"), positionOf(wait, "500}"),
                       "pool.max_wait: expected a duration with a unit");
  const std::string queue = std::string(kConfigHeader) + "workers: {per_pod: 10, queue: 2.5}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(queue, "c.yaml"), positionOf(queue, "2.5"),
                       "workers.queue: expected a whole number");
  const std::string pods = std::string(kConfigHeader) + "load_balancer: {pods: 0}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(pods, "c.yaml"), positionOf(pods, "0}"),
                       "load_balancer.pods: expected a whole number from 1 to 4294967295");
  const std::string pool =
      std::string(kConfigHeader) + "load_balancer:\n  health_check: {enabled: true, pool: both}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(pool, "c.yaml"), positionOf(pool, "both"),
                       "load_balancer.health_check.pool: expected one of shared, separate, got "
                       "\"both\"");
  const std::string check =
      std::string(kConfigHeader) + "load_balancer:\n  health_check: {every: 5s}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(check, "c.yaml"), positionOf(check, "every"),
                       "unknown key 'every' under load_balancer.health_check, expected one of "
                       "enabled, pool, interval, unhealthy_after, healthy_after");
  const std::string pricing = std::string(kConfigHeader) + "pricing:\n  mode: lazy\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(pricing, "c.yaml"), positionOf(pricing, "lazy"),
                       "pricing.mode: expected one of sync, cache_first, got \"lazy\"");
  const std::string mode = std::string(kConfigHeader) + "retry: {max_attempts: 2, mode: async}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(mode, "c.yaml"), positionOf(mode, "async"),
                       "retry.mode: expected one of in_request, background, got \"async\"");
  const std::string twice =
      std::string(kConfigHeader) + "retry: {retry_on: [pool_exhausted, timeout, pool_exhausted]}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(twice, "c.yaml"), positionOf(twice, "pool_exhausted", 1),
                       "retry.retry_on[2]: pool_exhausted is listed twice");
}

TEST(ConfigResources, ValidationProblemsPointAtTheConfig) {
  const std::string interval = std::string(kConfigHeader) +
                               "load_balancer:\n  health_check: {enabled: true, interval: 5ms}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(interval, "c.yaml"), (test::TextPosition{1, 1}),
                       "load_balancer.health_check.interval must be at least 10ms");
  // The thresholds only matter while the checks are on.
  const std::string off =
      std::string(kConfigHeader) + "load_balancer:\n  health_check: {unhealthy_after: 0}\n";
  EXPECT_EQ(parseConfig(off, "c.yaml").load_balancer.health_check.unhealthy_after, 0u);
  const std::string on = std::string(kConfigHeader) +
                         "load_balancer:\n  health_check: {enabled: true, unhealthy_after: 0}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(on, "c.yaml"), (test::TextPosition{1, 1}),
                       "unhealthy_after and healthy_after must be at least 1");
  const std::string pods = std::string(kConfigHeader) + "load_balancer: {pods: 10001}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(pods, "c.yaml"), (test::TextPosition{1, 1}),
                       "load_balancer.pods must be 1 to 10000");
}

}  // namespace
}  // namespace breakerlab
