// The incident replay with a library's breaker: the library's own rules drive the lanes, a
// cockatiel half-open holds checkouts until its trial decides, opossum's timer times the call,
// Envoy ejects and returns hosts; every run is deterministic and the replay cache agrees.
#include <gtest/gtest.h>

#include <algorithm>

#include "breakerlab/core/replay/simulate.h"
#include "same_result.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

DependencySegment librarySegment(Micros from, Micros to, OutcomeMix mix, Micros latency) {
  DependencySegment seg;
  seg.state = mix.refused > 0 ? "connection refused" : mix.timeout > 0 ? "timing out" : "healthy";
  seg.from = from;
  seg.to = to;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::fixed, latency, latency};
  seg.mix_start = seg.mix_end = mix;
  seg.refused_latency = latency;
  seg.health = mix.refused > 0 || mix.timeout > 0 ? Health::red : Health::green;
  return seg;
}

// 60 s at 20 rps, uniform arrivals (one every 50 ms); refused in [10, 30), healthy otherwise.
Incident libraryOutage() {
  Incident inc;
  inc.start = 0;
  inc.end = 60 * s;
  inc.seed = 5;
  inc.traffic.arrivals = ArrivalProcess::uniform;
  inc.traffic.rate = {{0, 60 * s, 20, 20}};
  inc.traffic.keys = {10, 0.0};
  OutcomeMix refused;
  refused.refused = 1;
  inc.dependency.segments = {librarySegment(0, 10 * s, {}, 20 * ms),
                             librarySegment(10 * s, 30 * s, refused, 5 * ms),
                             librarySegment(30 * s, 60 * s, {}, 20 * ms)};
  inc.dependency.health = {{10 * s, 30 * s, Health::red}};
  return inc;
}

Config lessonGobreaker() {
  Config c;
  c.breaker.library = BreakerLibrary::gobreaker;
  c.native.gobreaker.max_requests = 1;
  c.native.gobreaker.timeout = 10 * s;
  c.native.gobreaker.ready_to_trip = GobreakerTripRule::consecutiveFailures(Comparison::ge, 5);
  return c;
}

// One host that ejection can take out entirely (no panic), swept every second.
Config envoyOneHostNoPanic() {
  Config c;
  c.breaker.library = BreakerLibrary::envoy;
  c.native.envoy.hosts = 1;
  c.native.envoy.max_ejection_percent = 100;
  c.native.envoy.healthy_panic_threshold = 0;
  c.native.envoy.interval = 1 * s;
  return c;
}

std::vector<LaneInterval> states(const Result& r) {
  return r.breaker.intervals;
}

// The arrival time of the first checkout at or after t, and of the n-th after that.
Micros arrivalAfter(const Result& r, Micros t, std::size_t n = 0) {
  for (std::size_t i = 0; i < r.checkouts.size(); ++i)
    if (r.checkouts[i].arrival >= t) return r.checkouts[i + n].arrival;
  return kNever;
}

TEST(LibrarySimulate, GobreakerTripsOnTheFifthFailureAndHalfOpensLazilyAfterTimeout) {
  const Incident inc = libraryOutage();
  const Result r = simulate(inc, lessonGobreaker());
  const auto lane = states(r);
  ASSERT_GE(lane.size(), 3u);
  // Calls every 50 ms fail from 10 s, answering after 5 ms: it opens when the 5th completes.
  EXPECT_EQ(lane[0].state, "closed");
  EXPECT_EQ(lane[1].state, "open");
  const Micros opened = arrivalAfter(r, 10 * s, 4) + 5 * ms;
  EXPECT_EQ(lane[1].from, opened);
  EXPECT_EQ(r.metrics.trips, 1u);
  // Open for Timeout, and half-open only at the first call strictly after it.
  EXPECT_EQ(lane[2].state, "half-open");
  EXPECT_EQ(lane[2].from, arrivalAfter(r, opened + 10 * s + 1));
  // One trial: it fails (still refused) and reopens 5 ms later.
  EXPECT_EQ(lane[3].state, "open");
  EXPECT_EQ(lane[3].from, lane[2].from + 5 * ms);
  // The breaker closes after the dependency is back, on its first trial after 30 s.
  EXPECT_EQ(lane.back().state, "closed");
  const auto trip = std::find_if(r.events.begin(), r.events.end(),
                                 [](const Event& e) { return e.kind == EventKind::trip; });
  ASSERT_NE(trip, r.events.end());
  EXPECT_EQ(trip->label, "gobreaker: 5 consecutive failures");
}

TEST(LibrarySimulate, LibraryDefaultTripsOnTheSixthFailure) {
  const Incident inc = libraryOutage();
  Config c = lessonGobreaker();
  c.native.gobreaker.ready_to_trip = {};
  const Result r = simulate(inc, c);
  EXPECT_EQ(r.breaker.intervals[1].from, arrivalAfter(r, 10 * s, 5) + 5 * ms);
}

TEST(LibrarySimulate, CockatielHoldsCallsDuringItsTrialAndRunsThemAtTheVerdict) {
  // The trial takes 2 s: calls arriving meanwhile wait for it instead of being rejected.
  Incident inc = libraryOutage();
  OutcomeMix refused;
  refused.refused = 1;
  inc.dependency.segments = {librarySegment(0, 10 * s, {}, 20 * ms),
                             librarySegment(10 * s, 12 * s, refused, 5 * ms),
                             librarySegment(12 * s, 60 * s, {}, 2 * s)};
  Config c;
  c.timeout.attempt = 5 * s;
  c.breaker.library = BreakerLibrary::cockatiel;
  c.native.cockatiel.breaker.kind = CockatielBreakerSpec::Kind::consecutive;
  c.native.cockatiel.breaker.consecutive_threshold = 3;
  c.native.cockatiel.half_open_after.delay = 5 * s;
  const Result r = simulate(inc, c);
  const auto lane = states(r);
  ASSERT_GE(lane.size(), 4u);
  EXPECT_EQ(lane[1].state, "open");
  EXPECT_EQ(lane[2].state, "half-open");
  const Micros trial_start = lane[2].from;
  const Micros verdict = lane[3].from;
  EXPECT_EQ(lane[3].state, "closed");
  EXPECT_EQ(verdict - trial_start, 2 * s) << "the trial's answer decides";
  // Every checkout that arrived during the trial was held and then fetched fresh after it:
  // none was rejected into the cache, and each waited until the verdict.
  std::size_t held = 0;
  for (const CheckoutRecord& rec : r.checkouts) {
    if (rec.arrival <= trial_start || rec.arrival >= verdict) continue;
    ++held;
    EXPECT_EQ(rec.outcome, CheckoutOutcome::fresh);
    EXPECT_EQ(rec.arrival + rec.latency_us, verdict + 2 * s) << "waited, then its own 2 s call";
  }
  EXPECT_EQ(held, 39u);  // 2 s at 20 rps, the trial's own call excluded
}

TEST(LibrarySimulate, OpossumTimesTheCallWithItsOwnTimer) {
  // Calls hang in [10, 30): with a 30 s attempt timeout only opossum's 1 s timer answers them.
  Incident inc = libraryOutage();
  OutcomeMix hang;
  hang.timeout = 1;
  inc.dependency.segments = {librarySegment(0, 10 * s, {}, 20 * ms),
                             librarySegment(10 * s, 30 * s, hang, 5 * ms),
                             librarySegment(30 * s, 60 * s, {}, 20 * ms)};
  Config c;
  c.timeout.attempt = 30 * s;
  c.breaker.library = BreakerLibrary::opossum;
  c.native.opossum.timeout = 1 * s;
  c.native.opossum.volume_threshold = 10;
  const Result r = simulate(inc, c);
  EXPECT_LE(r.metrics.latency_max_ms, 1000.0) << "every hung call answered after 1 s";
  ASSERT_GT(r.metrics.trips, 0u);
  // The failures count from 11 s (the first hung call's timer), against every fire of the 10 s
  // window: more than half of them fail only some seconds later.
  EXPECT_GT(r.breaker.intervals[1].from, 11 * s);
  EXPECT_LT(r.breaker.intervals[1].from, 20 * s);
  // With opossum's timer off, nothing answers a hung call before the 30 s attempt timeout.
  c.native.opossum.timeout = 0;
  const Result untimed = simulate(inc, c);
  EXPECT_GT(untimed.breaker.intervals.size() > 1 ? untimed.breaker.intervals[1].from : kNever,
            40 * s);
}

TEST(LibrarySimulate, EnvoyEjectsTheOnlyHostAndReturnsItAtASweepOrAtAPassingHealthCheck) {
  const Incident inc = libraryOutage();
  Config c = envoyOneHostNoPanic();
  c.native.envoy.base_ejection_time = 5 * s;
  Result r = simulate(inc, c);
  // Five 5xx in a row eject it; it returns at the first 1 s sweep 5 s later.
  ASSERT_GE(r.breaker.intervals.size(), 3u);
  EXPECT_EQ(r.breaker.intervals[1].state, "open");
  const Micros ejected = arrivalAfter(r, 10 * s, 4) + 5 * ms;
  EXPECT_EQ(r.breaker.intervals[1].from, ejected);
  // The sweeps run every second from the breaker's creation (the lead-in's start).
  const Micros created = inc.start - inc.traffic.lead_in;
  const Micros due = ejected + 5 * s;
  EXPECT_EQ(r.breaker.intervals[2].from, created + (due - created + s - 1) / s * s);

  // With active health checks every 2 s, the host comes back at the first passing check after
  // health is green again (30 s), not at its next sweep.
  c.native.envoy.base_ejection_time = 300 * s;
  c.native.envoy.max_ejection_time = 300 * s;
  c.native.envoy.health_check_interval = 2 * s;
  r = simulate(inc, c);
  EXPECT_EQ(r.breaker.intervals.back().state, "closed");
  EXPECT_EQ(r.breaker.intervals.back().from % (2 * s), 0);
  EXPECT_GE(r.breaker.intervals.back().from, 30 * s);
  EXPECT_LT(r.breaker.intervals.back().from, 32 * s + 1);
}

// A host ejected again before its last ejection decayed stays out longer: base_ejection_time
// times its backoff, at most max_ejection_time (Envoy's outlier_detection_impl.cc,
// checkHostForUneject). Each trip's label says how long and why, and the open spell lasts that
// long up to the next sweep (the second walkthrough of issue #33: growing ejections unexplained).
TEST(LibrarySimulate, EnvoysTripLabelsSayHowLongEachEjectionLastsAndWhyItGrew) {
  const Incident inc = libraryOutage();  // refused in [10 s, 30 s)
  Config c = envoyOneHostNoPanic();
  c.native.envoy.base_ejection_time = 5 * s;
  c.native.envoy.max_ejection_time = 12 * s;
  const Result r = simulate(inc, c);
  std::vector<std::string> trips;
  for (const Event& e : r.events)
    if (e.kind == EventKind::trip) trips.push_back(e.label);
  ASSERT_EQ(trips.size(), 3u) << "ejected at about 10, 15 and 25 s, back at 37 s";
  EXPECT_EQ(trips[0], "host ejected by outlier detection for 5 s");
  EXPECT_EQ(trips[1],
            "host ejected by outlier detection for 10 s (2 \u00d7 base_ejection_time, at most "
            "max_ejection_time: ejected again before the last ejection decayed)");
  EXPECT_EQ(trips[2].rfind("host ejected by outlier detection for 12 s (3 \u00d7", 0), 0u)
      << "15 s capped at max_ejection_time: " << trips[2];
  // The trip is timed from the first failed call of the episode, not from itself.
  ASSERT_TRUE(r.metrics.time_to_trip_s.has_value());
  const Micros first_failed = arrivalAfter(r, 10 * s);
  EXPECT_NEAR(*r.metrics.time_to_trip_s, toSeconds(r.breaker.intervals[1].from - first_failed),
              1e-6);
  EXPECT_GT(*r.metrics.time_to_trip_s, 0.1) << "five failures 50 ms apart";
  // Each open spell lasts its ejection, to the next 1 s sweep.
  std::vector<Micros> open;
  for (const LaneInterval& i : r.breaker.intervals)
    if (i.state == "open") open.push_back(i.to - i.from);
  ASSERT_EQ(open.size(), 3u);
  const Micros lengths[] = {5 * s, 10 * s, 12 * s};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_GE(open[k], lengths[k]) << k;
    EXPECT_LT(open[k], lengths[k] + s) << k;
  }
}

TEST(LibrarySimulate, EveryLibraryReplaysBitIdenticallyAndTheReplayCacheAgrees) {
  const Incident inc = libraryOutage();
  for (const auto& info : kBreakerLibraries) {
    SCOPED_TRACE(std::string(info.key));
    Config c;
    c.breaker.library = info.id;
    c.native.resilience4j.minimum_number_of_calls = 10;
    c.native.resilience4j.sliding_window_size = 10;
    c.native.resilience4j.wait_duration_in_open_state = 5 * s;
    c.native.polly.minimum_throughput = 10;
    c.native.envoy.max_ejection_percent = 100;
    const Result a = simulate(inc, c);
    const Result b = simulate(inc, c);
    ReplayCache cache;
    const Result warm = simulate(inc, c, cache);
    const Result cached = simulate(inc, c, cache);
    test::expectSameRun(a, b, "repeated");
    test::expectSameRun(a, warm, "filling the cache");
    test::expectSameRun(a, cached, "from the cache");
    EXPECT_GT(a.metrics.trips, 0u) << "each library trips on a 20 s outage";
    // The healthy lead-in outlasted every timeout: a longer one with retries resumes from it,
    // whatever the library does with call durations (slow-call thresholds) and retries.
    Config tuned = c;
    tuned.timeout.attempt = 3 * s;
    tuned.retry.max_attempts = 3;
    tuned.retry.base = 100 * ms;
    const std::uint64_t hits = cache.hits();
    const Result tuned_cached = simulate(inc, tuned, cache);
    EXPECT_EQ(cache.hits(), hits + 1);
    test::expectSameRun(simulate(inc, tuned), tuned_cached, "tuned, from the cache");
  }
}

// The lead-in ends while cockatiel's half-open trial is out and later checkouts wait for it: the
// replay cache must restore those waiting calls with the breaker, or the cached run differs.
TEST(LibrarySimulate, TheReplayCacheKeepsCallsCockatielHoldsAcrossTheLeadIn) {
  Incident inc;
  inc.start = 0;
  inc.end = 20 * s;
  inc.seed = 3;
  inc.traffic.lead_in = 30 * s;
  inc.traffic.arrivals = ArrivalProcess::uniform;
  inc.traffic.rate = {{0, 20 * s, 20, 20}};
  inc.traffic.keys = {10, 0.0};
  OutcomeMix refused;
  refused.refused = 1;
  // Refused from -20 s to -10 s, then healthy but slow: each trial takes 600 ms.
  inc.dependency.segments = {librarySegment(-30 * s, -20 * s, {}, 20 * ms),
                             librarySegment(-20 * s, -10 * s, refused, 5 * ms),
                             librarySegment(-10 * s, 20 * s, {}, 600 * ms)};
  inc.dependency.health = {{-20 * s, -10 * s, Health::red}};
  Config c;
  c.breaker.library = BreakerLibrary::cockatiel;
  c.native.cockatiel.breaker.kind = CockatielBreakerSpec::Kind::consecutive;
  c.native.cockatiel.breaker.threshold = 5;
  c.native.cockatiel.half_open_after.kind = CockatielBackoff::Kind::constant;
  c.native.cockatiel.half_open_after.delay = 9700 * ms;
  const Result plain = simulate(inc, c);
  // The scenario: a trial starts before 0 (the lanes begin half-open) and answers after it.
  ASSERT_FALSE(plain.breaker.intervals.empty());
  EXPECT_EQ(plain.breaker.intervals[0].state, "half-open");
  EXPECT_EQ(plain.breaker.intervals[0].from, inc.start);
  EXPECT_GT(plain.breaker.intervals[0].to, inc.start);
  ReplayCache cache;
  simulate(inc, c, cache);
  const Result cached = simulate(inc, c, cache);
  EXPECT_EQ(cache.hits(), 1u);
  // Each held call asks the breaker again and calls the dependency once: the same calls, the same
  // checkouts.
  test::expectSameRun(plain, cached, "from the cache");
}

// Envoy's active health check takes hosts out of the healthy set while it fails: an ejection
// that ends during the outage does not return the host, and with the default panic threshold a
// cluster with no healthy host routes to every host.
TEST(LibrarySimulate, EnvoyHostsFailingActiveHealthChecksStayOutOfRotation) {
  const Incident inc = libraryOutage();
  Config c = envoyOneHostNoPanic();
  c.native.envoy.base_ejection_time = 2 * s;
  c.native.envoy.health_check_interval = 1 * s;
  c.native.envoy.health_check_unhealthy_threshold = 3;
  const Result r = simulate(inc, c);
  // Out from the ejection (~10.25 s) until the first passing check at or after 30 s, even though
  // the 2 s ejection ends long before.
  std::vector<LaneInterval> out;
  for (const auto& i : r.breaker.intervals)
    if (i.state == "open") out.push_back(i);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_LT(out[0].from, 11 * s);
  EXPECT_EQ(out[0].to, 30 * s);
  EXPECT_EQ(r.breaker.intervals.back().state, "closed");

  // The same with healthy_panic_threshold 50: no healthy host puts the cluster in panic, and
  // panic routes to the ejected host too; it is never "open".
  c.native.envoy.healthy_panic_threshold = 50;
  const Result panic = simulate(inc, c);
  for (const auto& i : panic.breaker.intervals) EXPECT_NE(i.state, "open");
  ReplayCache cache;
  simulate(inc, c, cache);
  const Result cached = simulate(inc, c, cache);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(panic.breaker, cached.breaker);
}

}  // namespace
}  // namespace breakerlab
