// What a resilience4j application.yml states around the breaker: its TimeLimiter (the attempt
// timeout) and Retry (attempts and backoff), read as CommonTimeLimiterConfigurationProperties and
// CommonRetryConfigurationProperties build them, and their aspect order (the placement).
#include <gtest/gtest.h>

#include <string>

#include "breakerlab/data/native_config.h"
#include "support/short_units.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

const std::string kBreaker =
    "resilience4j:\n"
    "  circuitbreaker:\n"
    "    instances:\n"
    "      payment: {failureRateThreshold: 25}\n";

NativeConfig readCallSettings(const std::string& text, bool breaker_optional = false) {
  return parseNativeConfig(text, "application.yml", BreakerLibrary::resilience4j,
                           NativeReadOptions{breaker_optional});
}

struct TimeoutCase {
  std::string name;
  std::string limiter;  // the resilience4j.timelimiter section, indented by 2
  Micros expected;
};

TEST(Resilience4jTimeLimiter, IsTheAttemptTimeout) {
  const std::vector<TimeoutCase> cases = {
      {"timeoutDuration", "    instances:\n      payment: {timeoutDuration: 2s}\n", 2 * s},
      // TimeLimiterConfig: Duration.ofSeconds(1).
      {"the default", "    instances:\n      payment: {cancelRunningFuture: true}\n", 1 * s},
      {"configs.default under the instance",
       "    configs:\n      default: {timeoutDuration: 3s}\n    instances:\n      payment: {}\n",
       3 * s},
      {"the instance over configs.default",
       "    configs:\n      default: {timeoutDuration: 3s}\n    instances:\n"
       "      payment: {timeoutDuration: 4s}\n",
       4 * s},
      {"a baseConfig",
       "    configs:\n      slow: {timeout-duration: 5s}\n    instances:\n"
       "      payment: {baseConfig: slow}\n",
       5 * s},
      {"the breaker's instance among several",
       "    instances:\n      other: {timeoutDuration: 1s}\n      payment: {timeoutDuration: 6s}\n",
       6 * s},
      {"no instances: the default config", "    configs:\n      default: {timeoutDuration: 7s}\n",
       7 * s},
      {"an ISO-8601 duration", "    instances:\n      payment: {timeoutDuration: PT2.5S}\n",
       2500 * ms},
      {"a bare number of milliseconds", "    instances:\n      payment: {timeoutDuration: 800}\n",
       800 * ms},
  };
  for (const TimeoutCase& k : cases) {
    const NativeConfig n = readCallSettings(kBreaker + "  timelimiter:\n" + k.limiter);
    EXPECT_EQ(n.calls.attempt_timeout, k.expected) << k.name;
    EXPECT_TRUE(n.notes.empty()) << k.name << ": " << n.notes.front().message;
  }
}

TEST(Resilience4jTimeLimiter, FromProperties) {
  const NativeConfig n = parseNativeConfig(
      "resilience4j.circuitbreaker.instances.payment.failureRateThreshold=25\n"
      "resilience4j.timelimiter.instances.payment.timeoutDuration=2s\n",
      "application.properties", BreakerLibrary::resilience4j);
  EXPECT_EQ(n.calls.attempt_timeout, 2 * s);
}

struct RetryCase {
  std::string name;
  std::string retry;  // the instance's properties
  NativeRetry expected;
};

TEST(Resilience4jRetry, AttemptsAndBackoff) {
  const std::vector<RetryCase> cases = {
      // RetryConfig: DEFAULT_MAX_ATTEMPTS 3, DEFAULT_WAIT_DURATION 500 ms, fixed.
      {"the defaults", "{}", {3, BackoffKind::fixed, 500 * ms, 1.5, 0}},
      {"fixed", "{maxAttempts: 5, waitDuration: 1s}", {5, BackoffKind::fixed, 1 * s, 1.5, 0}},
      {"no wait", "{waitDuration: 0ms}", {3, BackoffKind::none, 0, 1.5, 0}},
      // buildConfig: maxAttempts 0 keeps the builder's.
      {"maxAttempts 0", "{maxAttempts: 0}", {3, BackoffKind::fixed, 500 * ms, 1.5, 0}},
      // IntervalFunction.ofExponentialBackoff(wait): DEFAULT_MULTIPLIER 1.5, no cap.
      {"exponential",
       "{waitDuration: 200ms, enableExponentialBackoff: true}",
       {3, BackoffKind::exponential, 200 * ms, 1.5, 0}},
      {"exponential with multiplier and cap",
       "{waitDuration: 200ms, enableExponentialBackoff: true, exponentialBackoffMultiplier: 2, "
       "exponentialMaxWaitDuration: 2s}",
       {3, BackoffKind::exponential, 200 * ms, 2, 2 * s}},
  };
  for (const RetryCase& k : cases) {
    const NativeConfig n =
        readCallSettings(kBreaker + "  retry:\n    instances:\n      payment: " + k.retry + "\n");
    ASSERT_TRUE(n.calls.retry.has_value()) << k.name;
    EXPECT_EQ(*n.calls.retry, k.expected) << k.name;
    EXPECT_FALSE(n.calls.attempt_timeout.has_value()) << k.name;
  }
}

TEST(Resilience4jRetry, TheAspectOrderPlacesTheBreaker) {
  const std::string retry = "  retry:\n    instances:\n      payment: {maxAttempts: 3}\n";
  // Spring's defaults: retryAspectOrder LOWEST_PRECEDENCE - 5 runs outside the breaker's - 4.
  EXPECT_EQ(readCallSettings(kBreaker + retry).calls.placement, BreakerPlacement::inside_retry);
  const std::string reordered =
      "resilience4j:\n  circuitbreaker:\n    circuitBreakerAspectOrder: 1\n    instances:\n"
      "      payment: {failureRateThreshold: 25}\n  retry:\n    retryAspectOrder: 2\n"
      "    instances:\n      payment: {maxAttempts: 3}\n";
  EXPECT_EQ(readCallSettings(reordered).calls.placement, BreakerPlacement::outside_retry);
  // Without a breaker in the file there is nothing to place.
  const NativeConfig alone = readCallSettings("resilience4j:\n" + retry, true);
  EXPECT_FALSE(alone.has_breaker);
  EXPECT_FALSE(alone.calls.placement.has_value());
  EXPECT_EQ(alone.calls.retry->max_attempts, 3u);
}

struct NoteCase {
  std::string name;
  std::string section;
  // Where the note points (keys keep their positions unless dotted keys are nested around them).
  std::string needle;
  std::string fragment;
};

TEST(Resilience4jCalls, WhatBreakerLabCannotExpressIsNotedWhereItIs) {
  const std::vector<NoteCase> cases = {
      {"a future left running",
       "  timelimiter:\n    instances:\n      payment: {cancelRunningFuture: false}\n", "false",
       "frees the connection at the timeout"},
      {"a randomized wait",
       "  retry:\n    instances:\n      payment: {enableRandomizedWait: true}\n", "true",
       "replayed at its mean"},
      {"the exceptions retried",
       "  retry:\n    instances:\n      payment: {retryExceptions: [java.io.IOException]}\n",
       "[java", "retry.retry_on"},
      {"another module", "  bulkhead:\n    instances:\n      payment: {maxConcurrentCalls: 5}\n",
       "bulkhead", "not the breaker, time limiter or retry"},
      {"a setting not modelled",
       "  timelimiter:\n    instances:\n      payment: {timeoutDuration: 2s, bogus: 1}\n", "bogus",
       "bogus: not a setting BreakerLab models"},
  };
  for (const NoteCase& k : cases) {
    const std::string text = kBreaker + k.section;
    const NativeConfig n = readCallSettings(text);
    ASSERT_EQ(n.notes.size(), 1u) << k.name;
    const test::TextPosition at =
        k.needle.empty() ? test::TextPosition{} : test::positionOf(text, k.needle);
    EXPECT_EQ(n.notes[0].line, at.line) << k.name;
    EXPECT_EQ(n.notes[0].column, at.column) << k.name;
    EXPECT_NE(n.notes[0].message.find(k.fragment), std::string::npos)
        << k.name << ": " << n.notes[0].message;
  }
}

struct CallSettingsErrorCase {
  std::string name;
  std::string section;
  std::string needle;
  std::string fragment;
};

TEST(Resilience4jCalls, BadValuesAreErrorsAtTheirPosition) {
  const std::vector<CallSettingsErrorCase> cases = {
      {"a zero timeout", "  timelimiter:\n    instances:\n      payment: {timeoutDuration: 0s}\n",
       "0s", "a positive duration"},
      {"a duration that is not one",
       "  timelimiter:\n    instances:\n      payment: {timeoutDuration: soon}\n", "soon",
       "timeoutDuration"},
      {"too many attempts", "  retry:\n    instances:\n      payment: {maxAttempts: 101}\n", "101",
       "maxAttempts"},
      {"a shrinking backoff",
       "  retry:\n    instances:\n      payment: {enableExponentialBackoff: true, "
       "exponentialBackoffMultiplier: 0.5}\n",
       "0.5", "exponentialBackoffMultiplier"},
      {"a base config that is not there",
       "  timelimiter:\n    instances:\n      payment: {baseConfig: shared}\n", "shared",
       "no config 'shared' under resilience4j.timelimiter.configs"},
  };
  for (const CallSettingsErrorCase& k : cases) {
    const std::string text = kBreaker + k.section;
    const auto e = test::loadErrorOf([&] { readCallSettings(text); });
    ASSERT_TRUE(e.has_value()) << k.name;
    const test::TextPosition at = test::positionOf(text, k.needle);
    EXPECT_EQ(e->line(), at.line) << k.name << ": " << e->what();
    EXPECT_EQ(e->column(), at.column) << k.name << ": " << e->what();
    EXPECT_NE(e->message().find(k.fragment), std::string::npos) << k.name << ": " << e->what();
  }
}

TEST(Resilience4jCalls, ABreakerIsRequiredUnlessTheReaderIsToldOtherwise) {
  const std::string limiter =
      "resilience4j:\n  timelimiter:\n    instances:\n      payment: {timeoutDuration: 2s}\n";
  const auto e = test::loadErrorOf([&] { readCallSettings(limiter); });
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message().find("no circuitbreaker section"), std::string::npos) << e->what();
  const NativeConfig n = readCallSettings(limiter, true);
  EXPECT_FALSE(n.has_breaker);
  EXPECT_EQ(n.calls.attempt_timeout, 2 * s);
  // Applied, it leaves the breaker alone.
  Config c;
  c.breaker.library = BreakerLibrary::gobreaker;
  applyNativeConfig(n, c);
  EXPECT_EQ(c.breaker.library, BreakerLibrary::gobreaker);
  EXPECT_EQ(c.timeout.attempt, 2 * s);
}

}  // namespace
}  // namespace breakerlab
