// The libraries' own config files: reading them as users hold them (with positions for every
// problem and a note for what is not modelled), writing them back losslessly, and translating
// the generic machine into each with what it cannot express.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "breakerlab/data/config_export.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/native_config.h"
#include "breakerlab/data/output_file.h"
#include "same_native_settings.h"
#include "support/short_units.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

std::string resource(const std::string& path) {
  return std::string(BREAKERLAB_RESOURCES) + "/" + path;
}

// One config per library with settings away from the defaults in every knob it has.
Config tuned(BreakerLibrary library) {
  Config c;
  c.breaker.library = library;
  NativeBreakers& n = c.native;
  n.resilience4j.sliding_window_type = SlidingWindowType::time_based;
  n.resilience4j.sliding_window_size = 30;
  n.resilience4j.minimum_number_of_calls = 25;
  n.resilience4j.failure_rate_threshold = 33.3;
  n.resilience4j.slow_call_rate_threshold = 80;
  n.resilience4j.slow_call_duration_threshold = 1500 * ms;
  n.resilience4j.wait_duration_in_open_state = 5 * s;
  n.resilience4j.enable_exponential_backoff = true;
  n.resilience4j.exponential_backoff_multiplier = 2;
  n.resilience4j.exponential_max_wait_duration_in_open_state = 20 * s;
  n.resilience4j.permitted_number_of_calls_in_half_open_state = 4;
  n.resilience4j.max_wait_duration_in_half_open_state = 10 * s;
  n.resilience4j.transition_to_state_after_wait_duration = BreakerState::closed;
  n.resilience4j.automatic_transition_from_open_to_half_open_enabled = true;
  n.resilience4j.classification.failures = {CallOutcome::timeout, CallOutcome::refused};
  n.resilience4j.classification.ignored = {CallOutcome::server_error};

  n.gobreaker.name = "pricing";
  n.gobreaker.max_requests = 3;
  n.gobreaker.interval = 10 * s;
  n.gobreaker.bucket_period = 1 * s;
  n.gobreaker.timeout = 20 * s;
  n.gobreaker.ready_to_trip = GobreakerTripRule::failureRatio(20, 0.5);
  n.gobreaker.classification.failures = {CallOutcome::timeout, CallOutcome::server_error};
  n.gobreaker.classification.ignored = {CallOutcome::refused};

  n.polly.failure_ratio = 0.25;
  n.polly.minimum_throughput = 30;
  n.polly.sampling_duration = 15 * s;
  n.polly.break_duration = 2500 * ms;
  n.polly.generator = true;
  n.polly.generator_multiplier = 2;
  n.polly.generator_max = 40 * s;
  n.polly.classification.failures = {CallOutcome::timeout, CallOutcome::server_error};

  n.opossum.name = "pricing";
  // The names an export writes for a config read from nowhere: the instance name.
  n.polly.name = "pricing";
  n.envoy.name = "pricing";
  n.opossum.timeout = 2500 * ms;
  n.opossum.error_threshold_percentage = 40;
  n.opossum.reset_timeout = 7 * s;
  n.opossum.rolling_count_timeout = 20 * s;
  n.opossum.rolling_count_buckets = 20;
  n.opossum.volume_threshold = 15;
  n.opossum.allow_warm_up = true;
  n.opossum.capacity = 50;
  n.opossum.classification.failures = {CallOutcome::timeout};

  n.cockatiel.half_open_after.kind = CockatielBackoff::Kind::exponential;
  n.cockatiel.half_open_after.initial_delay = 500 * ms;
  n.cockatiel.half_open_after.max_delay = 16 * s;
  n.cockatiel.breaker.kind = CockatielBreakerSpec::Kind::sampling;
  n.cockatiel.breaker.threshold = 0.4;
  n.cockatiel.breaker.duration = 12 * s;
  n.cockatiel.breaker.minimum_rps = 3;
  n.cockatiel.half_open_calls = 3;
  n.cockatiel.half_open_threshold = 0.34;
  n.cockatiel.classification.ignored = {CallOutcome::client_error};

  n.envoy.hosts = 4;
  n.envoy.consecutive_5xx = 3;
  n.envoy.consecutive_gateway_failure = 2;
  n.envoy.enforcing_consecutive_gateway_failure = 100;
  n.envoy.interval = 2 * s;
  n.envoy.base_ejection_time = 5 * s;
  n.envoy.max_ejection_time = 40 * s;
  n.envoy.max_ejection_percent = 50;
  n.envoy.healthy_panic_threshold = 25;
  n.envoy.health_check_interval = 2 * s;
  n.envoy.health_check_unhealthy_interval = 1500 * ms;
  n.envoy.health_check_unhealthy_threshold = 2;
  n.envoy.health_check_healthy_threshold = 3;
  n.envoy.consecutive_local_origin_failure = 7;
  return c;
}

const BreakerLibrary kLibraries[] = {BreakerLibrary::resilience4j, BreakerLibrary::gobreaker,
                                     BreakerLibrary::polly,        BreakerLibrary::opossum,
                                     BreakerLibrary::cockatiel,    BreakerLibrary::envoy};

using test::sameSettings;

TEST(NativeConfig, EveryExportReimportsToTheSameSettings) {
  for (BreakerLibrary library : kLibraries) {
    SCOPED_TRACE(std::string(toString(library)));
    for (const Config& c : {tuned(library), [&] {
                              Config d;
                              d.breaker.library = library;
                              d.native.gobreaker.name = "pricing";
                              d.native.opossum.name = "pricing";
                              d.native.polly.name = "pricing";
                              d.native.envoy.name = "pricing";
                              return d;
                            }()}) {
      const ExportTarget target = exportTargetOf(library);
      const ExportedConfig out = exportConfig(c, target, "pricing");
      const NativeConfig back =
          parseNativeConfig(out.text, "pricing" + std::string(fileSuffix(target)), library);
      EXPECT_TRUE(sameSettings(back.native, c.native, library)) << out.text;
      EXPECT_EQ(back.library, library);
      // The rest of the config is listed, the breaker itself is not.
      for (const std::string& note : out.not_expressible)
        EXPECT_EQ(note.find("breaker"), std::string::npos) << note;
    }
  }
}

TEST(NativeConfig, ConfigFilesKeepEveryLibrarysSettings) {
  for (BreakerLibrary library : kLibraries) {
    SCOPED_TRACE(std::string(toString(library)));
    const Config c = tuned(library);
    const Config back = parseConfig(configToYaml(c), "c.yaml");
    EXPECT_EQ(back, c) << configToYaml(c);
  }
  // A library at its defaults and not chosen writes nothing.
  const std::string plain = configToYaml(Config{});
  EXPECT_EQ(plain.find("opossum"), std::string::npos);
  EXPECT_NE(plain.find("library: breakerlab"), std::string::npos);
}

TEST(NativeConfig, SetReachesEveryLibrarysOwnNames) {
  const Config c =
      applyOverrides(Config{}, {"breaker.library=cockatiel",
                                "cockatiel.breaker={type: count, threshold: 0.3, size: 40}",
                                "cockatiel.halfOpenAfter=2500", "resilience4j.slidingWindowSize=7",
                                "envoy.max_ejection_percent=100"});
  EXPECT_EQ(c.breaker.library, BreakerLibrary::cockatiel);
  EXPECT_EQ(c.native.cockatiel.breaker.kind, CockatielBreakerSpec::Kind::count);
  EXPECT_EQ(c.native.cockatiel.breaker.size, 40u);
  EXPECT_EQ(c.native.cockatiel.half_open_after.delay, 2500 * ms);
  EXPECT_EQ(c.native.resilience4j.sliding_window_size, 7u);
  EXPECT_EQ(c.native.envoy.max_ejection_percent, 100u);
  try {
    applyOverrides(Config{}, {"opossum.resetTimout=10"});
    FAIL();
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key 'resetTimout' under opossum, expected one "
                                         "of timeout, errorThresholdPercentage, resetTimeout"),
              std::string::npos)
        << e.what();
  }
}

TEST(NativeConfig, TheLessonsGoFileAsItIsWritten) {
  const NativeConfig g = loadNativeConfig(resource("configs/lesson-gobreaker.go"));
  EXPECT_EQ(g.library, BreakerLibrary::gobreaker);
  const GobreakerSettings& go = g.native.gobreaker;
  EXPECT_EQ(go.max_requests, 1u);
  EXPECT_EQ(go.timeout, 10 * s);
  EXPECT_EQ(go.interval, 0);
  EXPECT_EQ(go.ready_to_trip, GobreakerTripRule::consecutiveFailures(Comparison::ge, 5));
  // countsAsFailure: Unavailable and DeadlineExceeded only; business errors are results.
  EXPECT_EQ(go.classification.failures, (OutcomeSet{CallOutcome::refused, CallOutcome::server_error,
                                                    CallOutcome::timeout, CallOutcome::failure}));
  // Name comes from a variable: noted, with its position.
  ASSERT_FALSE(g.notes.empty());
  EXPECT_EQ(g.notes[0].line, 25);
  EXPECT_NE(g.notes[0].message.find("Name"), std::string::npos);
}

TEST(NativeConfig, GoReadyToTripForms) {
  struct Case {
    const char* body;
    GobreakerCounts counts;
    bool trips;
  };
  const Case cases[] = {
      {"return counts.ConsecutiveFailures > 5", {10, 4, 6, 0, 0, 6}, true},
      {"return counts.ConsecutiveFailures > 5", {10, 5, 5, 0, 0, 5}, false},
      // The README's ratio, through a local.
      {"failureRatio := float64(counts.TotalFailures) / float64(counts.Requests)\n"
       "return counts.Requests >= 3 && failureRatio >= 0.6",
       {5, 2, 3, 0, 0, 1},
       true},
      {"failureRatio := float64(counts.TotalFailures) / float64(counts.Requests)\n"
       "return counts.Requests >= 3 && failureRatio >= 0.6",
       {2, 0, 2, 0, 0, 2},
       false},
      // The research note's completed-call ratio.
      {"done := counts.TotalSuccesses + counts.TotalFailures\n"
       "return done >= 20 && float64(counts.TotalFailures)/float64(done) >= 0.5",
       {25, 10, 10, 0, 0, 1},
       true},
      // BreakerLab's generic export: integer arithmetic without a division.
      {"total := uint64(counts.TotalSuccesses) + uint64(counts.TotalFailures)\n"
       "return total >= 20 && uint64(counts.TotalFailures)*100 >= 50*total",
       {30, 11, 9, 0, 0, 1},
       false},
      {"return (counts.ConsecutiveFailures >= 3 || counts.TotalFailures > 10) && "
       "counts.Requests > 4",
       {5, 0, 3, 0, 0, 3},
       true},
      {"return !(counts.Requests < 10) && counts.TotalFailures >= 5", {10, 5, 5, 0, 0, 1}, true},
      // Go's ! of a NaN comparison is true: 0/0 >= 0.5 is false, so its negation holds (and
      // `< 0.5` would not).
      {"return !(float64(counts.TotalFailures)/float64(counts.Requests) >= 0.5)",
       {0, 0, 0, 0, 0, 0},
       true},
      {"return !(float64(counts.TotalFailures)/float64(counts.Requests) >= 0.5)",
       {4, 1, 3, 0, 0, 3},
       false},
      // Products compare as products: 0*100 >= 0*50 holds where a ratio would be NaN.
      {"return counts.TotalFailures*100 >= counts.Requests*50", {0, 0, 0, 0, 0, 0}, true},
      {"return counts.TotalFailures*100 >= counts.Requests*50", {4, 3, 1, 0, 0, 1}, false},
      {"return counts.TotalFailures >= counts.Requests", {0, 0, 0, 0, 0, 0}, true},
      {"return 2*counts.TotalFailures > counts.Requests+counts.TotalExclusions",
       {6, 3, 3, 0, 0, 1},
       false},
      {"return 2*counts.TotalFailures > counts.Requests+counts.TotalExclusions",
       {6, 2, 4, 1, 0, 1},
       true},
  };
  for (const Case& c : cases) {
    const std::string go = std::string(
                               "package p\nimport \"github.com/sony/gobreaker/v2\"\n"
                               "var s = gobreaker.Settings{\n\tReadyToTrip: "
                               "func(counts gobreaker.Counts) bool {\n") +
                           c.body + "\n\t},\n}\n";
    const NativeConfig n = parseNativeConfig(go, "t.go", BreakerLibrary::gobreaker);
    EXPECT_EQ(n.native.gobreaker.ready_to_trip.evaluate(c.counts), c.trips) << c.body;
    // The Go file BreakerLab writes back holds the same rule.
    Config written;
    written.breaker.library = BreakerLibrary::gobreaker;
    written.native = n.native;
    const ExportedConfig out = exportConfig(written, ExportTarget::gobreaker, "pricing");
    const NativeConfig back = parseNativeConfig(out.text, "pricing.go", BreakerLibrary::gobreaker);
    EXPECT_EQ(back.native.gobreaker.ready_to_trip.evaluate(c.counts), c.trips) << out.text;
  }
}

TEST(NativeConfig, ErrorsNameTheLineAndColumn) {
  struct Case {
    BreakerLibrary library;
    const char* file;
    std::string text;
    const char* error;
  };
  const Case cases[] = {
      {BreakerLibrary::gobreaker, "b.go",
       "package p\nvar s = gobreaker.Settings{\n  Timeout: 10 * time.Fortnight,\n}\n",
       "b.go:3:17: Timeout: cannot evaluate \"time.Fortnight\""},
      {BreakerLibrary::gobreaker, "b.go",
       "package p\nvar s = gobreaker.Settings{\n  ReadyToTrip: func(c gobreaker.Counts) bool {\n"
       "    return c.Failures > 3\n  },\n}\n",
       "b.go:4:12: ReadyToTrip: gobreaker.Counts has no field Failures"},
      {BreakerLibrary::resilience4j, "application.yml",
       "resilience4j:\n  circuitbreaker:\n    instances:\n      p:\n        "
       "slidingWindowType: SLIDING\n",
       "application.yml:5:28: resilience4j.circuitbreaker.instances.p.slidingWindowType: "
       "expected COUNT_BASED or TIME_BASED"},
      {BreakerLibrary::resilience4j, "app.properties",
       "# ok\nresilience4j.circuitbreaker.instances.p.minimumNumberOfCalls=0\n",
       "app.properties:2:62: resilience4j.circuitbreaker.instances.p.minimumNumberOfCalls: "
       "expected a number from 1"},
      {BreakerLibrary::polly, "appsettings.json",
       "{\"R\": {\"CircuitBreaker\": {\n  \"BreakDuration\": \"00:00:00.100\"}}}\n",
       "appsettings.json:2:20: R.CircuitBreaker.BreakDuration: expected a TimeSpan from "
       "00:00:00.500 to 1.00:00:00"},
      {BreakerLibrary::opossum, "o.json", "{\n  \"errorThresholdPercentage\": \"lots\"\n}\n",
       "o.json:2:31: errorThresholdPercentage: expected a number from 0 to 100"},
      {BreakerLibrary::cockatiel, "c.json",
       "{\"breaker\": {\"type\": \"count\", \"threshold\": 1.5, \"size\": 10}}\n",
       "c.json:1:44: breaker.threshold: expected a number from 0 to 1"},
      {BreakerLibrary::envoy, "cluster.yaml",
       "name: p\noutlier_detection:\n  base_ejection_time: 30s\n  max_ejection_time: 10s\n",
       "max_ejection_time cannot be smaller than base_ejection_time"},
      // Bounds on what the model would allocate or add to times.
      {BreakerLibrary::gobreaker, "b.go",
       "package p\nvar s = gobreaker.Settings{\n  Interval: time.Hour,\n"
       "  BucketPeriod: time.Millisecond,\n}\n",
       "b.go:4:17: Interval / BucketPeriod makes more than 10000 buckets"},
      {BreakerLibrary::gobreaker, "g.yaml", "Interval: 60s\nBucketPeriod: 10us\n",
       "g.yaml:2:15: BucketPeriod: BucketPeriod below 1 ms"},
      {BreakerLibrary::gobreaker, "g.yaml", "Timeout: 99999999999h\n",
       "g.yaml:1:10: Timeout: expected a Go duration"},
      {BreakerLibrary::gobreaker, "b.go",
       "package p\nvar s = gobreaker.Settings{\n  MaxRequests: 0x1_0000_0000,\n}\n",
       "b.go:3:16: MaxRequests: expected a whole number from 0 to 4294967295"},
      {BreakerLibrary::resilience4j, "application.yml",
       "resilience4j.circuitbreaker.instances.p:\n  waitDurationInOpenState: PT99999999999999H\n",
       "application.yml:2:28: resilience4j.circuitbreaker.instances.p.waitDurationInOpenState: "
       "expected a duration"},
      {BreakerLibrary::resilience4j, "application.yml",
       "resilience4j.circuitbreaker.instances.p:\n  slidingWindowSize: 5000000\n",
       "slidingWindowSize: expected a number from 1 to 1000000"},
      {BreakerLibrary::polly, "appsettings.json",
       "{\"R\": {\"CircuitBreaker\": {\"SamplingDuration\": \"99999999999\"}}}\n",
       "R.CircuitBreaker.SamplingDuration: expected a TimeSpan"},
      {BreakerLibrary::cockatiel, "c.json",
       "{\"breaker\": {\"type\": \"sampling\", \"threshold\": 0.5, \"duration\": 172800000}}\n",
       "breaker.duration: expected from 1 ms to 1 day"},
      {BreakerLibrary::cockatiel, "c.json",
       "{\"breaker\": {\"type\": \"count\", \"threshold\": 0.5, \"size\": 2000000}}\n",
       "breaker.size: expected a number from 1 to 1000000"},
      // Spreading && over || is bounded, and so is nesting.
      {BreakerLibrary::gobreaker, "g.yaml",
       "ReadyToTrip: (c.Requests > 1 || c.Requests > 2) && (c.Requests > 1 || c.Requests > 2) && "
       "(c.Requests > 1 || c.Requests > 2) && (c.Requests > 1 || c.Requests > 2) && "
       "(c.Requests > 1 || c.Requests > 2) && (c.Requests > 1 || c.Requests > 2) && "
       "(c.Requests > 1 || c.Requests > 2) && (c.Requests > 1 || c.Requests > 2) && "
       "(c.Requests > 1 || c.Requests > 2)\n",
       "ReadyToTrip: too many cases once && is spread over ||"},
      {BreakerLibrary::gobreaker, "g.yaml",
       "ReadyToTrip: \"" + std::string(100, '!') + "(c.Requests > 1)\"\n",
       "nested more than 64 deep"},
  };
  for (const Case& c : cases) {
    try {
      parseNativeConfig(c.text, c.file, c.library);
      ADD_FAILURE() << "no error for " << c.text;
    } catch (const LoadError& e) {
      EXPECT_NE(std::string(e.what()).find(c.error), std::string::npos)
          << e.what() << "\nexpected: " << c.error;
    }
  }
}

TEST(NativeConfig, LiteralsAndFieldsAsTheLibrariesSpellThem) {
  // Go integer literals: hex and digit separators.
  for (const auto& [literal, value] : {std::pair{"0x10", 16u}, std::pair{"1_000", 1000u},
                                       std::pair{"0b101", 5u}, std::pair{"0o17", 15u}}) {
    const NativeConfig g = parseNativeConfig(
        std::string("package p\nvar s = gobreaker.Settings{\n  MaxRequests: ") + literal + ",\n}\n",
        "b.go", BreakerLibrary::gobreaker);
    EXPECT_EQ(g.native.gobreaker.max_requests, value) << literal;
  }
  // A properties key far deeper than resilience4j's is not one of its keys: an error at its line
  // (passed over, a file of one such key read as "the file is empty").
  std::string deep = "resilience4j.circuitbreaker.instances.p.slidingWindowSize=7\nx";
  for (int i = 0; i < 5000; ++i) deep += ".x";
  deep += "=1\n";
  EXPECT_LOAD_ERROR_AT(parseNativeConfig(deep, "app.properties", BreakerLibrary::resilience4j),
                       (test::TextPosition{2, 1}), "the key has more than 32 parts");
  // cockatiel's ExponentialBackoff draws decorrelated jitter unless told otherwise.
  const NativeConfig c = parseNativeConfig(
      "{\"halfOpenAfter\": {\"type\": \"exponential\", \"initialDelay\": 100},\n"
      " \"breaker\": {\"type\": \"consecutive\", \"threshold\": 3}}\n",
      "c.json", BreakerLibrary::cockatiel);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].message.find("decorrelatedJitterGenerator"), std::string::npos);
  // Envoy's active health check: its thresholds and intervals; durations written as proto
  // durations (seconds), which is all Envoy's YAML takes.
  const NativeConfig e = parseNativeConfig(
      "name: p\noutlier_detection:\n  interval: 2.5s\n  base_ejection_time: 0.25s\n"
      "health_checks:\n  - interval: 1.5s\n    unhealthy_interval: 0.5s\n"
      "    unhealthy_threshold: 2\n    healthy_threshold: 4\n",
      "cluster.yaml", BreakerLibrary::envoy);
  const EnvoyOutlierSettings& hc = e.native.envoy;
  EXPECT_EQ(hc.health_check_interval, 1500 * ms);
  EXPECT_EQ(hc.health_check_unhealthy_interval, 500 * ms);
  EXPECT_EQ(hc.health_check_unhealthy_threshold, 2u);
  EXPECT_EQ(hc.health_check_healthy_threshold, 4u);
  Config exported;
  exported.breaker.library = BreakerLibrary::envoy;
  exported.native = e.native;
  const std::string text = exportConfig(exported, ExportTarget::envoy, "pricing").text;
  EXPECT_NE(text.find("interval: 2.5s"), std::string::npos) << text;
  EXPECT_NE(text.find("base_ejection_time: 0.25s"), std::string::npos) << text;
  EXPECT_NE(text.find("unhealthy_interval: 0.5s"), std::string::npos) << text;
  EXPECT_EQ(text.find("ms\n"), std::string::npos) << text;
}

TEST(NativeConfig, WhatIsNotModelledIsNotedWithItsPosition) {
  const NativeConfig o =
      parseNativeConfig("{\n  \"resetTimeout\": 5000,\n  \"cache\": true,\n  \"bogus\": 1\n}\n",
                        "o.json", BreakerLibrary::opossum);
  ASSERT_EQ(o.notes.size(), 2u);
  EXPECT_EQ(formatNote("o.json", o.notes[0]).substr(0, 11), "o.json:3:12");
  EXPECT_NE(o.notes[1].message.find("bogus: not a setting BreakerLab models"), std::string::npos);
  EXPECT_EQ(o.native.opossum.reset_timeout, 5 * s);

  const NativeConfig r = loadNativeConfig(resource("configs/inc-2026-0908-resilience4j.yml"));
  EXPECT_EQ(r.library, BreakerLibrary::resilience4j);
  EXPECT_EQ(r.native.resilience4j.sliding_window_size, 20u);
  EXPECT_EQ(r.native.resilience4j.wait_duration_in_open_state, 20 * s);
  // Its time limiter is the attempt timeout, nothing to note.
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.calls.attempt_timeout, 800 * kMillisecond);
}

TEST(NativeConfig, SpringBootBindingQuirksAreReplayedAsSpringBindsThem) {
  const NativeConfig n = parseNativeConfig(
      "resilience4j.circuitbreaker:\n  configs:\n    default: {minimum-number-of-calls: 7}\n"
      "  instances:\n    pricing:\n      enableExponentialBackoff: true\n"
      "      exponentialMaxWaitDurationInOpenState: 20s\n",
      "a.yml", BreakerLibrary::resilience4j);
  // The default config applies; the backoff needs waitDurationInOpenState to exist at all.
  EXPECT_EQ(n.native.resilience4j.minimum_number_of_calls, 7u);
  EXPECT_FALSE(n.native.resilience4j.enable_exponential_backoff);
  ASSERT_FALSE(n.notes.empty());
  EXPECT_NE(n.notes[0].message.find("only when waitDurationInOpenState is set"), std::string::npos);
}

TEST(NativeConfig, EnvoyCountsTheHostsOfItsLoadAssignment) {
  const NativeConfig e = parseNativeConfig(
      "static_resources:\n  clusters:\n  - name: pricing\n    load_assignment:\n"
      "      endpoints:\n      - lb_endpoints: [{endpoint: {}}, {endpoint: {}}, {endpoint: {}}]\n"
      "    common_lb_config: {healthy_panic_threshold: {value: 0}}\n"
      "    outlier_detection: {consecutive_5xx: 3, base_ejection_time: 10s}\n",
      "envoy.yaml", BreakerLibrary::envoy);
  EXPECT_EQ(e.native.envoy.hosts, 3u);
  EXPECT_EQ(e.native.envoy.healthy_panic_threshold, 0);
  EXPECT_EQ(e.native.envoy.consecutive_5xx, 3u);
  EXPECT_EQ(e.native.envoy.max_ejection_time, 300 * s) << "the default, max(300s, base)";
}

// Envoy's retry budget lives in the cluster's circuit_breakers: read from the DEFAULT priority's
// thresholds (Envoy's defaults, 20% and 3, for the fields left out), written back by an export.
TEST(NativeConfig, EnvoyReadsTheRetryBudgetOfItsCircuitBreakers) {
  const std::string cluster =
      "name: pricing\n"
      "outlier_detection: {consecutive_5xx: 3}\n"
      "circuit_breakers:\n"
      "  thresholds:\n"
      "  - {priority: HIGH, retry_budget: {budget_percent: {value: 90}}}\n"
      "  - max_retries: 5\n"
      "    retry_budget: {budget_percent: {value: 25.0}}\n";
  const NativeConfig e = parseNativeConfig(cluster, "envoy.yaml", BreakerLibrary::envoy);
  ASSERT_TRUE(e.calls.retry_budget.has_value());
  EXPECT_DOUBLE_EQ(e.calls.retry_budget->budget_percent, 25);
  EXPECT_EQ(e.calls.retry_budget->min_retry_concurrency, 3u) << "Envoy's default";
  // The HIGH priority and the limits beside the budget are remarked.
  ASSERT_EQ(e.notes.size(), 3u);
  EXPECT_NE(e.notes[1].message.find("a priority other than DEFAULT"), std::string::npos);
  EXPECT_NE(e.notes[2].message.find("BreakerLab reads only the retry_budget"), std::string::npos);
  Config c;
  c.retry.max_attempts = 3;
  applyNativeConfig(e, c);
  EXPECT_EQ(c.retry.concurrency_budget, (RetryConcurrencyBudget{25, 3}));

  // The export writes it where the import reads it.
  c.retry.concurrency_budget = {12.5, 7};
  const NativeConfig back = parseNativeConfig(exportConfig(c, ExportTarget::envoy).text,
                                              "pricing.yaml", BreakerLibrary::envoy);
  ASSERT_TRUE(back.calls.retry_budget.has_value());
  EXPECT_EQ(*back.calls.retry_budget, (RetryConcurrencyBudget{12.5, 7}));
}

// The exact text of each native export, against the files under golden/.
TEST(NativeConfig, ExportsMatchTheirGoldenFiles) {
  for (BreakerLibrary library : kLibraries) {
    const ExportTarget target = exportTargetOf(library);
    const std::string text = exportConfig(tuned(library), target, "pricing").text;
    const std::string name = std::string(BREAKERLAB_GOLDEN) + "/" + std::string(toString(library)) +
                             "-native" + std::string(fileSuffix(target));
    if (std::getenv("BREAKERLAB_UPDATE_GOLDEN") != nullptr) writeOutputFile(name, text);
    EXPECT_EQ(text, readTextFile(name)) << name;
  }
  // The generic machine with the proposed early probe, translated into each library.
  const Config generic = loadConfig(resource("configs/pricing-client-early-probe.yaml"));
  for (BreakerLibrary library : kLibraries) {
    const ExportTarget target = exportTargetOf(library);
    const std::string text = exportConfig(generic, target, "pricing").text;
    const std::string name = std::string(BREAKERLAB_GOLDEN) + "/" + std::string(toString(library)) +
                             "-from-generic" + std::string(fileSuffix(target));
    if (std::getenv("BREAKERLAB_UPDATE_GOLDEN") != nullptr) writeOutputFile(name, text);
    EXPECT_EQ(text, readTextFile(name)) << name;
  }
}

TEST(NativeConfig, TheEarlyProbeIsNamedForEachTargetWithWhatItNeeds) {
  const Config generic = loadConfig(resource("configs/pricing-client-early-probe.yaml"));
  auto notes = [&](ExportTarget t) {
    std::string all;
    for (const auto& n : exportConfig(generic, t).not_expressible) all += n + "\n";
    return all;
  };
  EXPECT_NE(notes(ExportTarget::resilience4j).find("transitionToHalfOpenState()"),
            std::string::npos);
  EXPECT_NE(notes(ExportTarget::gobreaker).find("no state-transition API"), std::string::npos);
  EXPECT_NE(notes(ExportTarget::envoy).find("active health check"), std::string::npos);
  EXPECT_NE(notes(ExportTarget::opossum).find("breaker.close()"), std::string::npos);
  EXPECT_NE(notes(ExportTarget::polly).find("ManualControl.CloseAsync()"), std::string::npos);
  EXPECT_NE(notes(ExportTarget::cockatiel).find("no way to half-open early"), std::string::npos);
  // And each translation is a file its library's reader takes.
  for (BreakerLibrary library : kLibraries) {
    const ExportTarget t = exportTargetOf(library);
    EXPECT_NO_THROW(
        parseNativeConfig(exportConfig(generic, t).text, "x" + std::string(fileSuffix(t)), library))
        << toString(library);
  }
}

TEST(NativeConfig, ALibrarysBreakerExportsOnlyAsThatLibrary) {
  Config c;
  c.breaker.library = BreakerLibrary::opossum;
  EXPECT_THROW(exportConfig(c, ExportTarget::gobreaker), std::invalid_argument);
  EXPECT_NO_THROW(exportConfig(c, ExportTarget::breakerlab_yaml));
}

}  // namespace
}  // namespace breakerlab
