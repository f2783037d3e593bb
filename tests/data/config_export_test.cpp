#include "breakerlab/data/config_export.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

Config deployed8Sep() {
  return loadIncident(test::resourcePath(test::kPricingIncident)).deployed;
}
Config earlyProbe() {
  return loadConfig(test::resourcePath("configs/pricing-client-early-probe.yaml"));
}
Config gobreakerPreset() {
  return loadConfig(test::resourcePath("examples/gobreaker-default.yaml"));
}

// A time window with slow calls, backoff, a rate close rule and business errors counted.
Config timeWindowWithBackoff() {
  Config c;
  BreakerConfig& b = c.breaker;
  b.window_type = WindowType::time;
  b.window_size = 10;
  b.min_calls = 20;
  b.failure_rate_pct = 25;
  b.slow_call_duration = 2 * kSecond;
  b.slow_call_rate_pct = 80;
  b.failures.insert(CallOutcome::client_error);
  b.open_interval = 5 * kSecond;
  b.backoff_multiplier = 2;
  b.backoff_max = 60 * kSecond;
  b.probes = 4;
  b.probe_spacing = 0;
  b.close_when = CloseRule::rate;
  c.timeout.attempt = 1500 * kMillisecond;
  c.cache.enabled = false;
  return c;
}

Config consecutiveWindow() {
  Config c;
  c.breaker.window_type = WindowType::consecutive;
  c.breaker.consecutive_failures = 5;
  c.breaker.failures = OutcomeSet{CallOutcome::timeout};
  c.breaker.close_when = CloseRule::rate;
  c.breaker.failure_rate_pct = 40;
  c.breaker.probes = 2;
  c.breaker.probe_spacing = 250 * kMillisecond;
  c.breaker.reopen_on_first_failure = true;
  c.breaker.early_probe = true;
  c.breaker.early_probe_poll = 500 * kMillisecond;
  return c;
}

std::vector<Config> sampleConfigs() {
  Config disabled;
  disabled.breaker.enabled = false;
  disabled.breaker.failure_rate_pct = 12.5;
  disabled.breaker.window_size = 100;
  disabled.breaker.min_calls = 1;
  Config everything_counted;
  everything_counted.breaker.failures =
      OutcomeSet{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                 CallOutcome::client_error};
  everything_counted.breaker.open_interval = 1500;  // 1.5ms
  Config nothing_counted;
  nothing_counted.breaker.failures = OutcomeSet{};
  nothing_counted.breaker.window_type = WindowType::time;
  nothing_counted.breaker.failure_rate_pct = 12.5;
  nothing_counted.timeout.attempt = 90 * kSecond;
  // A pool that can run out (pool_exhausted not counted) and every other resource in effect.
  Config resources;
  resources.breaker.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::refused};
  resources.retry.max_attempts = 2;
  resources.retry.mode = RetryMode::background;
  resources.pool = {10, 200 * kMillisecond};
  resources.workers = {50, 5};
  resources.load_balancer.pods = 4;
  resources.load_balancer.health_check.enabled = true;
  resources.pricing.mode = PricingMode::cache_first;
  return {Config{},          deployed8Sep(),          earlyProbe(),
          gobreakerPreset(), timeWindowWithBackoff(), consecutiveWindow(),
          disabled,          everything_counted,      nothing_counted,
          resources};
}

// The "Not expressible in TARGET: ..." lines of the leading comment block, without the prefix.
std::vector<std::string> headerItems(const std::string& text, std::string_view comment,
                                     std::string_view target) {
  const std::string prefix =
      std::string(comment) + " Not expressible in " + std::string(target) + ": ";
  std::vector<std::string> items;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && line.rfind(comment, 0) == 0) {
    if (line.rfind(prefix, 0) == 0) items.push_back(line.substr(prefix.size()));
  }
  return items;
}

std::size_t countStartingWith(const std::vector<std::string>& items, std::string_view start) {
  return static_cast<std::size_t>(std::count_if(
      items.begin(), items.end(), [&](const std::string& s) { return s.rfind(start, 0) == 0; }));
}

// `text` with every run of spaces and tabs turned into one space, for checks that must not
// depend on gofmt's column alignment.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const bool blank = ch == ' ' || ch == '\t';
    if (blank && !out.empty() && out.back() == ' ') continue;
    out += blank ? ' ' : ch;
  }
  return out;
}

YAML::Node r4jInstance(const YAML::Node& root, const std::string& name = "pricing") {
  return root["resilience4j"]["circuitbreaker"]["instances"][name];
}

// The InstanceProperties fields of resilience4j 2.x that Spring Boot binds.
const std::set<std::string> kR4jInstanceKeys = {
    "slidingWindowType",
    "slidingWindowSize",
    "minimumNumberOfCalls",
    "failureRateThreshold",
    "slowCallRateThreshold",
    "slowCallDurationThreshold",
    "waitDurationInOpenState",
    "enableExponentialBackoff",
    "exponentialBackoffMultiplier",
    "exponentialMaxWaitDurationInOpenState",
    "permittedNumberOfCallsInHalfOpenState",
    "automaticTransitionFromOpenToHalfOpenEnabled",
};

TEST(ConfigExport, NamesAndSuffixes) {
  EXPECT_EQ(fileSuffix(ExportTarget::breakerlab_yaml), ".yaml");
  EXPECT_EQ(fileSuffix(ExportTarget::resilience4j), ".yml");
  EXPECT_EQ(fileSuffix(ExportTarget::gobreaker), ".go");
  EXPECT_EQ(displayName(ExportTarget::breakerlab_yaml), "BreakerLab YAML");
  EXPECT_EQ(displayName(ExportTarget::resilience4j), "resilience4j (Spring Boot application.yml)");
  EXPECT_EQ(displayName(ExportTarget::gobreaker), "gobreaker (Go Settings)");
}

TEST(ConfigExport, BreakerLabYamlRoundTrips) {
  for (const Config& c : sampleConfigs()) {
    const ExportedConfig e = exportConfig(c, ExportTarget::breakerlab_yaml);
    EXPECT_TRUE(e.not_expressible.empty());
    EXPECT_EQ(e.text.rfind("# Exported by BreakerLab", 0), 0u) << e.text;
    const std::string yaml = configToYaml(c);
    ASSERT_GE(e.text.size(), yaml.size());
    EXPECT_EQ(e.text.substr(e.text.size() - yaml.size()), yaml);
    EXPECT_EQ(parseConfig(e.text, "exported.yaml"), c) << e.text;
  }
}

TEST(ConfigExport, HeaderListsExactlyWhatIsNotExpressible) {
  const std::vector<std::pair<ExportTarget, std::pair<std::string_view, std::string_view>>>
      targets = {{ExportTarget::breakerlab_yaml, {"#", "BreakerLab YAML"}},
                 {ExportTarget::resilience4j, {"#", "resilience4j"}},
                 {ExportTarget::gobreaker, {"//", "gobreaker"}}};
  for (const Config& c : sampleConfigs()) {
    for (const auto& [target, syntax] : targets) {
      const ExportedConfig e = exportConfig(c, target);
      EXPECT_EQ(headerItems(e.text, syntax.first, syntax.second), e.not_expressible) << e.text;
      EXPECT_EQ(e.text.rfind(std::string(syntax.first) + " Exported by BreakerLab as " +
                                 std::string(displayName(target)) + ".\n",
                             0),
                0u)
          << e.text;
      for (const auto& item : e.not_expressible) {
        EXPECT_FALSE(item.empty());
        EXPECT_EQ(item.find('\n'), std::string::npos) << item;
      }
    }
  }
}

TEST(ConfigExport, Resilience4jDeployed8Sep) {
  const ExportedConfig e = exportConfig(deployed8Sep(), ExportTarget::resilience4j);
  const YAML::Node root = YAML::Load(e.text);
  const YAML::Node cb = r4jInstance(root);
  ASSERT_TRUE(cb.IsMap()) << e.text;
  EXPECT_EQ(cb["slidingWindowType"].as<std::string>(), "COUNT_BASED");
  EXPECT_EQ(cb["slidingWindowSize"].as<int>(), 20);
  EXPECT_EQ(cb["minimumNumberOfCalls"].as<int>(), 20);
  EXPECT_EQ(cb["failureRateThreshold"].as<double>(), 50.0);
  EXPECT_EQ(cb["slowCallRateThreshold"].as<double>(), 100.0);
  EXPECT_FALSE(cb["slowCallDurationThreshold"]);
  EXPECT_EQ(cb["waitDurationInOpenState"].as<std::string>(), "20s");
  EXPECT_FALSE(cb["enableExponentialBackoff"]);
  EXPECT_EQ(cb["permittedNumberOfCallsInHalfOpenState"].as<int>(), 3);
  EXPECT_TRUE(cb["automaticTransitionFromOpenToHalfOpenEnabled"].as<bool>());
  EXPECT_EQ(root["resilience4j"]["timelimiter"]["instances"]["pricing"]["timeoutDuration"]
                .as<std::string>(),
            "800ms");
  for (const auto& entry : cb)
    EXPECT_TRUE(kR4jInstanceKeys.contains(entry.first.as<std::string>()))
        << entry.first.as<std::string>();
  // The recordExceptions hint is a comment, not a key.
  EXPECT_NE(e.text.find("# recordExceptions:"), std::string::npos);
  EXPECT_NE(e.text.find("java.util.concurrent.TimeoutException"), std::string::npos);

  const auto& n = e.not_expressible;
  EXPECT_EQ(countStartingWith(n, "early probe"), 0u);
  EXPECT_EQ(countStartingWith(n, "half-open probe spacing 1s"), 1u);
  // all_succeed with 3 probes at 50%: resilience4j closes with 1 of 3 failed.
  EXPECT_EQ(countStartingWith(n,
                              "half-open close rule all_succeed (closes only with no failed "
                              "probe): resilience4j applies failureRateThreshold 50% to the 3 "
                              "half-open calls and closes with up to 1 of 3 probes failed; "
                              "equivalent only with failureRateThreshold at most 33.3%"),
            1u);
  EXPECT_EQ(countStartingWith(n,
                              "failure classes (counted: timeout, refused, server_error; not "
                              "counted: client_error)"),
            1u);
  EXPECT_EQ(countStartingWith(n, "fallback cache (ttl 60s)"), 1u);
  EXPECT_EQ(n.size(), 4u) << ::testing::PrintToString(n);
}

TEST(ConfigExport, Resilience4jTimeWindowWithBackoff) {
  const ExportedConfig e = exportConfig(timeWindowWithBackoff(), ExportTarget::resilience4j);
  const YAML::Node root = YAML::Load(e.text);
  const YAML::Node cb = r4jInstance(root);
  ASSERT_TRUE(cb.IsMap()) << e.text;
  EXPECT_EQ(cb["slidingWindowType"].as<std::string>(), "TIME_BASED");
  EXPECT_EQ(cb["slidingWindowSize"].as<int>(), 10);
  EXPECT_EQ(cb["minimumNumberOfCalls"].as<int>(), 20);
  EXPECT_EQ(cb["failureRateThreshold"].as<double>(), 25.0);
  EXPECT_EQ(cb["slowCallRateThreshold"].as<double>(), 80.0);
  EXPECT_EQ(cb["slowCallDurationThreshold"].as<std::string>(), "2s");
  EXPECT_EQ(cb["waitDurationInOpenState"].as<std::string>(), "5s");
  EXPECT_TRUE(cb["enableExponentialBackoff"].as<bool>());
  EXPECT_EQ(cb["exponentialBackoffMultiplier"].as<double>(), 2.0);
  EXPECT_EQ(cb["exponentialMaxWaitDurationInOpenState"].as<std::string>(), "60s");
  EXPECT_EQ(cb["permittedNumberOfCallsInHalfOpenState"].as<int>(), 4);
  EXPECT_TRUE(cb["automaticTransitionFromOpenToHalfOpenEnabled"].as<bool>());
  EXPECT_EQ(root["resilience4j"]["timelimiter"]["instances"]["pricing"]["timeoutDuration"]
                .as<std::string>(),
            "1500ms");
  for (const auto& entry : cb)
    EXPECT_TRUE(kR4jInstanceKeys.contains(entry.first.as<std::string>()))
        << entry.first.as<std::string>();
  // Rate close rule, no spacing, every class counted, no cache: resilience4j expresses it all.
  EXPECT_TRUE(e.not_expressible.empty()) << ::testing::PrintToString(e.not_expressible);
  EXPECT_NE(e.text.find("# Everything in this config is expressible in resilience4j."),
            std::string::npos);
}

TEST(ConfigExport, Resilience4jConsecutiveWindowIsCountBasedAt100) {
  const ExportedConfig e = exportConfig(consecutiveWindow(), ExportTarget::resilience4j);
  const YAML::Node cb = r4jInstance(YAML::Load(e.text));
  ASSERT_TRUE(cb.IsMap()) << e.text;
  EXPECT_EQ(cb["slidingWindowType"].as<std::string>(), "COUNT_BASED");
  EXPECT_EQ(cb["slidingWindowSize"].as<int>(), 5);
  EXPECT_EQ(cb["minimumNumberOfCalls"].as<int>(), 5);
  EXPECT_EQ(cb["failureRateThreshold"].as<double>(), 100.0);
  EXPECT_EQ(cb["permittedNumberOfCallsInHalfOpenState"].as<int>(), 2);
  const auto& n = e.not_expressible;
  EXPECT_EQ(countStartingWith(n, "early probe on health green (poll 500ms)"), 1u);
  EXPECT_EQ(countStartingWith(n, "half-open probe spacing 250ms"), 1u);
  EXPECT_EQ(countStartingWith(n, "reopen_on_first_failure"), 1u);
  // Reopening at the first failure tolerates none; the 100% threshold tolerates 1 of 2.
  EXPECT_EQ(countStartingWith(n,
                              "half-open close rule rate at 40% with reopen_on_first_failure "
                              "(closes only with no failed probe): resilience4j applies "
                              "failureRateThreshold 100% to the 2 half-open calls and closes "
                              "with up to 1 of 2 probes failed"),
            1u);
  EXPECT_EQ(countStartingWith(n, "failure classes"), 1u);
}

TEST(ConfigExport, Resilience4jHalfOpenRuleListedOnlyWhenItDiffers) {
  auto halfOpenItems = [](const Config& c) {
    const auto n = exportConfig(c, ExportTarget::resilience4j).not_expressible;
    return countStartingWith(n, "half-open close rule") +
           countStartingWith(n, "half-open decision");
  };
  Config c;
  c.breaker.failure_rate_pct = 30;  // one failure of 3 probes (33%) reaches it: = all_succeed
  EXPECT_EQ(halfOpenItems(c), 0u);
  c.breaker.failure_rate_pct = 50;
  c.breaker.close_when = CloseRule::rate;  // the same threshold over the same 3 calls
  EXPECT_EQ(halfOpenItems(c), 0u);
  c.breaker.min_calls = 2;  // resilience4j judges after 2 of the 3 probes
  EXPECT_EQ(halfOpenItems(c), 1u);
  c.breaker.min_calls = 20;
  c.breaker.probes = 1;  // one probe: every rule is "it must succeed"
  c.breaker.close_when = CloseRule::all_succeed;
  EXPECT_EQ(halfOpenItems(c), 0u);
}

TEST(ConfigExport, EarlyProbeListedExactlyWhenEnabled) {
  for (Config c : {deployed8Sep(), earlyProbe(), consecutiveWindow(), timeWindowWithBackoff()}) {
    for (bool enabled : {false, true}) {
      c.breaker.early_probe = enabled;
      for (ExportTarget target : {ExportTarget::resilience4j, ExportTarget::gobreaker}) {
        const ExportedConfig e = exportConfig(c, target);
        EXPECT_EQ(countStartingWith(e.not_expressible, "early probe on health green"),
                  enabled ? 1u : 0u)
            << e.text;
      }
    }
  }
  const auto n = exportConfig(earlyProbe(), ExportTarget::gobreaker).not_expressible;
  EXPECT_EQ(countStartingWith(n,
                              "early probe on health green (poll 2s): gobreaker has no "
                              "state-transition API; rebuild the breaker or wrap it"),
            1u);
}

TEST(ConfigExport, NeutralKnobsAreNotListed) {
  Config c;
  c.breaker.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::refused,
                                  CallOutcome::server_error, CallOutcome::client_error};
  c.cache.enabled = false;
  c.breaker.probe_spacing = 0;
  c.breaker.backoff_multiplier = 3;  // its cap is not above the interval: no backoff
  c.breaker.backoff_max = c.breaker.open_interval;
  c.breaker.slow_call_duration = 0;  // off, whatever its rate
  c.breaker.slow_call_rate_pct = 50;
  c.breaker.early_probe = false;
  c.breaker.early_probe_poll = 5 * kSecond;

  Config r4j = c;  // all_succeed over 3 probes = a threshold of at most 33.3%
  r4j.breaker.failure_rate_pct = 30;
  const ExportedConfig e = exportConfig(r4j, ExportTarget::resilience4j);
  EXPECT_TRUE(e.not_expressible.empty()) << ::testing::PrintToString(e.not_expressible);
  EXPECT_EQ(YAML::Load(e.text)["resilience4j"]["circuitbreaker"]["instances"]["pricing"]
                              ["enableExponentialBackoff"]
                                  .IsDefined(),
            false);

  Config go = c;  // gobreaker: consecutive trips, all_succeed with reopen_on_first_failure
  go.breaker.window_type = WindowType::consecutive;
  go.breaker.reopen_on_first_failure = true;
  const ExportedConfig g = exportConfig(go, ExportTarget::gobreaker);
  ASSERT_EQ(g.not_expressible.size(), 1u) << ::testing::PrintToString(g.not_expressible);
  EXPECT_EQ(g.not_expressible[0].rfind("per-call timeout", 0), 0u);  // always application code
}

TEST(ConfigExport, GobreakerDeployed8Sep) {
  const ExportedConfig e = exportConfig(deployed8Sep(), ExportTarget::gobreaker);
  const std::string go = squeezed(e.text);
  EXPECT_NE(go.find("gobreaker.Settings{"), std::string::npos) << e.text;
  EXPECT_NE(go.find("\"github.com/sony/gobreaker/v2\""), std::string::npos);
  EXPECT_NE(go.find(" Name: \"pricing\",\n"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" MaxRequests: 3,"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" Interval: 0,"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" Timeout: 20 * time.Second,"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" ReadyToTrip: func(counts gobreaker.Counts) bool {\n"), std::string::npos);
  EXPECT_NE(go.find(" total := uint64(counts.TotalSuccesses) + uint64(counts.TotalFailures)\n"
                    " return total >= 20 && uint64(counts.TotalFailures)*100 >= 50*total\n"),
            std::string::npos)
      << e.text;
  EXPECT_NE(go.find("return err == nil || isBusinessError(err)"), std::string::npos) << e.text;
  EXPECT_NE(go.find("func isBusinessError(err error) bool {"), std::string::npos) << e.text;

  const auto& n = e.not_expressible;
  EXPECT_EQ(countStartingWith(n, "sliding count window (last 20 calls)"), 1u);
  EXPECT_EQ(countStartingWith(n, "trip check after a success"), 1u);
  EXPECT_EQ(countStartingWith(n, "half-open probe spacing 1s"), 1u);
  EXPECT_EQ(countStartingWith(n, "reopen_on_first_failure: false"), 1u);
  EXPECT_EQ(countStartingWith(n, "fallback cache (ttl 60s)"), 1u);
  EXPECT_EQ(countStartingWith(n, "per-call timeout 800ms (timeout.attempt)"), 1u);
  EXPECT_EQ(countStartingWith(n, "early probe"), 0u);
  EXPECT_EQ(n.size(), 6u) << ::testing::PrintToString(n);
}

TEST(ConfigExport, GobreakerListsEarlyProbeAndSlidingWindow) {
  const ExportedConfig e = exportConfig(earlyProbe(), ExportTarget::gobreaker);
  EXPECT_EQ(countStartingWith(e.not_expressible, "early probe on health green (poll 2s)"), 1u);
  EXPECT_EQ(countStartingWith(e.not_expressible, "sliding count window"), 1u);
  EXPECT_NE(e.text.find("// Not expressible in gobreaker: early probe on health green"),
            std::string::npos);
}

TEST(ConfigExport, GobreakerPresetLosesOnlyTimeoutAndFallback) {
  const ExportedConfig e = exportConfig(gobreakerPreset(), ExportTarget::gobreaker);
  const std::string go = squeezed(e.text);
  EXPECT_NE(go.find(" MaxRequests: 1,"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" Timeout: 60 * time.Second,"), std::string::npos) << e.text;
  EXPECT_NE(go.find("return counts.ConsecutiveFailures >= 6\n"), std::string::npos) << e.text;
  // The application's own code: a context deadline per call, and the cache.
  ASSERT_EQ(e.not_expressible.size(), 2u) << ::testing::PrintToString(e.not_expressible);
  EXPECT_EQ(e.not_expressible[0].rfind("per-call timeout 800ms", 0), 0u);
  EXPECT_EQ(e.not_expressible[1].rfind("fallback cache", 0), 0u);
}

TEST(ConfigExport, GobreakerTimeWindowAndItsLimits) {
  Config c = timeWindowWithBackoff();
  c.breaker.failure_rate_pct = 12.5;
  const ExportedConfig e = exportConfig(c, ExportTarget::gobreaker);
  const std::string go = squeezed(e.text);
  EXPECT_NE(go.find(" Interval: 10 * time.Second,"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" BucketPeriod: 1 * time.Second,"), std::string::npos) << e.text;
  EXPECT_NE(go.find(" Timeout: 5 * time.Second,"), std::string::npos) << e.text;
  EXPECT_NE(go.find("return total >= 20 && float64(counts.TotalFailures)*100 >= "
                    "12.5*float64(total)\n"),
            std::string::npos)
      << e.text;
  // Every class counted: gobreaker's default IsSuccessful (err == nil) is right.
  EXPECT_EQ(go.find("IsSuccessful: func"), std::string::npos) << e.text;
  const auto& n = e.not_expressible;
  EXPECT_EQ(countStartingWith(n, "slow-call rule (calls over 2s at 80%)"), 1u);
  EXPECT_EQ(countStartingWith(n, "open-interval backoff (x2 from 5s up to 60s)"), 1u);
  EXPECT_EQ(countStartingWith(n, "half-open close rule rate at 12.5% (closes only with no"), 0u);
  EXPECT_EQ(countStartingWith(n, "trip check after a success"), 1u);
  EXPECT_EQ(countStartingWith(n, "sliding count window"), 0u);
  c.breaker.failure_rate_pct = 50;  // 4 probes at 50%: closes with 1 failed
  EXPECT_EQ(countStartingWith(exportConfig(c, ExportTarget::gobreaker).not_expressible,
                              "half-open close rule rate at 50% (closes with up to 1 of 4 probes "
                              "failed): gobreaker closes only after MaxRequests consecutive "
                              "successes"),
            1u);
}

TEST(ConfigExport, GobreakerIsGofmtStyle) {
  for (const Config& c : sampleConfigs()) {
    const std::string text = exportConfig(c, ExportTarget::gobreaker).text;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      EXPECT_NE(line.rfind(" ", 0), 0u) << "indented with spaces: " << line;
      EXPECT_TRUE(line.empty() || (line.back() != ' ' && line.back() != '\t'))
          << "trailing blank: " << line;
    }
    EXPECT_EQ(std::count(text.begin(), text.end(), '{'), std::count(text.begin(), text.end(), '}'));
    EXPECT_NE(text.find("\npackage breakers\n"), std::string::npos);
  }
}

TEST(ConfigExport, InstanceNames) {
  EXPECT_THROW(exportConfig(Config{}, ExportTarget::gobreaker, ""), std::invalid_argument);
  EXPECT_THROW(exportConfig(Config{}, ExportTarget::resilience4j, "a\nb"), std::invalid_argument);
  // Spring Boot keeps a map key with '.' or '_' only in brackets.
  const ExportedConfig r4j = exportConfig(Config{}, ExportTarget::resilience4j, "pricing.v2");
  const YAML::Node root = YAML::Load(r4j.text);
  EXPECT_TRUE(r4jInstance(root, "[pricing.v2]").IsMap()) << r4j.text;
  const ExportedConfig go = exportConfig(Config{}, ExportTarget::gobreaker, "say \"hi\"");
  EXPECT_NE(go.text.find("\"say \\\"hi\\\"\","), std::string::npos) << go.text;
  EXPECT_NE(go.text.find("func SayHiSettings() gobreaker.Settings {"), std::string::npos);
}

}  // namespace
}  // namespace breakerlab

namespace breakerlab {
namespace {

TEST(ConfigExportRetries, RetriesAndTheDeadlineAreListedAsNotExported) {
  Config c;
  EXPECT_TRUE(std::none_of(kExportTargets.begin(), kExportTargets.end(), [&](ExportTarget t) {
    const auto notes = exportConfig(c, t).not_expressible;
    return std::any_of(notes.begin(), notes.end(),
                       [](const std::string& n) { return n.find("retries") != std::string::npos; });
  })) << "no retries configured, nothing said";
  c.retry.max_attempts = 3;
  c.timeout.total = 2 * kSecond;
  for (ExportTarget t : {ExportTarget::resilience4j, ExportTarget::gobreaker}) {
    const ExportedConfig e = exportConfig(c, t);
    auto mentions = [&](const std::string& text) {
      return std::any_of(e.not_expressible.begin(), e.not_expressible.end(),
                         [&](const std::string& n) { return n.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(mentions("retries (3 attempts, exponential backoff from 200ms, full jitter)"))
        << e.text;
    EXPECT_TRUE(mentions("request deadline 2s"));
    EXPECT_NE(e.text.find("retries (3 attempts"), std::string::npos) << "listed in the file too";
  }
  EXPECT_TRUE(exportConfig(c, ExportTarget::breakerlab_yaml).not_expressible.empty());
}

}  // namespace
}  // namespace breakerlab

namespace breakerlab {
namespace {

// Whether some item of `items` contains `text`.
bool mentions(const std::vector<std::string>& items, std::string_view text) {
  return std::any_of(items.begin(), items.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

Config withEveryResource() {
  Config c;
  c.retry.max_attempts = 3;
  c.retry.mode = RetryMode::background;
  c.pool = {20, 500 * kMillisecond};
  c.workers = {200, 10};
  c.load_balancer.pods = 8;
  c.load_balancer.health_check.enabled = true;
  c.pricing.mode = PricingMode::cache_first;
  return c;
}

TEST(ConfigExportResources, ListedWhenInEffectAndOnlyThen) {
  const Config c = withEveryResource();
  ASSERT_EQ(validate(c), "");
  for (ExportTarget t : {ExportTarget::resilience4j, ExportTarget::gobreaker}) {
    const ExportedConfig e = exportConfig(c, t);
    const auto& n = e.not_expressible;
    EXPECT_EQ(countStartingWith(n, "connection pool (pool.size 20 per pod, max wait 500ms)"), 1u)
        << e.text;
    EXPECT_EQ(countStartingWith(n, "request workers (workers.per_pod 200, queue 10)"), 1u)
        << e.text;
    EXPECT_EQ(countStartingWith(n,
                                "load balancer (8 pods, health checks every 5s answered by the "
                                "request workers, out after 2 failed, back after 2 passed)"),
              1u)
        << e.text;
    EXPECT_EQ(countStartingWith(n,
                                "cache-first pricing (pricing.mode cache_first, refresh after "
                                "10s)"),
              1u)
        << e.text;
    EXPECT_EQ(countStartingWith(n, "background retries (retry.mode background)"), 1u) << e.text;
    EXPECT_NE(e.text.find("Not expressible in"), std::string::npos);
  }
  EXPECT_TRUE(exportConfig(c, ExportTarget::breakerlab_yaml).not_expressible.empty());
  EXPECT_TRUE(mentions(exportConfig(c, ExportTarget::resilience4j).not_expressible,
                       "PoolingHttpClientConnectionManager maxPerRoute 20"));
  EXPECT_TRUE(mentions(exportConfig(c, ExportTarget::gobreaker).not_expressible,
                       "http.Transport MaxConnsPerHost 20"));

  // At their defaults (or neutral: a queue without a worker limit, a health-check pool without
  // health checks, background mode without retries) nothing is said.
  Config neutral;
  neutral.workers.queue = 50;
  neutral.pool.max_wait = 2 * kSecond;
  neutral.load_balancer.health_check.pool = HealthCheckPool::separate;
  neutral.retry.mode = RetryMode::background;
  neutral.pricing.refresh_after = kSecond;
  for (ExportTarget t : {ExportTarget::resilience4j, ExportTarget::gobreaker}) {
    const auto n = exportConfig(neutral, t).not_expressible;
    const auto plain = exportConfig(Config{}, t).not_expressible;
    EXPECT_EQ(n, plain) << ::testing::PrintToString(n);
  }
  // One pod with health checks can still be ejected: listed.
  Config one_pod;
  one_pod.load_balancer.health_check = {true, HealthCheckPool::separate, 2 * kSecond, 3, 1};
  EXPECT_EQ(countStartingWith(exportConfig(one_pod, ExportTarget::gobreaker).not_expressible,
                              "load balancer (1 pod, health checks every 2s answered by a "
                              "separate pool, out after 3 failed, back after 1 passed)"),
            1u);
  Config pods_only;
  pods_only.load_balancer.pods = 3;
  EXPECT_EQ(countStartingWith(exportConfig(pods_only, ExportTarget::resilience4j).not_expressible,
                              "load balancer (3 pods, no health checks)"),
            1u);
}

TEST(ConfigExportResources, PoolExhaustedIsAFailureClassOnlyWhenThePoolCanRunOut) {
  // Unlimited pool: whether pool_exhausted is counted changes nothing and is not mentioned.
  Config unlimited;
  unlimited.breaker.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::refused,
                                          CallOutcome::server_error, CallOutcome::client_error};
  const ExportedConfig r4j = exportConfig(unlimited, ExportTarget::resilience4j);
  EXPECT_EQ(countStartingWith(r4j.not_expressible, "failure classes"), 0u) << r4j.text;
  EXPECT_EQ(r4j.text.find("pool_exhausted"), std::string::npos) << r4j.text;

  // A bounded pool with a bounded wait: pool_exhausted is a class like the others.
  Config bounded = unlimited;
  bounded.pool = {10, 200 * kMillisecond};
  const ExportedConfig e = exportConfig(bounded, ExportTarget::resilience4j);
  EXPECT_EQ(countStartingWith(e.not_expressible,
                              "failure classes (counted: timeout, refused, server_error, "
                              "client_error; not counted: pool_exhausted)"),
            1u)
      << e.text;
  bounded.breaker.failures = OutcomeSet{CallOutcome::timeout, CallOutcome::pool_exhausted};
  const ExportedConfig counted = exportConfig(bounded, ExportTarget::resilience4j);
  EXPECT_NE(counted.text.find("#   - org.apache.http.conn.ConnectionPoolTimeoutException"),
            std::string::npos)
      << counted.text;
  EXPECT_EQ(countStartingWith(counted.not_expressible,
                              "failure classes (counted: timeout, pool_exhausted; not counted: "
                              "refused, server_error, client_error)"),
            1u);

  // gobreaker: a class not counted is a success in IsSuccessful, with a placeholder check.
  Config go = unlimited;
  go.pool = {10, 200 * kMillisecond};
  const std::string text = exportConfig(go, ExportTarget::gobreaker).text;
  EXPECT_NE(text.find("return err == nil || isPoolExhausted(err)"), std::string::npos) << text;
  EXPECT_NE(text.find("func isPoolExhausted(err error) bool {"), std::string::npos) << text;
  go.breaker.failures.insert(CallOutcome::pool_exhausted);
  const std::string all = exportConfig(go, ExportTarget::gobreaker).text;
  EXPECT_EQ(all.find("isPoolExhausted"), std::string::npos) << all;
  EXPECT_EQ(all.find("IsSuccessful: func"), std::string::npos) << all;
  EXPECT_EQ(exportConfig(unlimited, ExportTarget::gobreaker).text.find("isPoolExhausted"),
            std::string::npos);
}

TEST(ConfigExportResources, HeaderAndRoundTripHoldWithEveryResource) {
  const Config c = withEveryResource();
  for (ExportTarget t : {ExportTarget::breakerlab_yaml, ExportTarget::resilience4j,
                         ExportTarget::gobreaker, ExportTarget::envoy}) {
    const ExportedConfig e = exportConfig(c, t);
    const std::string_view comment = t == ExportTarget::gobreaker ? "//" : "#";
    const std::string_view name = t == ExportTarget::breakerlab_yaml ? "BreakerLab YAML"
                                  : t == ExportTarget::resilience4j  ? "resilience4j"
                                  : t == ExportTarget::envoy         ? "Envoy"
                                                                     : "gobreaker";
    EXPECT_EQ(headerItems(e.text, comment, name), e.not_expressible) << e.text;
  }
  // JSON has no comments: the list is in the file's breakerlab extension.
  for (ExportTarget t : {ExportTarget::polly, ExportTarget::opossum, ExportTarget::cockatiel}) {
    const ExportedConfig e = exportConfig(c, t);
    nlohmann::json j = nlohmann::json::parse(e.text);
    if (t == ExportTarget::polly) j = j["pricing"]["CircuitBreaker"];
    EXPECT_EQ(j["breakerlab"]["not_expressible"].get<std::vector<std::string>>(), e.not_expressible)
        << e.text;
  }
  EXPECT_EQ(parseConfig(exportConfig(c, ExportTarget::breakerlab_yaml).text, "e.yaml"), c);
}

// The overload controls go where their owners keep them: Envoy's retry budget into an Envoy
// cluster's circuit_breakers; every other export names each control it cannot carry.
TEST(ConfigExport, OverloadControlsGoWhereTheirOwnersKeepThem) {
  Config c;
  c.retry.max_attempts = 3;
  c.retry.throttling = {10, 0.1};
  c.retry.concurrency_budget = {25, 5};
  c.client_throttling.k = 2;
  const auto lists = [](const ExportedConfig& e, std::string_view what) {
    return std::any_of(e.not_expressible.begin(), e.not_expressible.end(),
                       [&](const std::string& item) { return item.find(what) != item.npos; });
  };
  const ExportedConfig envoy = exportConfig(c, ExportTarget::envoy);
  const YAML::Node cluster = YAML::Load(envoy.text);
  const YAML::Node budget = cluster["circuit_breakers"]["thresholds"][0]["retry_budget"];
  ASSERT_TRUE(budget.IsMap()) << envoy.text;
  EXPECT_EQ(budget["budget_percent"]["value"].as<double>(), 25);
  EXPECT_EQ(budget["min_retry_concurrency"].as<int>(), 5);
  EXPECT_FALSE(lists(envoy, "Envoy retry budget")) << envoy.text;
  EXPECT_TRUE(lists(envoy,
                    "gRPC retry throttling (retry.throttling: max_tokens 10, token_ratio "
                    "0.1)"))
      << envoy.text;
  EXPECT_TRUE(lists(envoy,
                    "client-side adaptive throttling (client_throttling: k 2, window "
                    "120s)"))
      << envoy.text;
  for (ExportTarget t : {ExportTarget::opossum, ExportTarget::cockatiel, ExportTarget::gobreaker,
                         ExportTarget::polly, ExportTarget::resilience4j}) {
    const ExportedConfig e = exportConfig(c, t);
    EXPECT_TRUE(lists(e, "Envoy retry budget (retry.concurrency_budget: 25%, at least 5)"))
        << e.text;
    EXPECT_TRUE(lists(e, "gRPC retry throttling")) << e.text;
    EXPECT_TRUE(lists(e, "client-side adaptive throttling")) << e.text;
  }
  EXPECT_EQ(parseConfig(exportConfig(c, ExportTarget::breakerlab_yaml).text, "e.yaml"), c);
  // Without retries there is no retry budget to write.
  c.retry.max_attempts = 1;
  EXPECT_FALSE(YAML::Load(exportConfig(c, ExportTarget::envoy).text)["circuit_breakers"]);
}

}  // namespace
}  // namespace breakerlab
