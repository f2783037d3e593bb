// The short lists of metrics (the workbench's headline, a tune's summary, the gate's headline)
// come from the registry's roles: each rank used once, from 1 without a gap.
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "breakerlab/core/outcome/metrics.h"

namespace breakerlab {
namespace {

std::vector<std::string_view> namesIn(MetricList list) {
  std::vector<std::string_view> names;
  for (const MetricInfo* m : metricsIn(list)) names.push_back(m->name);
  return names;
}

TEST(MetricLists, EachListsRanksRunFromOneWithoutGapOrRepeat) {
  for (const MetricList list :
       {MetricList::workbench_headline, MetricList::tune_summary, MetricList::gate_headline}) {
    const std::vector<const MetricInfo*> metrics = metricsIn(list);
    ASSERT_FALSE(metrics.empty());
    for (std::size_t i = 0; i < metrics.size(); ++i)
      EXPECT_EQ(rankIn(*metrics[i], list), i + 1) << metrics[i]->name;
  }
}

TEST(MetricLists, TheWorkbenchLeadsWithFailuresAndTheCachedWindow) {
  // What an on-call engineer reads first: what failed, how long the cache served, and when the
  // breaker tripped and closed.
  const std::vector<std::string_view> headline = namesIn(MetricList::workbench_headline);
  ASSERT_GE(headline.size(), 5u);
  EXPECT_EQ(headline[0], "failed_checkouts");
  EXPECT_EQ(headline[1], "cached_window_s");
  EXPECT_NE(std::find(headline.begin(), headline.end(), "time_to_trip_s"), headline.end());
  EXPECT_NE(std::find(headline.begin(), headline.end(), "time_to_close_after_recovery_s"),
            headline.end());
}

TEST(MetricLists, TheGateLeavesOutTimeToTrip) {
  // docs/ci-gate.md: a change that fails fewer calls trips later, which is no regression.
  const std::vector<std::string_view> gate = namesIn(MetricList::gate_headline);
  EXPECT_EQ(std::find(gate.begin(), gate.end(), "time_to_trip_s"), gate.end());
}

TEST(MetricLists, ARowShowsWhenDefinedWhenItsDashSaysSomethingOrWhenItsResourceExists) {
  Metrics none;  // nothing defined, no resources
  Metrics with_pool = none;
  with_pool.peak_pool_utilization_pct = 40;
  const MetricInfo& trip = *findMetric("time_to_trip_s");
  const MetricInfo& pool_exhausted = *findMetric("pool_exhausted");
  const MetricInfo& pool_peak = *findMetric("peak_pool_utilization_pct");
  const MetricInfo& p99 = *findMetric("latency_p99_ms");  // always defined
  // "—" for time to trip says the breaker never tripped: shown.
  EXPECT_TRUE(metricRowApplies(trip, none, none));
  // A pool count without a pool in either run: hidden; with one in either: shown.
  EXPECT_FALSE(metricRowApplies(pool_exhausted, none, none));
  EXPECT_TRUE(metricRowApplies(pool_exhausted, with_pool, none));
  EXPECT_TRUE(metricRowApplies(pool_exhausted, none, with_pool));
  // Undefined in both (no pool): hidden; defined in one: shown.
  EXPECT_FALSE(metricRowApplies(pool_peak, none, none));
  EXPECT_TRUE(metricRowApplies(pool_peak, none, with_pool));
  EXPECT_TRUE(metricRowApplies(p99, none, none));
}

}  // namespace
}  // namespace breakerlab
