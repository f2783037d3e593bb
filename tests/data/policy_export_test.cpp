// exportPolicy: a config file written in its own library's form reads back to the same settings,
// and everything of it the written file does not carry is kept (comments) or listed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "breakerlab/data/config_export.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/native_config.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/policy_export.h"
#include "same_native_settings.h"

namespace breakerlab {
namespace {

std::string fixture(const std::string& name) {
  return std::string(BREAKERLAB_DATA_FIXTURES) + "/policy_export/" + name;
}

using test::sameSettings;

bool listed(const std::vector<std::string>& items, const std::string& text) {
  for (const std::string& item : items)
    if (item.find(text) != std::string::npos) return true;
  return false;
}

// One file per native format, each with parts BreakerLab does not read (other sections, a
// second instance, a callback, keys of no effect) and comments that hold values.
const char* const kPolicyFixtures[] = {"resilience4j-extra.yml", "resilience4j-extra.properties",
                                       "gobreaker-extra.go",     "opossum-extra.json",
                                       "cockatiel-extra.json",   "polly-extra.json",
                                       "envoy-extra.yaml"};

TEST(PolicyExport, EachNativeFormatRoundTripsAndListsWhatItDoesNotCarry) {
  for (const char* name : kPolicyFixtures) {
    SCOPED_TRACE(name);
    const std::string text = readTextFile(fixture(name));
    const ConfigFile source = parseConfigFile(text, name);
    const PolicyExport out = exportPolicy(source, text, std::nullopt);
    EXPECT_EQ(out.target, exportTargetOf(source.native.library));

    // The exact text and list, against golden/policy_export/.
    std::string golden_text = out.text + "\n=== not carried\n";
    for (const std::string& item : out.not_carried) golden_text += item + "\n";
    const std::string golden =
        std::string(BREAKERLAB_GOLDEN) + "/policy_export/" + name + ".golden";
    if (std::getenv("BREAKERLAB_UPDATE_GOLDEN") != nullptr) writeOutputFile(golden, golden_text);
    EXPECT_EQ(golden_text, readTextFile(golden)) << golden;

    // import -> export -> import: the same settings, attempt timeout and name.
    const ConfigFile back = parseConfigFile(out.text, "back" + std::string(fileSuffix(out.target)));
    EXPECT_EQ(back.native.library, source.native.library);
    EXPECT_TRUE(sameSettings(back.native.native, source.native.native, source.native.library))
        << out.text;
    EXPECT_EQ(back.native.calls.attempt_timeout, source.native.calls.attempt_timeout);

    // The retry a file states is written back (resilience4j.retry), wrapped the same way.
    EXPECT_EQ(back.native.calls.retry, source.native.calls.retry) << out.text;
    EXPECT_EQ(back.native.calls.placement, source.native.calls.placement) << out.text;

    // What the import did not take is listed, with its position.
    for (const ImportNote& note : source.native.notes)
      EXPECT_TRUE(listed(out.not_carried, formatNote(name, note))) << note.message;
  }
}

// The parts of each fixture that once went missing without a word, each as the fixture states
// it: the name it binds the breaker by, the cluster's own fields, the application's sections.
TEST(PolicyExport, WhatTheSourceNamesIsWrittenBackOrListed) {
  struct Case {
    const char* fixture;
    std::vector<std::string> written;  // in the export, as the source writes it
    std::vector<std::string> listed;   // in what is not carried
  };
  const Case cases[] = {
      // appsettings.json binds the options by their section, "Pricing"; Logging is the app's.
      {"polly-extra.json", {"\"Pricing\": {\n    \"CircuitBreaker\""}, {"Logging: not the"}},
      // The cluster's policy, name and timeout as the source states them.
      {"envoy-extra.yaml",
       {"lb_policy: LEAST_REQUEST\n", "name: pricing\n", "connect_timeout: 0.25s\n"},
       {}},
      // resilience4j.retry.instances.pricing: maxAttempts 3, waitDuration 200ms.
      {"resilience4j-extra.yml",
       {"  retry:\n    instances:\n      pricing:\n        maxAttempts: 3\n        "
        "waitDuration: 200ms\n"},
       {"registerHealthIndicator: no effect"}},
      // opossum's group: no effect on a decision, and not written back.
      {"opossum-extra.json", {"\"name\": \"pricing-api\""}, {"group: no effect"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fixture);
    const std::string text = readTextFile(fixture(c.fixture));
    const PolicyExport out = exportPolicy(parseConfigFile(text, c.fixture), text, std::nullopt);
    for (const std::string& part : c.written)
      EXPECT_NE(out.text.find(part), std::string::npos) << part << "\n" << out.text;
    for (const std::string& part : c.listed) EXPECT_TRUE(listed(out.not_carried, part)) << part;
    EXPECT_FALSE(listed(out.not_carried, "retries (")) << "a retry the file states is written";
  }
}

// Inline sources for what the fixtures do not show: a nested appsettings.json section (.NET's
// "Resilience:Pricing"), and a cluster of several hosts with its own policy and other keys.
TEST(PolicyExport, NestedSectionsAndClusterFieldsRoundTrip) {
  struct Row {
    const char* file;
    const char* text;
    std::vector<std::string> written;
    std::vector<std::string> listed;
  };
  const Row rows[] = {
      {"appsettings.json",
       R"({"Logging": {"LogLevel": {"Default": "Warning"}},
           "Resilience": {"Retry": {"MaxRetryAttempts": 2},
                          "Pricing": {"CircuitBreaker": {"FailureRatio": 0.5,
                                                         "BreakDuration": "00:00:20"}}}})",
       {"\"Resilience\": {\n    \"Pricing\": {\n      \"CircuitBreaker\""},
       {"Logging: not the circuit breaker's section", "Resilience.Retry: not the"}},
      {"cluster.yaml",
       R"(name: inventory
type: EDS
connect_timeout: 1s
lb_policy: RANDOM
dns_lookup_family: V4_ONLY
load_assignment:
  endpoints:
    - lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
outlier_detection: {consecutive_5xx: 3, base_ejection_time: 10s}
)",
       {"name: inventory\n", "type: EDS\n", "connect_timeout: 1s\n", "lb_policy: RANDOM\n"},
       {"lb_policy: RANDOM is replayed round robin", "dns_lookup_family: not read by BreakerLab"}},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.file);
    const ConfigFile source = parseConfigFile(row.text, row.file);
    const PolicyExport out = exportPolicy(source, row.text, std::nullopt);
    for (const std::string& part : row.written)
      EXPECT_NE(out.text.find(part), std::string::npos) << part << "\n" << out.text;
    for (const std::string& part : row.listed) EXPECT_TRUE(listed(out.not_carried, part)) << part;
    const ConfigFile back = parseConfigFile(out.text, "back" + std::string(fileSuffix(out.target)));
    EXPECT_TRUE(sameSettings(back.native.native, source.native.native, source.native.library))
        << out.text;
  }
}

// resilience4j.retry as readResilience4jRetry takes it back (CommonRetryConfigurationProperties):
// maxAttempts with the first call, waitDuration 0 for none, the exponential interval with its
// multiplier and cap; Spring's aspect orders only when the breaker is outside the retry.
TEST(PolicyExport, TheResilience4jRetryIsWrittenBackAsTheReaderTakesIt) {
  struct Row {
    const char* name;
    BackoffKind backoff;
    Micros base, max;
    double multiplier;
    BreakerPlacement placement;
  };
  const Row rows[] = {
      {"no backoff", BackoffKind::none, 0, 0, 1.5, BreakerPlacement::inside_retry},
      {"fixed", BackoffKind::fixed, 250 * kMillisecond, 0, 1.5, BreakerPlacement::inside_retry},
      {"exponential with a cap", BackoffKind::exponential, 100 * kMillisecond, 2 * kSecond, 3,
       BreakerPlacement::inside_retry},
      {"exponential, no cap, breaker outside", BackoffKind::exponential, 100 * kMillisecond, 0, 2,
       BreakerPlacement::outside_retry},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    Config c;
    c.breaker.library = BreakerLibrary::resilience4j;
    c.breaker.placement = row.placement;
    c.retry.max_attempts = 4;
    c.retry.backoff = row.backoff;
    c.retry.base = row.base;
    c.retry.max = row.max;
    c.retry.multiplier = row.multiplier;
    c.retry.jitter = Jitter::none;
    const ExportedConfig out = exportConfig(c, ExportTarget::resilience4j, "pricing");
    const NativeConfig back = parseNativeConfig(out.text, "application.yml");
    ASSERT_TRUE(back.calls.retry) << out.text;
    Config again;
    applyNativeConfig(back, again);
    EXPECT_EQ(again.retry.max_attempts, c.retry.max_attempts);
    EXPECT_EQ(again.retry.backoff, c.retry.backoff);
    if (row.backoff != BackoffKind::none) {
      EXPECT_EQ(again.retry.base, c.retry.base);
    }
    if (row.backoff == BackoffKind::exponential) {
      EXPECT_EQ(again.retry.max, c.retry.max);
      EXPECT_EQ(again.retry.multiplier, c.retry.multiplier);
    }
    EXPECT_EQ(back.calls.placement, row.placement) << out.text;
    for (const std::string& item : out.not_expressible)
      EXPECT_EQ(item.find("retries ("), std::string::npos) << item;
  }
  // Jitter resilience4j cannot write is listed, not dropped.
  Config jittered;
  jittered.breaker.library = BreakerLibrary::resilience4j;
  jittered.retry.max_attempts = 3;
  jittered.retry.jitter = Jitter::full;
  EXPECT_TRUE(listed(exportConfig(jittered, ExportTarget::resilience4j).not_expressible,
                     "retry jitter (full jitter)"));
}

TEST(PolicyExport, TheIssuesResilience4jFileKeepsItsNameTimeLimiterAndComments) {
  const std::string path =
      std::string(BREAKERLAB_RESOURCES) + "/configs/inc-2026-0908-resilience4j.yml";
  const std::string text = readTextFile(path);
  const PolicyExport out = exportPolicy(parseConfigFile(text, path), text, std::nullopt);
  EXPECT_NE(out.text.find("      pricing:\n        slidingWindowType"), std::string::npos);
  EXPECT_NE(out.text.find("  timelimiter:\n    instances:\n      pricing:\n        "
                          "timeoutDuration: 800ms"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("# application.yml holds it: the last 20 calls, 50% failures, open 20 s"),
            std::string::npos);
  EXPECT_TRUE(out.not_carried.empty());
  // Written again from its own export, nothing is added twice.
  const PolicyExport again =
      exportPolicy(parseConfigFile(out.text, "again.yml"), out.text, std::nullopt);
  EXPECT_EQ(again.text, out.text);
}

TEST(PolicyExport, AnotherLibraryListsTheCallTimeoutAndTheTranslation) {
  const std::string path =
      std::string(BREAKERLAB_RESOURCES) + "/configs/inc-2026-0908-resilience4j.yml";
  const std::string text = readTextFile(path);
  const PolicyExport out =
      exportPolicy(parseConfigFile(text, path), text, BreakerLibrary::gobreaker);
  EXPECT_EQ(out.target, ExportTarget::gobreaker);
  EXPECT_TRUE(listed(out.not_carried, "per-call timeout 800ms")) << out.text;
  EXPECT_NE(out.text.find("Timeout:     20 * time.Second"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("Name:        \"pricing\""), std::string::npos) << out.text;
  // JSON has no comments: they are listed instead of being dropped.
  const PolicyExport json =
      exportPolicy(parseConfigFile(text, path), text, BreakerLibrary::opossum);
  EXPECT_TRUE(listed(json.not_carried,
                     "comment not carried (JSON has none): application.yml "
                     "holds it: the last 20 calls"));
}

}  // namespace
}  // namespace breakerlab
