// translateToLibrary: the 8 Sep breaker (the default config: the last 20 calls, 50%, open 20 s,
// 3 probes 1 s apart, all_succeed) as each library's settings, and back.
#include "breakerlab/core/inputs/library_translation.h"

#include <gtest/gtest.h>

#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab {
namespace {

bool lists(const LibraryTranslation& t, const std::string& setting) {
  for (const NotCarriedOver& item : t.not_carried)
    if (item.setting == setting) return true;
  return false;
}

// CircuitBreakerConfig (resilience4j-circuitbreaker): slidingWindowSize, minimumNumberOfCalls,
// failureRateThreshold, waitDurationInOpenState, permittedNumberOfCallsInHalfOpenState.
TEST(LibraryTranslation, GenericToResilience4jKeepsThe20CallsAnd20Seconds) {
  const LibraryTranslation t = translateToLibrary(Config{}, BreakerLibrary::resilience4j);
  const Resilience4jSettings& r = t.config.native.resilience4j;
  EXPECT_EQ(t.config.breaker.library, BreakerLibrary::resilience4j);
  EXPECT_EQ(r.sliding_window_type, SlidingWindowType::count_based);
  EXPECT_EQ(r.sliding_window_size, 20u);
  EXPECT_EQ(r.minimum_number_of_calls, 20u);
  EXPECT_EQ(r.failure_rate_threshold, 50);
  EXPECT_EQ(r.wait_duration_in_open_state, 20 * kSecond);
  EXPECT_EQ(r.permitted_number_of_calls_in_half_open_state, 3u);
  EXPECT_TRUE(r.automatic_transition_from_open_to_half_open_enabled);
  // The probes' spacing, and the close rule: at 50%, resilience4j closes with 1 of 3 failed.
  EXPECT_TRUE(lists(t, "breaker.half_open.spacing"));
  EXPECT_TRUE(lists(t, "breaker.half_open.close_when"));
  EXPECT_TRUE(validate(t.config).empty()) << validate(t.config);
}

// gobreaker.go: Settings.MaxRequests, Timeout, Interval, ReadyToTrip(Counts).
TEST(LibraryTranslation, GenericToGobreaker) {
  const LibraryTranslation t = translateToLibrary(Config{}, BreakerLibrary::gobreaker);
  const GobreakerSettings& g = t.config.native.gobreaker;
  EXPECT_EQ(g.max_requests, 3u);
  EXPECT_EQ(g.timeout, 20 * kSecond);
  EXPECT_EQ(g.interval, 0);
  // Over the completed calls, as the generic window counts: docs/formats.md's Mapping.
  EXPECT_EQ(g.ready_to_trip, GobreakerTripRule::completedFailureRate(20, 50));
  EXPECT_TRUE(lists(t, "breaker.window"));        // cumulative counts, not the last 20
  EXPECT_TRUE(lists(t, "breaker.failure_rate"));  // asked only on a failure
  EXPECT_TRUE(validate(t.config).empty());
}

// With the calls one breaker sees a second, the last N calls become gobreaker's Interval of the
// time N calls take, rolled in 1 s buckets (gobreaker v2.2+ BucketPeriod; research:
// breaker-libraries.md, "BucketPeriod"); without it, Interval 0 and the note on what that does.
TEST(LibraryTranslation, ACountWindowBecomesTheTimeItsCallsTakeUnderGobreaker) {
  const struct {
    double calls_per_second;
    std::uint32_t window;
    Micros interval, bucket_period;
  } cases[] = {
      {5, 20, 4 * kSecond, kSecond},        // 8 Sep: 20 calls at 5/s
      {3, 20, 7 * kSecond, kSecond},        // 6.7 s: whole seconds, up
      {40, 20, kSecond, 0},                 // under a second: one tumbling second
      {0.5, 100, 200 * kSecond, kSecond},   // a slow trickle
      {1e-6, 20, 3600 * kSecond, kSecond},  // at most an hour
      {0, 20, 0, 0},                        // rate unknown: counts since the last change
  };
  for (const auto& c : cases) {
    Config config;
    config.breaker.window_size = c.window;
    config.breaker.min_calls = c.window;
    const LibraryTranslation t =
        translateToLibrary(config, BreakerLibrary::gobreaker, c.calls_per_second);
    const GobreakerSettings& g = t.config.native.gobreaker;
    EXPECT_EQ(g.interval, c.interval) << c.calls_per_second << "/s";
    EXPECT_EQ(g.bucket_period, c.bucket_period) << c.calls_per_second << "/s";
    EXPECT_EQ(g.ready_to_trip, GobreakerTripRule::completedFailureRate(c.window, 50));
    // Still listed: a time window only approximates the last N calls.
    ASSERT_TRUE(lists(t, "breaker.window"));
    for (const NotCarriedOver& n : t.not_carried) {
      if (n.setting != "breaker.window") continue;
      EXPECT_NE(n.why.find(c.calls_per_second > 0 ? "Interval" : "Interval 0"), std::string::npos)
          << n.why;
    }
    EXPECT_TRUE(validate(t.config).empty()) << validate(t.config);
  }
  // A consecutive-failures window has no time in it.
  Config consecutive;
  consecutive.breaker.window_type = WindowType::consecutive;
  EXPECT_EQ(translateToLibrary(consecutive, BreakerLibrary::gobreaker, 5)
                .config.native.gobreaker.interval,
            0);
}

// One breaker's share of the fleet's calls: a pod's when each pod keeps its own.
TEST(LibraryTranslation, ABreakerSeesItsPodsShareOfTheCalls) {
  Config c;
  c.load_balancer.pods = 8;
  c.breaker.scope = StateScope::per_pod;
  EXPECT_DOUBLE_EQ(breakerCallsPerSecond(400, c), 50);
  c.breaker.scope = StateScope::shared;
  EXPECT_DOUBLE_EQ(breakerCallsPerSecond(400, c), 400);
  c.load_balancer.pods = 0;  // never divides by zero
  c.breaker.scope = StateScope::per_pod;
  EXPECT_DOUBLE_EQ(breakerCallsPerSecond(400, c), 400);
}

// The workbench's knobs read the translated ReadyToTrip as a ratio (not a custom expression)
// and edit it over the completed calls it counts: the library switch leaves it tunable.
TEST(LibraryTranslation, TheGobreakerKnobsEditTheTranslatedRuleInItsForm) {
  Config c = translateToLibrary(Config{}, BreakerLibrary::gobreaker).config;
  const KnobSpec* form = findKnob("gobreaker.ReadyToTrip:form");
  const KnobSpec* requests = findKnob("gobreaker.ReadyToTrip:requests");
  const KnobSpec* ratio = findKnob("gobreaker.ReadyToTrip:ratio");
  ASSERT_TRUE(form && requests && ratio);
  EXPECT_EQ(form->get(c), 2.0);  // "failure ratio", the third choice
  EXPECT_EQ(requests->get(c), 20.0);
  EXPECT_EQ(ratio->get(c), 50.0);
  requests->set(c, 10);
  ratio->set(c, 40);
  EXPECT_EQ(c.native.gobreaker.ready_to_trip, GobreakerTripRule::completedFailureRate(10, 40));
  // A rule read from a file over Requests stays over Requests.
  c.native.gobreaker.ready_to_trip = GobreakerTripRule::failureRatio(20, 0.5);
  ratio->set(c, 40);
  EXPECT_EQ(c.native.gobreaker.ready_to_trip, GobreakerTripRule::failureRatio(20, 0.4));
}

// opossum lib/circuit.js options: errorThresholdPercentage, resetTimeout, volumeThreshold,
// timeout.
TEST(LibraryTranslation, GenericToOpossum) {
  const LibraryTranslation t = translateToLibrary(Config{}, BreakerLibrary::opossum);
  const OpossumOptions& o = t.config.native.opossum;
  EXPECT_EQ(o.error_threshold_percentage, 50);
  EXPECT_EQ(o.reset_timeout, 20 * kSecond);
  EXPECT_EQ(o.volume_threshold, 20u);
  EXPECT_EQ(o.timeout, 800 * kMillisecond);
  EXPECT_TRUE(lists(t, "breaker.half_open.probes"));
  EXPECT_TRUE(validate(t.config).empty());
}

// cockatiel CountBreaker({threshold, size, minimumNumberOfCalls}), halfOpenAfter.
TEST(LibraryTranslation, GenericToCockatiel) {
  const LibraryTranslation t = translateToLibrary(Config{}, BreakerLibrary::cockatiel);
  const CockatielSettings& s = t.config.native.cockatiel;
  EXPECT_EQ(s.breaker.kind, CockatielBreakerSpec::Kind::count);
  EXPECT_EQ(s.breaker.size, 20u);
  EXPECT_EQ(s.breaker.minimum_number_of_calls, 20u);
  EXPECT_DOUBLE_EQ(s.breaker.threshold, 0.5);
  EXPECT_EQ(s.half_open_after.delay, 20 * kSecond);
  EXPECT_EQ(s.half_open_calls, 3u);
  EXPECT_TRUE(validate(t.config).empty());
}

// Envoy outlier_detection (outlier_detection_impl.cc): one host ejected for
// base_ejection_time after consecutive_5xx; max_ejection_percent 100 and
// healthy_panic_threshold 0 so that the ejected host takes no calls, as an open breaker.
TEST(LibraryTranslation, GenericToEnvoy) {
  const Config c;
  const LibraryTranslation t = translateToLibrary(c, BreakerLibrary::envoy);
  const EnvoyOutlierSettings& e = t.config.native.envoy;
  EXPECT_EQ(t.config.breaker.library, BreakerLibrary::envoy);
  EXPECT_EQ(e.hosts, 1u);
  EXPECT_EQ(e.max_ejection_percent, 100u);
  EXPECT_EQ(e.healthy_panic_threshold, 0);
  EXPECT_EQ(e.base_ejection_time, c.breaker.open_interval);
  // 50% of min_calls 20 in a row: the rate has no one-host rule, and is listed.
  EXPECT_EQ(e.consecutive_5xx, 10u);
  EXPECT_TRUE(lists(t, "breaker.failure_rate"));
  EXPECT_TRUE(lists(t, "breaker.half_open.probes"));
  EXPECT_TRUE(validate(t.config).empty()) << validate(t.config);
}

TEST(LibraryTranslation, BackToTheGenericMachine) {
  for (BreakerLibrary library :
       {BreakerLibrary::resilience4j, BreakerLibrary::gobreaker, BreakerLibrary::cockatiel}) {
    SCOPED_TRACE(std::string(toString(library)));
    const Config there = translateToLibrary(Config{}, library).config;
    const LibraryTranslation back = translateToLibrary(there, BreakerLibrary::breakerlab);
    const BreakerConfig& b = back.config.breaker;
    EXPECT_EQ(b.library, BreakerLibrary::breakerlab);
    EXPECT_EQ(b.open_interval, 20 * kSecond);
    EXPECT_EQ(b.probes, 3u);
    EXPECT_EQ(b.failure_rate_pct, 50);
    EXPECT_EQ(b.min_calls, 20u);
    EXPECT_TRUE(validate(back.config).empty()) << validate(back.config);
  }
  // gobreaker's default ReadyToTrip is ConsecutiveFailures > 5.
  Config g;
  g.breaker.library = BreakerLibrary::gobreaker;
  const LibraryTranslation t = translateToLibrary(g, BreakerLibrary::breakerlab);
  EXPECT_EQ(t.config.breaker.window_type, WindowType::consecutive);
  EXPECT_EQ(t.config.breaker.consecutive_failures, 6u);
  EXPECT_EQ(t.config.native.gobreaker.timeout, 0);
  EXPECT_EQ(t.config.breaker.open_interval, 60 * kSecond);  // Timeout 0 is 60 s
}

TEST(LibraryTranslation, EveryPairValidatesAndTheSameLibraryIsUnchanged) {
  for (const auto& from : kBreakerLibraries)
    for (const auto& to : kBreakerLibraries) {
      Config c;
      c = translateToLibrary(c, from.id).config;
      const LibraryTranslation t = translateToLibrary(c, to.id);
      EXPECT_EQ(t.config.breaker.library, to.id);
      EXPECT_TRUE(validate(t.config).empty())
          << from.key << " -> " << to.key << ": " << validate(t.config);
      if (from.id == to.id) {
        EXPECT_EQ(t.config, c);
        EXPECT_TRUE(t.not_carried.empty());
      }
    }
}

}  // namespace
}  // namespace breakerlab
