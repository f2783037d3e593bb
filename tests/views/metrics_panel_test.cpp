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
