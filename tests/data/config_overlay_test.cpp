// A config file laid over an incident's config (overlayConfig, applyConfigFile): what the file
// states replaces, what it does not state stays.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "breakerlab/data/config_file.h"
#include "breakerlab/data/config_io.h"
#include "support/short_units.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

// An incident's config far from the defaults, so that "kept" cannot pass by chance.
Config incidentConfig() {
  Config c;
  c.breaker.enabled = false;
  c.breaker.window_type = WindowType::time;
  c.breaker.window_size = 30;
  c.breaker.failure_rate_pct = 25;
  c.timeout.attempt = 30 * s;
  c.timeout.total = 45 * s;
  c.retry.max_attempts = 3;
  c.retry.base = 200 * ms;
  c.retry.jitter = Jitter::full;
  c.pool.size = 20;
  c.pool.max_wait = 1 * s;
  c.load_balancer.pods = 12;
  c.cache.enabled = false;
  return c;
}

std::string file(const std::string& body) {
  return "format: breakerlab-config/1\n" + body;
}

struct OverlayCase {
  std::string name;
  std::string body;
  std::function<void(Config&)> expected_change;  // applied to incidentConfig()
};

TEST(ConfigOverlay, EachStatedKeyReplacesAndTheRestStays) {
  const std::vector<OverlayCase> cases = {
      {"nothing stated", "", [](Config&) {}},
      {"one leaf", "timeout: {attempt: 2s}\n", [](Config& c) { c.timeout.attempt = 2 * s; }},
      {"a dotted leaf in block style", "timeout:\n  total: 0s\n",
       [](Config& c) { c.timeout.total = 0; }},
      {"a map sets only its keys", "breaker: {window: {size: 60}}\n",
       [](Config& c) { c.breaker.window_size = 60; }},
      {"a list replaces the list", "breaker: {failures: [timeout]}\n",
       [](Config& c) { c.breaker.failures = OutcomeSet{CallOutcome::timeout}; }},
      {"several sections", "breaker: {enabled: true}\npool: {size: 50}\nretry: {max_attempts: 1}\n",
       [](Config& c) {
         c.breaker.enabled = true;
         c.pool.size = 50;
         c.retry.max_attempts = 1;
       }},
      {"a library's section and its rules",
       "breaker: {library: resilience4j}\nresilience4j: {failureRateThreshold: 40}\n",
       [](Config& c) {
         c.breaker.library = BreakerLibrary::resilience4j;
         c.native.resilience4j.failure_rate_threshold = 40;
       }},
  };
  for (const OverlayCase& k : cases) {
    Config expected = incidentConfig();
    k.expected_change(expected);
    EXPECT_EQ(overlayConfig(incidentConfig(), file(k.body), "head.yaml"), expected) << k.name;
  }
}

TEST(ConfigOverlay, AWholeConfigFileGivesThatConfigWhateverItIsLaidOver) {
  Config whole = incidentConfig();
  whole.breaker.enabled = true;
  whole.retry.mode = RetryMode::background;
  const std::string text = configToYaml(whole);
  EXPECT_EQ(overlayConfig(Config{}, text, "c.yaml"), whole);
  EXPECT_EQ(overlayConfig(incidentConfig(), text, "c.yaml"), whole);
}

struct OverlayErrorCase {
  std::string name;
  std::string text;
  test::TextPosition at;
  std::string fragment;
};

TEST(ConfigOverlay, ErrorsNameTheFileLineAndColumn) {
  const std::string bad_value = file("timeout: {attempt: fast}\n");
  const std::string unknown = file("timeout: {attempt: 2s}\npooll: {size: 3}\n");
  const std::string under_value = file("timeout:\n  attempt: {seconds: 2}\n");
  const std::string invalid = file("breaker: {failure_rate: 0%}\n");
  const std::vector<OverlayErrorCase> cases = {
      {"no format", "timeout: {attempt: 2s}\n", {1, 1}, "missing required key 'format'"},
      {"another format",
       "format: breakerlab/1\n",
       {1, 9},
       "format: expected \"breakerlab-config/1\""},
      {"a bad value", bad_value, test::positionOf(bad_value, "fast"), "timeout.attempt: expected"},
      {"an unknown key", unknown, test::positionOf(unknown, "pooll"), "unknown key 'pooll'"},
      {"a map for a value", under_value, test::positionOf(under_value, "{seconds"),
       "timeout.attempt"},
      {"an invalid config", invalid, {1, 1}, "failure_rate"},
  };
  for (const OverlayErrorCase& k : cases) {
    const auto e = test::loadErrorOf([&] { overlayConfig(incidentConfig(), k.text, "head.yaml"); });
    ASSERT_TRUE(e.has_value()) << k.name;
    EXPECT_EQ(e->file(), "head.yaml") << k.name;
    EXPECT_EQ(e->line(), k.at.line) << k.name << ": " << e->what();
    EXPECT_EQ(e->column(), k.at.column) << k.name << ": " << e->what();
    EXPECT_NE(e->message().find(k.fragment), std::string::npos) << k.name << ": " << e->what();
  }
}

TEST(ConfigFile, ABreakerlabFileIsLaidOverTheIncidentsConfig) {
  const ConfigFile f = parseConfigFile(file("timeout: {attempt: 2s}\n"), "head.yaml");
  EXPECT_TRUE(f.breakerlab_format);
  EXPECT_EQ(f.formatName(), "breakerlab-config/1");
  Config expected = incidentConfig();
  expected.timeout.attempt = 2 * s;
  EXPECT_EQ(applyConfigFile(f, incidentConfig()), expected);
  // --library on a breakerlab-config/1 file chooses the rules it is replayed with.
  const ConfigFile g =
      parseConfigFile(file("timeout: {attempt: 2s}\n"), "head.yaml", BreakerLibrary::gobreaker);
  expected.breaker.library = BreakerLibrary::gobreaker;
  EXPECT_EQ(applyConfigFile(g, incidentConfig()), expected);
}

TEST(ConfigFile, AResilience4jFileBringsItsBreakerTimeLimiterAndRetryAndKeepsTheRest) {
  const ConfigFile f = parseConfigFile(
      "resilience4j:\n"
      "  circuitbreaker:\n"
      "    instances:\n"
      "      payment: {failureRateThreshold: 25, slidingWindowType: TIME_BASED}\n"
      "  timelimiter:\n"
      "    instances:\n"
      "      payment: {timeoutDuration: 2s}\n"
      "  retry:\n"
      "    instances:\n"
      "      payment: {maxAttempts: 2, waitDuration: 100ms}\n",
      "application.yml");
  EXPECT_FALSE(f.breakerlab_format);
  EXPECT_EQ(f.formatName(), "resilience4j (Spring Boot application.yml)");
  const Config c = applyConfigFile(f, incidentConfig());
  EXPECT_TRUE(c.breaker.enabled);  // the file puts a breaker around the call
  EXPECT_EQ(c.breaker.library, BreakerLibrary::resilience4j);
  EXPECT_EQ(c.native.resilience4j.failure_rate_threshold, 25);
  EXPECT_EQ(c.timeout.attempt, 2 * s);
  EXPECT_EQ(c.retry.max_attempts, 2u);
  EXPECT_EQ(c.retry.backoff, BackoffKind::fixed);
  EXPECT_EQ(c.retry.base, 100 * ms);
  EXPECT_EQ(c.retry.jitter, Jitter::none);
  // Spring's default aspect order: Retry outside CircuitBreaker, every attempt passes it.
  EXPECT_EQ(c.breaker.placement, BreakerPlacement::inside_retry);
  // What resilience4j does not configure stays the incident's.
  EXPECT_EQ(c.timeout.total, 45 * s);
  EXPECT_EQ(c.pool, incidentConfig().pool);
  EXPECT_EQ(c.load_balancer, incidentConfig().load_balancer);
  EXPECT_EQ(c.cache, incidentConfig().cache);
  EXPECT_EQ(c.breaker.window_size, 30u);  // the generic machine's, unused by resilience4j
}

TEST(ConfigFile, ATimeLimiterAloneKeepsTheIncidentsBreaker) {
  const ConfigFile f = parseConfigFile(
      "resilience4j.timelimiter.instances.payment.timeoutDuration: 2s\n", "application.yml");
  EXPECT_FALSE(f.native.has_breaker);
  Config expected = incidentConfig();
  expected.timeout.attempt = 2 * s;
  EXPECT_EQ(applyConfigFile(f, incidentConfig()), expected);
}

TEST(ConfigFile, AGobreakerFileBringsOnlyItsBreaker) {
  const ConfigFile f = loadConfigFile(test::resourcePath("configs/lesson-gobreaker.go"));
  const Config c = applyConfigFile(f, incidentConfig());
  EXPECT_EQ(c.breaker.library, BreakerLibrary::gobreaker);
  EXPECT_TRUE(c.breaker.enabled);
  Config rest = c;
  rest.breaker = incidentConfig().breaker;
  rest.native = incidentConfig().native;
  EXPECT_EQ(rest, incidentConfig());
  EXPECT_FALSE(f.native.notes.empty());  // the lesson's Name is not a string literal
}

TEST(ConfigFile, ErrorsNameTheFile) {
  const auto native = test::loadErrorOf([] {
    parseConfigFile(
        "resilience4j:\n  timelimiter:\n    instances:\n      p: {timeoutDuration: soon}\n",
        "application.yml");
  });
  ASSERT_TRUE(native.has_value());
  EXPECT_EQ(native->file(), "application.yml");
  EXPECT_EQ(native->line(), 4);
  // A breakerlab-config/1 file is read when it is laid over a config.
  const std::string text = file("pool: {size: many}\n");
  const ConfigFile f = parseConfigFile(text, "head.yaml");
  const auto late = test::loadErrorOf([&] { applyConfigFile(f, incidentConfig()); });
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->file(), "head.yaml");
  EXPECT_EQ(late->line(), test::positionOf(text, "many").line);
  EXPECT_EQ(late->column(), test::positionOf(text, "many").column);
}

}  // namespace
}  // namespace breakerlab
