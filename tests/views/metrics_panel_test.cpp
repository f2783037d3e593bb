#include <gtest/gtest.h>

#include <QLocale>

#include "breakerlab/core/simulate.h"
#include "breakerlab/views/metrics_panel.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

TEST(MetricsPanel, DeltasAgainstTheDeployedConfigAreColouredByBetterOrWorse) {
  const Incident& incident = test::incident0908();
  const Result deployed = simulate(incident, incident.deployed);
  Config early = incident.deployed;
  early.breaker.early_probe = true;
  const Result tuned = simulate(incident, early);
  MetricsPanel panel;
  panel.setResults(tuned, deployed, evaluate(incident.expect, incident, tuned));
  EXPECT_TRUE(panel.valueText("cached_while_healthy_s").startsWith("2."))
      << panel.valueText("cached_while_healthy_s").toStdString();
  EXPECT_TRUE(panel.deltaText("cached_while_healthy_s").startsWith("-12."));
  EXPECT_EQ(panel.deltaDirection("cached_while_healthy_s"), 1) << "less cached time is better";
  EXPECT_EQ(panel.deltaDirection("dependency_calls"), -1) << "more calls is worse";
  EXPECT_EQ(panel.deltaDirection("failed_checkouts"), 0);
  EXPECT_EQ(panel.valueText("failed_checkouts"), "0");
  // The postmortem's "14 s cached while healthy" no longer holds for the tuned config.
  EXPECT_GE(panel.failedExpectations(), 1);
  const QString text = panel.asText();
  EXPECT_TRUE(text.startsWith("metric\treplay\tdeployed\tdelta\n"));
  EXPECT_TRUE(text.contains("cached_while_healthy_s\t2."));
}

TEST(MetricsPanel, FormatsCountsUnitsAndUndefinedValues) {
  EXPECT_EQ(formatMetric("", 1760.0, true), QLocale::system().toString(1760));
  EXPECT_EQ(formatMetric("s", 14.0906, false), QLocale::system().toString(14.09, 'f', 2) + " s");
  EXPECT_EQ(formatMetric("ms", std::nullopt, false), "—");
}

}  // namespace
}  // namespace breakerlab::views

namespace breakerlab::views {
namespace {

TEST(MetricsPanel, UndefinedMetricsShowADashAndAbsentResourcesAreHidden) {
  const Incident& incident = test::incident0908();
  Result never_trips;  // no checkouts, no breaker: time to trip is undefined
  MetricsPanel panel;
  panel.setResults(never_trips, never_trips, {});
  ASSERT_FALSE(never_trips.metrics.time_to_trip_s.has_value());
  EXPECT_TRUE(panel.isShown("time_to_trip_s"));
  EXPECT_EQ(panel.valueText("time_to_trip_s"), "—");
  EXPECT_EQ(panel.deltaText("time_to_trip_s"), "");

  // The 8 Sep config has no bounded pool, workers or health checks: their rows are hidden,
  // with the counts that are zero for want of them, and the copied text leaves them out.
  const Result deployed = simulate(incident, incident.deployed);
  panel.setResults(deployed, deployed, {});
  for (const char* name :
       {"peak_pool_utilization_pct", "mean_pool_wait_ms", "pool_exhausted",
        "peak_worker_utilization_pct", "worker_rejections", "min_pods_in_rotation", "pod_ejections",
        "no_pod_rejections", "peak_calls_in_flight", "peak_pending_retries"})
    EXPECT_FALSE(panel.isShown(name)) << name;
  EXPECT_TRUE(panel.isShown("failed_checkouts"));
  EXPECT_TRUE(panel.isShown("mean_call_ms"));
  EXPECT_FALSE(panel.asText().contains("peak_pool_utilization_pct"));
  EXPECT_TRUE(panel.asText().contains("failed_checkouts\t0"));

  // A pool in the tuned run only: its rows come back, the deployed column says "—".
  Result pooled = deployed;
  pooled.metrics.peak_pool_utilization_pct = 80.0;
  pooled.metrics.pool_exhausted = 0;
  panel.setResults(pooled, deployed, {});
  EXPECT_TRUE(panel.isShown("peak_pool_utilization_pct"));
  EXPECT_TRUE(panel.isShown("pool_exhausted")) << "zero means something with a pool";
  EXPECT_EQ(panel.valueText("peak_pool_utilization_pct"), formatMetric("%", 80.0, false));
  EXPECT_EQ(panel.deltaText("peak_pool_utilization_pct"), "now defined");
  EXPECT_FALSE(panel.isShown("mean_pool_wait_ms")) << "undefined in both runs";
  EXPECT_FALSE(panel.isShown("min_pods_in_rotation"));
}

}  // namespace
}  // namespace breakerlab::views
