#include <gtest/gtest.h>

#include "breakerlab/core/simulate.h"
#include "breakerlab/views/outcome_chart.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

TEST(OutcomeChart, StacksFreshCachedAndFailedPerSecond) {
  const Incident& incident = test::incident0908();
  const Result r = simulate(incident, incident.deployed);
  OutcomeChart chart;
  chart.setResult(r, 0);
  // 40 checkouts every second, whatever their outcome.
  EXPECT_DOUBLE_EQ(chart.stackedTopAt(5.5), 40.0);
  EXPECT_DOUBLE_EQ(chart.stackedTopAt(30.5), 40.0);
}

TEST(OutcomeChart, LongIncidentsAreBinned) {
  Result r;
  const std::size_t seconds = 3 * 3600;
  for (auto* v :
       {&r.per_second.checkouts, &r.per_second.fresh, &r.per_second.cached, &r.per_second.failed})
    v->assign(seconds, 0);
  for (std::size_t i = 0; i < seconds; ++i) r.per_second.failed[i] = i < seconds / 2 ? 10 : 0;
  OutcomeChart chart;
  chart.setResult(r, 0);
  EXPECT_DOUBLE_EQ(chart.stackedTopAt(100), 10.0);
  EXPECT_DOUBLE_EQ(chart.stackedTopAt(seconds - 100), 0.0);
}

}  // namespace
}  // namespace breakerlab::views
