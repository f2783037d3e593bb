// The fleet's breakers as the report reads them (core/include/breakerlab/core/outcome/fleet.h):
// hand-made fleets, their counts over time, the fleet at a glance, each pod's lane and the
// fleet's metrics, worked out by hand in each case.
#include "breakerlab/core/outcome/fleet.h"

#include <gtest/gtest.h>

namespace breakerlab {
namespace {

using S = BreakerState;
using Cause = BreakerTransition::Cause;

constexpr Micros sec(double s) {
  return static_cast<Micros>(s * kSecond);
}

BreakerTransition move(double at, S from, S to, Cause cause = Cause::failure_rate,
                       double episode = 0) {
  BreakerTransition t;
  t.at = sec(at);
  t.from = from;
  t.to = to;
  t.cause = cause;
  t.episode_start = sec(episode);
  return t;
}

// Two pods from 0 s: pod 1 trips at 10 s, pod 2 at 12 s; pod 1 half-opens at 30 s and closes at
// 31 s, pod 2 half-opens at 32 s and closes at 33 s.
FleetBreakers twoPods() {
  FleetBreakers f;
  f.pods = {{move(10, S::closed, S::open, Cause::failure_rate, 7),
             move(30, S::open, S::half_open, Cause::interval_elapsed),
             move(31, S::half_open, S::closed, Cause::probes_succeeded)},
            {move(12, S::closed, S::open, Cause::failure_rate, 9),
             move(32, S::open, S::half_open, Cause::interval_elapsed),
             move(33, S::half_open, S::closed, Cause::probes_succeeded)}};
  f.spans = {{0, 0, kNever}, {1, 0, kNever}};
  return f;
}

TEST(Fleet, CountsStepAtEveryChange) {
  using C = FleetBreakers::Count;
  const std::vector<C> expected{{sec(0), 2, 0, 0},  {sec(10), 1, 1, 0}, {sec(12), 0, 2, 0},
                                {sec(30), 0, 1, 1}, {sec(31), 1, 1, 0}, {sec(32), 1, 0, 1},
                                {sec(33), 2, 0, 0}};
  EXPECT_EQ(twoPods().counts(), expected);
}

TEST(Fleet, SummaryIsOpenFromTheFirstPodOpenToTheLastPodOutOfOpen) {
  const std::vector<BreakerTransition> s = twoPods().summary();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].at, sec(10));
  EXPECT_EQ(s[0].from, S::closed);
  EXPECT_EQ(s[0].to, S::open);
  EXPECT_EQ(s[0].episode_start, sec(7));  // the tripping pod's episode
  // Pod 1 half-opens and closes while pod 2 is still open: the fleet stays open.
  EXPECT_EQ(s[1].at, sec(32));
  EXPECT_EQ(s[1].to, S::half_open);
  EXPECT_EQ(s[1].cause, Cause::interval_elapsed);
  EXPECT_EQ(s[2].at, sec(33));
  EXPECT_EQ(s[2].from, S::half_open);
  EXPECT_EQ(s[2].to, S::closed);
}

TEST(Fleet, MetricsOfTwoPods) {
  const FleetMetrics m = fleetMetrics(twoPods(), sec(0), sec(100));
  EXPECT_DOUBLE_EQ(m.pod_seconds_open, 20.0 + 20.0);
  EXPECT_DOUBLE_EQ(m.any_pod_open_s, 32.0 - 10.0);  // the half-open pod 1 at 30-31 aside
  EXPECT_DOUBLE_EQ(m.all_pods_open_s, 30.0 - 12.0);
  EXPECT_EQ(m.pod_trips, 2u);
  ASSERT_TRUE(m.trip_spread_s && m.close_spread_s);
  EXPECT_DOUBLE_EQ(*m.trip_spread_s, 2.0);
  EXPECT_DOUBLE_EQ(*m.close_spread_s, 2.0);
}

TEST(Fleet, MetricsAreClippedToTheWindow) {
  // A window of [11 s, 31 s]: pod 1's trip at 10 s is before it, pod 2's at 12 s inside.
  const FleetMetrics m = fleetMetrics(twoPods(), sec(11), sec(31));
  EXPECT_DOUBLE_EQ(m.pod_seconds_open, (30.0 - 11.0) + (31.0 - 12.0));
  EXPECT_DOUBLE_EQ(m.any_pod_open_s, 20.0);
  EXPECT_DOUBLE_EQ(m.all_pods_open_s, 30.0 - 12.0);
  EXPECT_EQ(m.pod_trips, 1u);
  EXPECT_DOUBLE_EQ(*m.trip_spread_s, 0.0);   // one pod tripped in the window
  EXPECT_DOUBLE_EQ(*m.close_spread_s, 0.0);  // pod 1 closed at 31 s, the window's end
}

TEST(Fleet, NoTripNoSpread) {
  FleetBreakers f;
  f.pods = {{}, {}};
  f.spans = {{0, 0, kNever}, {1, 0, kNever}};
  const FleetMetrics m = fleetMetrics(f, 0, sec(60));
  EXPECT_EQ(m.pod_trips, 0u);
  EXPECT_DOUBLE_EQ(m.pod_seconds_open, 0.0);
  EXPECT_FALSE(m.trip_spread_s.has_value());
  EXPECT_FALSE(m.close_spread_s.has_value());
  EXPECT_TRUE(f.summary().empty());
}

TEST(Fleet, AScaledOutPodArrivesClosedAndEndsAllOpen) {
  FleetBreakers f = twoPods();
  // A third pod, from 20 s: closed, so from then not every pod is open.
  f.pods.push_back({});
  f.spans.push_back({2, sec(20), kNever});
  const FleetMetrics m = fleetMetrics(f, 0, sec(100));
  EXPECT_DOUBLE_EQ(m.all_pods_open_s, 20.0 - 12.0);
  EXPECT_DOUBLE_EQ(m.pod_seconds_open, 40.0);
  const std::vector<FleetBreakers::Count> counts = f.counts();
  ASSERT_GE(counts.size(), 4u);
  EXPECT_EQ(counts[3], (FleetBreakers::Count{sec(20), 1, 2, 0}));
}

TEST(Fleet, TheOnlyOpenPodScaledInClosesTheFleet) {
  FleetBreakers f;
  f.pods = {{move(10, S::closed, S::open)}, {}};
  f.spans = {{0, 0, sec(15)}, {1, 0, kNever}};
  const std::vector<BreakerTransition> s = f.summary();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].at, sec(15));
  EXPECT_EQ(s[1].to, S::closed);
  EXPECT_EQ(s[1].cause, Cause::pods_scaled);
  // Pod-seconds count only in service: 10 s to 15 s.
  EXPECT_DOUBLE_EQ(fleetMetrics(f, 0, sec(60)).pod_seconds_open, 5.0);
}

TEST(Fleet, TransitionsOfAPodOutOfServiceDoNotCount) {
  FleetBreakers f;
  // Pod 2 joins at 20 s; its breaker moved before (a stale one) and is open when it joins.
  f.pods = {{}, {move(5, S::closed, S::open)}};
  f.spans = {{0, 0, kNever}, {1, sec(20), kNever}};
  const FleetMetrics m = fleetMetrics(f, 0, sec(30));
  EXPECT_EQ(m.pod_trips, 0u);
  EXPECT_DOUBLE_EQ(m.pod_seconds_open, 10.0);  // open from when it joined
}

TEST(Fleet, ASharedBreakerStandsForEveryPodInService) {
  FleetBreakers f;
  f.shared = true;
  f.pods = {{move(10, S::closed, S::open), move(20, S::open, S::half_open),
             move(21, S::half_open, S::closed)}};
  f.spans = {{0, 0, kNever}, {1, 0, kNever}, {2, 0, kNever}};
  const FleetMetrics m = fleetMetrics(f, 0, sec(60));
  EXPECT_EQ(m.pod_trips, 3u);
  EXPECT_DOUBLE_EQ(m.pod_seconds_open, 3 * 10.0);
  EXPECT_DOUBLE_EQ(m.any_pod_open_s, 10.0);
  EXPECT_DOUBLE_EQ(m.all_pods_open_s, 10.0);
  EXPECT_DOUBLE_EQ(*m.trip_spread_s, 0.0);
  EXPECT_DOUBLE_EQ(*m.close_spread_s, 0.0);
}

TEST(Fleet, ASharedBreakersNewPodTakesItsState) {
  FleetBreakers f;
  f.shared = true;
  f.pods = {{move(10, S::closed, S::open), move(40, S::open, S::half_open)}};
  f.spans = {{0, 0, kNever}, {1, sec(30), kNever}};
  // Pod 1 stands behind the open breaker from 10 s, pod 2 from when it joins at 30 s.
  EXPECT_DOUBLE_EQ(fleetMetrics(f, 0, sec(40)).pod_seconds_open, 30.0 + 10.0);
}

TEST(Fleet, PodLanesShowWhenAPodWasOutOfService) {
  FleetBreakers f;
  f.pods = {{move(12, S::closed, S::open)}};
  f.spans = {{0, 0, sec(5)}, {0, sec(10), kNever}};
  const std::vector<Lane> lanes = f.lanes(0, sec(20));
  ASSERT_EQ(lanes.size(), 1u);
  EXPECT_EQ(lanes[0].name, "pod 1");
  const std::vector<LaneInterval> expected{{"closed", 0, sec(5), ""},
                                           {std::string(kPodOutOfService), sec(5), sec(10), ""},
                                           {"closed", sec(10), sec(12), ""},
                                           {"open", sec(12), sec(20), ""}};
  EXPECT_EQ(lanes[0].intervals, expected);
}

TEST(Fleet, TheShareLaneSaysHowManyPodsAreOpen) {
  const Lane lane = twoPods().shareLane(sec(0), sec(40));
  EXPECT_EQ(lane.name, "fleet");
  const std::vector<LaneInterval> expected{{"closed", 0, sec(10), ""},
                                           {"1 of 2 open", sec(10), sec(12), ""},
                                           {"all open", sec(12), sec(30), ""},
                                           // pod 1 half-open, pod 2 open; then pod 1 closed
                                           {"1 of 2 open", sec(30), sec(32), ""},
                                           {"1 of 2 half-open", sec(32), sec(33), ""},
                                           {"closed", sec(33), sec(40), ""}};
  EXPECT_EQ(lane.intervals, expected);
  // A window that starts inside an open spell starts with its state.
  EXPECT_EQ(twoPods().shareLane(sec(20), sec(25)).intervals,
            (std::vector<LaneInterval>{{"all open", sec(20), sec(25), ""}}));
}

TEST(Fleet, EqualTimesLeaveThenEnterThenMove) {
  // At 10 s pod 1 leaves, pod 2 enters and trips: the fleet goes from one closed pod to one open.
  FleetBreakers f;
  f.pods = {{}, {move(10, S::closed, S::open)}};
  f.spans = {{0, 0, sec(10)}, {1, sec(10), kNever}};
  const std::vector<FleetBreakers::Count> counts = f.counts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[1], (FleetBreakers::Count{sec(10), 0, 1, 0}));
}

TEST(Fleet, ASharedBreakersPodLanesShowItWhileEachPodServed) {
  FleetBreakers f;
  f.shared = true;
  f.pods = {{move(10, S::closed, S::open), move(20, S::open, S::half_open)}};
  f.spans = {{0, 0, kNever}, {1, sec(15), kNever}};
  const std::vector<Lane> lanes = f.lanes(0, sec(30));
  ASSERT_EQ(lanes.size(), 2u);
  EXPECT_EQ(lanes[0].intervals, (std::vector<LaneInterval>{{"closed", 0, sec(10), ""},
                                                           {"open", sec(10), sec(20), ""},
                                                           {"half-open", sec(20), sec(30), ""}}));
  EXPECT_EQ(lanes[1].intervals,
            (std::vector<LaneInterval>{{std::string(kPodOutOfService), 0, sec(15), ""},
                                       {"open", sec(15), sec(20), ""},
                                       {"half-open", sec(20), sec(30), ""}}));
}

Lane laneOf(std::vector<LaneInterval> intervals) {
  return Lane{"x", std::move(intervals)};
}

// Per pod, the time not closed while health was green: the max and the mean over the pods in
// service, by hand.
TEST(Fleet, PodCachedWhileHealthyCountsNotClosedUnderGreenPerPod) {
  const Lane health = laneOf(
      {{"green", 0, sec(10), ""}, {"red", sec(10), sec(20), ""}, {"green", sec(20), sec(60), ""}});
  const std::vector<Lane> pods{
      // Open 5-25 s: green for 5-10 and 20-25 = 10 s.
      laneOf({{"closed", 0, sec(5), ""},
              {"open", sec(5), sec(25), ""},
              {"closed", sec(25), sec(60), ""}}),
      // Open only under red (10-20 s), then half-open 20-22 s under green = 2 s.
      laneOf({{"closed", 0, sec(10), ""},
              {"open", sec(10), sec(20), ""},
              {"half-open", sec(20), sec(22), ""},
              {"closed", sec(22), sec(60), ""}}),
      // Never in service: not counted in the mean.
      laneOf({{std::string(kPodOutOfService), 0, sec(60), ""}}),
      // In service from 50 s and open to the end: 10 s, its time out of service not counted.
      laneOf({{std::string(kPodOutOfService), 0, sec(50), ""}, {"open", sec(50), sec(60), ""}}),
  };
  const auto cached = podCachedWhileHealthy(pods, health);
  ASSERT_TRUE(cached.has_value());
  EXPECT_DOUBLE_EQ(cached->max_s, 10.0);
  EXPECT_DOUBLE_EQ(cached->mean_s, (10.0 + 2.0 + 10.0) / 3);
}

TEST(Fleet, PodCachedWhileHealthyIsUndefinedWithoutAPodInService) {
  const Lane health = laneOf({{"green", 0, sec(60), ""}});
  EXPECT_FALSE(podCachedWhileHealthy({}, health).has_value());
  EXPECT_FALSE(
      podCachedWhileHealthy({laneOf({{std::string(kPodOutOfService), 0, sec(60), ""}})}, health)
          .has_value());
  // A pod always closed: defined, zero.
  const auto closed = podCachedWhileHealthy({laneOf({{"closed", 0, sec(60), ""}})}, health);
  ASSERT_TRUE(closed.has_value());
  EXPECT_DOUBLE_EQ(closed->max_s, 0.0);
}

}  // namespace
}  // namespace breakerlab
