// The recorded fleet against the replayed one (comparePodLanes), the fleet at a glance from pod
// lanes (fleetLaneOfPods) and the pod lane checks (`every pod`, `pod:NAME`), on hand-made lanes.
#include "breakerlab/core/outcome/pod_lanes.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/fleet.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::s;

// "closed 0-10 open 10-30 closed 30-60" as a lane: states with the boundaries between them.
Lane podLane(std::string name, std::vector<std::pair<std::string, Micros>> steps,
             Micros end = 60 * s) {
  Lane l;
  l.name = std::move(name);
  for (std::size_t i = 0; i < steps.size(); ++i)
    l.append(steps[i].first, steps[i].second, i + 1 < steps.size() ? steps[i + 1].second : end);
  return l;
}

struct CompareCase {
  const char* what;
  std::vector<Lane> recorded;
  std::vector<Lane> replayed;
  Micros tolerance;
  std::size_t matching;
  std::size_t states_match;
  Micros worst;
  bool all;
};

TEST(PodLanes, ComparesPodByPosition) {
  const Lane a = podLane("pod-a", {{"closed", 0}, {"open", 10 * s}, {"closed", 30 * s}});
  const Lane b = podLane(
      "pod-b", {{"closed", 0}, {"open", 12 * s}, {"half-open", 32 * s}, {"closed", 33 * s}});
  const Lane c = podLane("pod-c", {{"closed", 0}});
  const Lane r1 = podLane("pod 1", {{"closed", 0}, {"open", 11 * s}, {"closed", 31 * s}});
  const Lane r2 = podLane(
      "pod 2", {{"closed", 0}, {"open", 14 * s}, {"half-open", 32 * s}, {"closed", 33 * s}});
  const Lane r3 = podLane("pod 3", {{"closed", 0}});
  const Lane r3_open = podLane("pod 3", {{"closed", 0}, {"open", 40 * s}, {"closed", 50 * s}});
  const CompareCase cases[] = {
      {"every pod within 2 s", {a, b, c}, {r1, r2, r3}, 2 * s, 3, 3, 2 * s, true},
      {"pod 2 is 2 s off, 1 s allowed", {a, b, c}, {r1, r2, r3}, 1 * s, 2, 3, 2 * s, false},
      {"pod 3 trips in the replay only", {a, b, c}, {r1, r2, r3_open}, 2 * s, 2, 2, 2 * s, false},
      {"the replay has fewer pods", {a, b, c}, {r1, r2}, 2 * s, 2, 2, 2 * s, false},
      {"the replay has more pods", {a, b}, {r1, r2, r3}, 2 * s, 2, 2, 2 * s, false},
      {"the same lanes, exactly", {a}, {a}, 0, 1, 1, 0, true},
      {"nothing recorded", {}, {r1}, 2 * s, 0, 0, 0, false},
  };
  for (const CompareCase& k : cases) {
    const PodLaneComparison c = comparePodLanes(k.recorded, k.replayed, k.tolerance);
    EXPECT_EQ(c.pods.size(), k.recorded.size()) << k.what;
    EXPECT_EQ(c.matching, k.matching) << k.what;
    EXPECT_EQ(c.states_match, k.states_match) << k.what;
    EXPECT_EQ(c.worst_boundary_error, k.worst) << k.what;
    EXPECT_EQ(c.allMatch(), k.all) << k.what;
  }
}

TEST(PodLanes, TheSummaryNamesTheFirstPodThatDiffers) {
  const Lane a = podLane("10.0.0.7:8080", {{"closed", 0}, {"open", 10 * s}, {"closed", 30 * s}});
  const Lane b = podLane("10.0.0.8:8080", {{"closed", 0}});
  const Lane r1 =
      podLane("pod 1", {{"closed", 0}, {"open", 10500 * kMillisecond}, {"closed", 30 * s}});
  const Lane r2 = podLane("pod 2", {{"closed", 0}, {"open", 40 * s}});
  const PodLaneComparison c = comparePodLanes({a, b}, {r1, r2}, s);
  EXPECT_EQ(c.summary(),
            "1 of 2 pods match; worst boundary 0.5 s off; 10.0.0.8:8080: recorded has 1 "
            "intervals, replayed 2");
  ASSERT_EQ(c.pods.size(), 2u);
  EXPECT_EQ(c.pods[0].replayed, "pod 1");
  EXPECT_TRUE(c.pods[0].comparison.matches);
  EXPECT_FALSE(c.pods[1].states_match);
  EXPECT_EQ(comparePodLanes({a}, {}, s).summary(),
            "0 of 1 pod matches; 0 pods replayed, 1 recorded; 10.0.0.7:8080: the replay has no pod "
            "1 (0 pods replayed)");
}

struct FleetCase {
  const char* what;
  std::vector<Lane> pods;
  Lane expected;
};

TEST(PodLanes, TheFleetIsOpenWhileAnyPodIsOpen) {
  const Lane a =
      podLane("a", {{"closed", 0}, {"open", 10 * s}, {"half-open", 20 * s}, {"closed", 21 * s}});
  const Lane b = podLane("b", {{"closed", 0}, {"open", 15 * s}, {"closed", 40 * s}});
  const Lane c = podLane("c", {{"closed", 0}, {"half-open", 45 * s}, {"closed", 46 * s}});
  const Lane late = podLane("d", {{kPodOutOfService.data(), 0}, {"open", 50 * s}});
  const FleetCase cases[] = {
      {"one pod is its own fleet",
       {a},
       podLane("breaker",
               {{"closed", 0}, {"open", 10 * s}, {"half-open", 20 * s}, {"closed", 21 * s}})},
      {"first open to last closed is one open spell",
       {a, b},
       podLane("breaker", {{"closed", 0}, {"open", 10 * s}, {"closed", 40 * s}})},
      {"half-open while none is open",
       {a, b, c},
       podLane("breaker", {{"closed", 0},
                           {"open", 10 * s},
                           {"closed", 40 * s},
                           {"half-open", 45 * s},
                           {"closed", 46 * s}})},
      {"a pod out of service counts for nothing",
       {c, late},
       podLane("breaker",
               {{"closed", 0}, {"half-open", 45 * s}, {"closed", 46 * s}, {"open", 50 * s}})},
      {"no pods", {}, Lane{"breaker", {}}},
  };
  for (const FleetCase& k : cases) EXPECT_EQ(fleetLaneOfPods(k.pods), k.expected) << k.what;
}

TEST(PodLanes, ALaneCheckNamesEveryPodOrOne) {
  Incident inc;
  inc.recorded.pod_breakers = {
      podLane("pod-a", {{"closed", 0}, {"open", 10 * s}, {"closed", 30 * s}}),
      podLane("pod-b", {{"closed", 0}})};
  Result result;
  result.pod_breakers = {podLane("pod 1", {{"closed", 0}, {"open", 11 * s}, {"closed", 30 * s}}),
                         podLane("pod 2", {{"closed", 0}, {"open", 50 * s}})};
  auto check = [&](std::string name, Micros within) {
    Expectation e;
    e.kind = Expectation::Kind::lane;
    e.lane = std::move(name);
    e.within = within;
    const std::vector<ExpectationResult> r = evaluate({e}, inc, result);
    return std::pair{r[0].passed, r[0].actual};
  };
  EXPECT_EQ(check("pod:pod-a", 2 * s),
            std::pair(true, std::string("matches pod 1; worst boundary 1 s off")));
  EXPECT_EQ(check("pod:pod-a", 0).first, false);
  EXPECT_EQ(check("pod:pod-b", 2 * s),
            std::pair(false, std::string("pod 2: recorded has 1 intervals, replayed 2")));
  EXPECT_EQ(check("pod:pod-z", 2 * s),
            std::pair(false, std::string("no recorded pod lane 'pod-z'")));
  EXPECT_EQ(check("every pod", 2 * s),
            std::pair(false, std::string("1 of 2 pods match; worst boundary 1 s off; pod-b: "
                                         "recorded has 1 intervals, replayed 2")));
  result.pod_breakers[1] = podLane("pod 2", {{"closed", 0}});
  EXPECT_EQ(check("every pod", 2 * s),
            std::pair(true, std::string("2 of 2 pods match; worst boundary 1 s off")));
}

// Importers order recorded pods with podNameLess, so that numbered instances pair with the
// replay's pods in their order (a log's pods "0".."39", Prometheus's "pod-1".."pod-12").
TEST(PodLanes, PodNamesAreOrderedWithTheirNumbersByValue) {
  struct Case {
    const char* a;
    const char* b;
    bool less;
  };
  const Case cases[] = {
      {"9", "10", true},
      {"10", "9", false},
      {"pod-2", "pod-10", true},
      {"pod-10", "pod-2", false},
      {"10.0.0.9:8080", "10.0.0.10:8080", true},
      {"checkout-7f9c-x2", "checkout-7f9c-x10", true},
      {"a", "b", true},
      {"pod", "pod-1", true},  // a prefix first
      {"pod-1", "pod", false},
      {"pod-1", "pod-1", false},  // irreflexive
      {"01", "1", true},          // equal by value: plain text decides
      {"1", "01", false},
      {"pod-007", "pod-8", true},
      {"x", "9", false},  // digits before letters, as in ASCII
      {"-", "0", true},
  };
  for (const Case& c : cases) EXPECT_EQ(podNameLess(c.a, c.b), c.less) << c.a << " < " << c.b;
  std::vector<std::string> names = {"pod-10", "pod-2", "pod-1", "pod-20", "pod-3"};
  std::sort(names.begin(), names.end(), podNameLess);
  EXPECT_EQ(names, (std::vector<std::string>{"pod-1", "pod-2", "pod-3", "pod-10", "pod-20"}));
}

}  // namespace
}  // namespace breakerlab
