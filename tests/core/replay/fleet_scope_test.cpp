// The fleet's per-pod state (docs/model.md, "The fleet"): a breaker, a cache and a retry budget
// in every pod, or one shared by the fleet. Hand-built incidents whose trip times follow from
// the round robin and a fixed call latency.
#include <gtest/gtest.h>

#include "breakerlab/core/replay/simulate.h"
#include "same_result.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;
constexpr Micros kLatency = 10 * ms;

// A stretch of the dependency in which `failing` of the calls answer 500 after kLatency.
DependencySegment fleetSegment(Micros from, Micros to, double failing) {
  DependencySegment seg;
  seg.state = failing > 0 ? "server_error" : "healthy";
  seg.from = from;
  seg.to = to;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::fixed, kLatency, kLatency};
  seg.mix_start = seg.mix_end = OutcomeMix{0, 0, failing, 0};
  if (failing > 0) seg.health = Health::red;
  return seg;
}

// `seconds` at 40 checkouts/s, evenly spaced, over `pods` pods; every call fails (a 500 after
// kLatency) from the start. No lead-in, so that the round robin starts at pod 1 with the first
// checkout. A count breaker of 20 calls that trips at 50% and stays open for a minute.
Incident failingFromTheStart(std::uint32_t pods, Micros seconds) {
  Incident inc;
  inc.start = 0;
  inc.end = seconds;
  inc.seed = 5;
  inc.traffic.lead_in = 0;
  inc.traffic.rate = {{0, seconds, 40, 40}};
  inc.traffic.keys = {1, 0.0};
  inc.dependency.segments = {fleetSegment(0, seconds, 1.0)};
  inc.dependency.health = {{0, seconds, Health::red}};
  Config& c = inc.deployed;
  c.load_balancer.pods = pods;
  c.breaker.window_type = WindowType::count;
  c.breaker.window_size = 20;
  c.breaker.min_calls = 20;
  c.breaker.failure_rate_pct = 50;
  c.breaker.open_interval = 60 * s;
  c.breaker.backoff_max = 60 * s;
  return inc;
}

Config withScope(Config c, StateScope scope) {
  c.breaker.scope = scope;
  c.cache.scope = scope;
  c.retry.budget.scope = scope;
  return c;
}

TEST(FleetScope, OnePodIsTheSameRunInEitherScope) {
  for (const bool resources : {false, true}) {
    Incident inc = failingFromTheStart(1, 10 * s);
    inc.traffic.lead_in = 5 * s;
    inc.dependency.segments = {fleetSegment(-5 * s, 3 * s, 0.0), fleetSegment(3 * s, 10 * s, 0.6)};
    if (resources) inc.deployed.workers.per_pod = 4;  // the pods' path of the simulator
    inc.deployed.retry.max_attempts = 3;
    inc.deployed.retry.budget.ratio = 0.2;
    Result per_pod = simulate(inc, withScope(inc.deployed, StateScope::per_pod));
    Result shared = simulate(inc, withScope(inc.deployed, StateScope::shared));
    test::expectIdentical(per_pod, shared, resources ? "workers" : "no resources");
    EXPECT_TRUE(per_pod.pod_breakers.empty());
  }
}

TEST(FleetScope, ASharedBreakerTripsOnTheFleetsTwentiethCall) {
  const Incident inc = failingFromTheStart(4, 5 * s);
  const Result r = simulate(inc, withScope(inc.deployed, StateScope::shared));
  ASSERT_GE(r.checkouts.size(), 80u);
  // The 20th failure completes kLatency after the 20th checkout; the breaker trips then.
  ASSERT_TRUE(r.metrics.time_to_trip_s.has_value());
  EXPECT_EQ(r.metrics.trips, 1u);
  EXPECT_EQ(r.metrics.pod_trips, 4u);  // every pod stands behind it
  EXPECT_DOUBLE_EQ(*r.metrics.trip_spread_s, 0.0);
  const Micros trip = r.checkouts[19].arrival + kLatency;
  EXPECT_EQ(r.breaker.intervals.at(1).from, trip);
  EXPECT_EQ(r.metrics.dependency_calls, 20u);
  EXPECT_TRUE(r.pod_breakers.empty());
}

TEST(FleetScope, EachPodTripsOnItsOwnTwentiethCall) {
  const Incident inc = failingFromTheStart(4, 5 * s);
  const Result r = simulate(inc, withScope(inc.deployed, StateScope::per_pod));
  ASSERT_GE(r.checkouts.size(), 80u);
  ASSERT_EQ(r.pod_breakers.size(), 4u);
  // Round robin: pod k (from 0) gets checkouts k, k+4, k+8, ...; its 20th is checkout 76 + k.
  for (std::size_t pod = 0; pod < 4; ++pod) {
    const Micros trip = r.checkouts[76 + pod].arrival + kLatency;
    const Lane& lane = r.pod_breakers[pod];
    ASSERT_EQ(lane.intervals.size(), 2u) << pod;
    EXPECT_EQ(lane.intervals[0].state, "closed");
    EXPECT_EQ(lane.intervals[1].state, "open");
    EXPECT_EQ(lane.intervals[1].from, trip) << pod;
  }
  EXPECT_EQ(r.metrics.pod_trips, 4u);
  EXPECT_EQ(r.metrics.trips, 1u);  // the fleet at a glance: open from the first pod's trip
  EXPECT_EQ(r.breaker.intervals.at(1).from, r.checkouts[76].arrival + kLatency);
  ASSERT_TRUE(r.metrics.trip_spread_s.has_value());
  EXPECT_DOUBLE_EQ(*r.metrics.trip_spread_s,
                   toSeconds(r.checkouts[79].arrival - r.checkouts[76].arrival));
  // Each pod's breaker let its 20 calls through: 80 in all, four times the shared breaker's.
  EXPECT_EQ(r.metrics.dependency_calls, 80u);
  // Every pod open from the last pod's trip to the end.
  EXPECT_DOUBLE_EQ(r.metrics.all_pods_open_s,
                   toSeconds(inc.end - (r.checkouts[79].arrival + kLatency)));
}

TEST(FleetScope, AScaledOutPodComesWithAClosedEmptyBreaker) {
  Incident inc = failingFromTheStart(4, 12 * s);
  TimedChange scale;
  scale.at = 5 * s;
  scale.edits = {{TimedKey::pods, 8}};
  inc.changes = {scale};
  const Result r = simulate(inc, withScope(inc.deployed, StateScope::per_pod));
  ASSERT_EQ(r.pod_breakers.size(), 8u);
  // Pods 5-8 are not there before the scale-out, then closed, then each trips on its own 20th
  // call: at 5 checkouts/s each, about 4 s later.
  for (std::size_t pod = 4; pod < 8; ++pod) {
    const Lane& lane = r.pod_breakers[pod];
    ASSERT_GE(lane.intervals.size(), 3u) << pod;
    EXPECT_EQ(lane.intervals[0].state, kPodOutOfService);
    EXPECT_EQ(lane.intervals[0].to, 5 * s);
    EXPECT_EQ(lane.intervals[1].state, "closed");
    EXPECT_EQ(lane.intervals[2].state, "open");
    EXPECT_GT(lane.intervals[2].from, 5 * s + 19 * 200 * ms - 200 * ms) << pod;
  }
  EXPECT_EQ(r.metrics.pod_trips, 8u);
  // At the scale-out four closed pods join four open ones.
  bool seen = false;
  for (const FleetBreakers::Count& c : r.fleet_counts) {
    if (c.at == 5 * s) {
      EXPECT_EQ(c, (FleetBreakers::Count{5 * s, 4, 4, 0}));
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
}

TEST(FleetScope, PerPodCachesServeOnlyWhatTheirPodFetched) {
  // Healthy for 2 s (40 calls/s over 4 pods, one key: every pod caches it), then refused.
  Incident inc = failingFromTheStart(4, 6 * s);
  inc.dependency.segments = {fleetSegment(0, 2 * s, 0.0), fleetSegment(2 * s, 6 * s, 1.0)};
  inc.dependency.health = {{2 * s, 6 * s, Health::red}};
  inc.deployed.breaker.enabled = false;
  inc.deployed.cache.ttl = 60 * s;
  // Every pod fetched the key in the first second: both scopes serve every failure cached.
  for (const StateScope scope : {StateScope::per_pod, StateScope::shared}) {
    const Result r = simulate(inc, withScope(inc.deployed, scope));
    EXPECT_EQ(r.metrics.failed_checkouts, 0u) << toString(scope);
    EXPECT_GT(r.metrics.cached_checkouts, 0u);
  }
  // When the healthy stretch holds only two checkouts, two pods out of four fetch nothing before
  // the outage: per pod, their checkouts fail; shared, every failure is served cached.
  inc.dependency.segments = {fleetSegment(0, 50 * ms, 0.0), fleetSegment(50 * ms, 6 * s, 1.0)};
  inc.dependency.health = {{50 * ms, 6 * s, Health::red}};
  const Result per_pod = simulate(inc, withScope(inc.deployed, StateScope::per_pod));
  const Result shared = simulate(inc, withScope(inc.deployed, StateScope::shared));
  EXPECT_EQ(shared.metrics.failed_checkouts, 0u);
  // Pods 1 and 2 fetched the key with the first two checkouts; pods 3 and 4 never did.
  EXPECT_EQ(per_pod.metrics.fresh_checkouts, 2u);
  ASSERT_EQ(per_pod.metrics.checkouts % 4, 0u);
  EXPECT_EQ(per_pod.metrics.failed_checkouts, per_pod.metrics.checkouts / 2);
  EXPECT_EQ(per_pod.metrics.cached_checkouts, per_pod.metrics.checkouts / 2 - 2);
}

TEST(FleetScope, TheStateScopeTableSpellsEachValueOnce) {
  EXPECT_EQ(toString(StateScope::per_pod), "per_pod");
  EXPECT_EQ(toString(StateScope::shared), "shared");
  EXPECT_NE(kStateScopeNames[0].first, kStateScopeNames[1].first);
}

}  // namespace
}  // namespace breakerlab
