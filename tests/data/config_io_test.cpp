#include <gtest/gtest.h>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test::positionOf;

constexpr const char* kHeader = "format: breakerlab-config/1\n";

TEST(ConfigFile, AllKeysOptionalDefaultsAreConfigDefaults) {
  EXPECT_EQ(parseConfig(kHeader, "c.yaml"), Config{});
}

TEST(ConfigFile, ReadsEveryKey) {
  const std::string text = std::string(kHeader) + R"(
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
  const std::string text = std::string(kHeader) + "breaker:\n  window: {type: count, sise: 3}\n";
  const auto e = test::loadErrorOf([&] { parseConfig(text, "c.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), positionOf(text, "sise").line);
  EXPECT_EQ(e->column(), positionOf(text, "sise").column);
  EXPECT_STREQ(e->what(),
               "c.yaml:3:25: unknown key 'sise' under breaker.window, expected one "
               "of type, size");
}

TEST(ConfigFile, UnknownTopLevelKey) {
  const std::string text = std::string(kHeader) + "pool: {size: 20}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "pool"),
                       "unknown key 'pool' at the top level, expected one of format, breaker, "
                       "timeout, retry, fallback");
}

TEST(ConfigFile, BadEnumNamesTheChoices) {
  const std::string text = std::string(kHeader) + "breaker:\n  window: {type: sliding}\n";
  const auto e = test::loadErrorOf([&] { parseConfig(text, "inc.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_STREQ(e->what(),
               "inc.yaml:3:18: breaker.window.type: expected one of count, time, consecutive, "
               "got \"sliding\"");
}

TEST(ConfigFile, BadDurationUnit) {
  const std::string text = std::string(kHeader) + "timeout:\n  attempt: 800millis\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "800millis"),
                       "timeout.attempt: expected a duration with one of the units us, ms, s, m "
                       "(not 'millis'), got \"800millis\"");
  const std::string bare = std::string(kHeader) + "timeout: {attempt: 800}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(bare, "c.yaml"), positionOf(bare, "800}"),
                       "timeout.attempt: expected a duration with a unit");
}

TEST(ConfigFile, PercentagesNeedTheSign) {
  const std::string text = std::string(kHeader) + "breaker:\n  failure_rate: 50\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "50\n"),
                       "breaker.failure_rate: expected a percentage such as 50% (with the % sign), "
                       "got \"50\"");
}

TEST(ConfigFile, WrongTypesAreErrors) {
  const std::string list = std::string(kHeader) + "breaker: [1, 2]\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(list, "c.yaml"), positionOf(list, "[1"),
                       "breaker: expected a map, got a list");
  const std::string boolean = std::string(kHeader) + "breaker: {enabled: yes}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(boolean, "c.yaml"), positionOf(boolean, "yes"),
                       "breaker.enabled: expected true or false, got \"yes\"");
  const std::string count = std::string(kHeader) + "breaker: {min_calls: 2.5}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(count, "c.yaml"), positionOf(count, "2.5"),
                       "breaker.min_calls: expected a whole number");
  const std::string failures = std::string(kHeader) + "breaker: {failures: timeout}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(failures, "c.yaml"), positionOf(failures, "timeout}"),
                       "breaker.failures: expected a list");
  const std::string klass = std::string(kHeader) + "breaker: {failures: [timeout, success]}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(klass, "c.yaml"), positionOf(klass, "success"),
                       "breaker.failures[1]: expected one of timeout, refused, server_error, "
                       "client_error, got \"success\"");
  const std::string null = std::string(kHeader) + "timeout:\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(null, "c.yaml"), (test::TextPosition{2, 1}),
                       "timeout: expected a map");
}

TEST(ConfigFile, RepeatedKeysAreErrors) {
  const std::string text = std::string(kHeader) + "timeout: {attempt: 1s, attempt: 2s}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), positionOf(text, "attempt", 1),
                       "timeout: key 'attempt' appears twice");
}

TEST(ConfigFile, ValidationProblemsPointAtTheConfig) {
  const std::string text = std::string(kHeader) + "breaker: {failure_rate: 0%}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(text, "c.yaml"), (test::TextPosition{1, 1}),
                       "breaker.failure_rate must be in (0%, 100%]");
  const std::string probe =
      std::string(kHeader) + "breaker:\n  open: {early_probe: {enabled: true, poll: 0s}}\n";
  EXPECT_LOAD_ERROR_AT(parseConfig(probe, "c.yaml"), (test::TextPosition{1, 1}),
                       "early_probe.poll must be positive");
}

TEST(ConfigFile, YamlSyntaxErrorsHavePositions) {
  const std::string text = std::string(kHeader) + "breaker:\n  window: {type: count\n";
  const auto e = test::loadErrorOf([&] { parseConfig(text, "c.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->file(), "c.yaml");
  EXPECT_GE(e->line(), 3);
  EXPECT_GT(e->column(), 0);
  EXPECT_NE(e->message().find("YAML syntax error"), std::string::npos) << e->what();

  const std::string bad_indent = std::string(kHeader) + "breaker:\n  enabled: true\n   x: 1\n";
  const auto e2 = test::loadErrorOf([&] { parseConfig(bad_indent, "c.yaml"); });
  ASSERT_TRUE(e2);
  EXPECT_EQ(e2->line(), 4) << e2->what();
  EXPECT_GT(e2->column(), 0);
}

TEST(ConfigFile, EmptyAndMultiDocumentFiles) {
  EXPECT_LOAD_ERROR_AT(parseConfig("", "c.yaml"), (test::TextPosition{0, 0}), "empty");
  const std::string two = std::string(kHeader) + "---\nformat: breakerlab-config/1\n";
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
        "slow_call: {duration: 0s, rate: 100%}", "failures: [timeout, refused, server_error]",
        "early_probe: {enabled: false, poll: 2s}",
        "half_open: {probes: 3, spacing: 1s, close_when: all_succeed, "
        "reopen_on_first_failure: false}",
        "timeout: {attempt: 800ms, total: 0s}", "cache: {enabled: true, ttl: 60s}",
        "backoff: {kind: exponential, base: 200ms, multiplier: 2, max: 5s}",
        "retry_on: [timeout, refused, server_error]"})
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
    default:
      b.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                              CallOutcome::client_error};
      b.failure_rate_pct = 99.99999999;
      b.backoff_multiplier = 100;
      break;
  }
  return c;
}

TEST(ConfigToYaml, RoundTripsThroughTheParser) {
  for (int i = 0; i < 5; ++i) {
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

}  // namespace
}  // namespace breakerlab
