// Scenario overrides of the incident: source 000's "in a longer outage cache entries expire and
// checkouts fail with 503", shown with a longer outage and the deployed TTL.
#include <gtest/gtest.h>

#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"

namespace breakerlab {
namespace {

const Incident& pricing0908() {
  static const Incident inc =
      loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/inc-2026-0908-pricing.yaml");
  return inc;
}

std::size_t cacheMisses(const Result& r) {
  std::size_t n = 0;
  for (const CheckoutRecord& c : r.checkouts) n += c.reason == FailReason::cache_miss;
  return n;
}

TEST(Scenario, ALongerOutageStretchesItsLongestSegmentAndMovesWhatFollows) {
  Scenario longer;
  longer.outage_extend = 20 * kSecond;
  const Incident inc = applyScenario(pricing0908(), longer);
  ASSERT_EQ(inc.dependency.segments.size(), pricing0908().dependency.segments.size());
  // healthy 0-8 | timing out 8-14 | connection refused 14-37 | warming pool 37-41 | healthy
  EXPECT_EQ(inc.dependency.segments[1].to, 14 * kSecond);
  EXPECT_EQ(inc.dependency.segments[2].from, 14 * kSecond);
  EXPECT_EQ(inc.dependency.segments[2].to, 57 * kSecond);
  EXPECT_EQ(inc.dependency.segments[3].from, 57 * kSecond);
  EXPECT_EQ(inc.dependency.segments[4].to, 80 * kSecond);
  EXPECT_EQ(inc.end, 80 * kSecond);
  EXPECT_EQ(inc.traffic.rate.back().to, 80 * kSecond);
  // The health check stays red through the longer outage.
  for (const HealthSpan& h : inc.dependency.health)
    if (h.health == Health::red) {
      EXPECT_EQ(h.to, 61 * kSecond);
    }
  EXPECT_TRUE(validate(inc).empty()) << validate(inc);
  EXPECT_TRUE(scenarioProblem(pricing0908(), longer).empty());
}

TEST(Scenario, InALongerOutageTheDeployedTtlExpiresAndCheckoutsFailWithCacheMiss) {
  const Incident& deployed = pricing0908();
  EXPECT_EQ(cacheMisses(simulate(deployed, deployed.deployed)), 0u);
  // The cache serves for the TTL (60 s) after the last fresh price, about t = 11 s: an outage
  // 20 s longer outlasts it.
  Scenario longer;
  longer.outage_extend = 20 * kSecond;
  const Incident inc = applyScenario(deployed, longer);
  const Result r = simulate(inc, inc.deployed);
  EXPECT_GT(cacheMisses(r), 100u);
  EXPECT_EQ(r.metrics.failed_checkouts, cacheMisses(r));
  // None before the TTL has run out since the breaker opened.
  for (const CheckoutRecord& c : r.checkouts)
    if (c.reason == FailReason::cache_miss) {
      EXPECT_GE(c.arrival, 60 * kSecond);
    }
  // The same outage with the deployed length: none.
  Scenario a_little;
  a_little.outage_extend = 5 * kSecond;
  EXPECT_EQ(cacheMisses(simulate(applyScenario(deployed, a_little), deployed.deployed)), 0u);
}

TEST(Scenario, FactorsScaleTrafficLatencyAndCapacity) {
  Scenario s;
  s.traffic_scale = 2;
  s.latency_scale = 3;
  const Incident inc = applyScenario(pricing0908(), s);
  EXPECT_EQ(inc.traffic.rate.front().rps_from, 2 * pricing0908().traffic.rate.front().rps_from);
  EXPECT_EQ(inc.dependency.segments.front().latency_start.p50,
            3 * pricing0908().dependency.segments.front().latency_start.p50);
  const Result r = simulate(inc, inc.deployed);
  EXPECT_NEAR(static_cast<double>(r.metrics.checkouts), 4800, 10);
  Incident capped = pricing0908();
  capped.dependency.capacity.concurrency = 10;
  s = Scenario{};
  s.capacity_scale = 2.5;
  EXPECT_EQ(applyScenario(capped, s).dependency.capacity.concurrency, 25u);
  EXPECT_TRUE(Scenario{}.empty());
  EXPECT_FALSE(s.empty());
}

TEST(Scenario, RecordedArrivalsCannotBeStretched) {
  Incident recorded = pricing0908();
  recorded.traffic.arrivals = ArrivalProcess::recorded;
  Scenario s;
  s.outage_extend = kSecond;
  EXPECT_NE(scenarioProblem(recorded, s).find("recorded arrivals"), std::string::npos);
}

}  // namespace
}  // namespace breakerlab
