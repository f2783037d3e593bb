// How the goals verdict names the metrics a config regresses: in the incident's words, lower-case
// within the sentence, in the gate's order (core/outcome/metric_compare.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "breakerlab/core/outcome/metric_compare.h"

namespace breakerlab {
namespace {

MetricComparison regressionOf(const MetricInfo* metric) {
  MetricComparison c;
  c.metric = metric;
  c.verdict = MetricVerdict::regression;
  return c;
}

TEST(RegressedMetricsText, NamesEachMetricAsTheSentenceReadsIt) {
  const MetricInfo acronym{
      "io_wait_s", "IO wait", "s", "", nullptr, MetricDirection::lower_is_better, false, {}};
  struct Case {
    std::vector<const MetricInfo*> metrics;
    std::string dependency;
    std::string text;
  };
  const Case cases[] = {
      {{}, "Pricing", ""},
      {{findMetric("failed_checkouts")}, "Pricing", "failed checkouts"},
      {{findMetric("failed_checkouts"), findMetric("oldest_cached_price_s")},
       "Pricing",
       "failed checkouts, oldest cached price"},
      // An incident about another dependency reads its own answers (issue #33, item 12).
      {{findMetric("oldest_cached_price_s")}, "Inventory", "oldest cached Inventory answer"},
      // A label that starts with an acronym keeps its capitals.
      {{&acronym}, "Pricing", "IO wait"},
  };
  for (const Case& c : cases) {
    std::vector<MetricComparison> regressed;
    for (const MetricInfo* m : c.metrics) {
      ASSERT_NE(m, nullptr);
      regressed.push_back(regressionOf(m));
    }
    EXPECT_EQ(regressedMetricsText(regressed, dependencyWords(c.dependency)), c.text)
        << c.dependency;
  }
}

// headlineRegressions lists only what moved the wrong way beyond its tolerance, in the gate's
// order; a better or equal run names nothing.
TEST(RegressedMetricsText, OnlyRegressionsBeyondTheToleranceAreNamed) {
  Metrics base;
  base.failed_checkouts = 100;
  Metrics head = base;
  EXPECT_TRUE(headlineRegressions(base, head).empty());
  head.failed_checkouts = 50;
  EXPECT_TRUE(headlineRegressions(base, head).empty()) << "fewer failures is better";
  head.failed_checkouts = 200;
  const std::vector<MetricComparison> worse = headlineRegressions(base, head);
  ASSERT_FALSE(worse.empty());
  EXPECT_EQ(worse.front().metric->name, "failed_checkouts");
  EXPECT_EQ(regressedMetricsText(worse, dependencyWords("Pricing")).rfind("failed checkouts", 0),
            0u);
}

}  // namespace
}  // namespace breakerlab
