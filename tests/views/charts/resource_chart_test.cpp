#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QXYSeries>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/resource_chart.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

TEST(ResourceChart, HasNothingToShowForARunWithoutResources) {
  const Incident& incident = test::incident0908();
  const Result r = simulate(incident, incident.deployed);
  ResourceChart chart;
  chart.setResult(r, 0);
  EXPECT_FALSE(chart.hasSeries());
  EXPECT_TRUE(chart.shownNames().isEmpty());
}

TEST(ResourceChart, ShowsOnlyTheSeriesTheRunHas) {
  Result r;
  r.per_second.workers_busy = {1, 4, 9, 2};
  r.per_second.pods_in_rotation = {8, 8, 6, 0};
  r.pods.intervals.push_back({"8 of 8 pods", 0, 4 * kSecond, ""});
  ResourceChart chart;
  chart.setResult(r, 100);
  EXPECT_EQ(chart.shownNames(), QStringList({"workers busy", "pods in rotation"}));
  EXPECT_DOUBLE_EQ(chart.valueAt("workers busy", 102.5), 9.0);
  EXPECT_DOUBLE_EQ(chart.valueAt("pods in rotation", 103.5), 0.0);
  EXPECT_DOUBLE_EQ(chart.valueAt("connections in use", 102.5), -1.0) << "not shown";

  // The next run has none: nothing left to show.
  chart.setResult(Result{}, 100);
  EXPECT_FALSE(chart.hasSeries());
  // And then every series.
  Result all;
  for (auto* s :
       {&all.per_second.workers_busy, &all.per_second.pool_busy, &all.per_second.pending_retries,
        &all.per_second.dependency_load, &all.per_second.pods_in_rotation})
    s->assign(10, 3);
  chart.setResult(all, 0);
  EXPECT_EQ(chart.shownNames(),
            QStringList({"workers busy", "connections in use", "pending retries", "calls in flight",
                         "pods in rotation"}));
}

// Five lines in one chart, each told from the others at a glance (the second walkthrough of
// issue #33: "workers busy" and "calls in flight" were too close to tell apart).
TEST(ResourceChart, EverySeriesColourIsFarFromTheOthers) {
  Result all;
  for (auto* s :
       {&all.per_second.workers_busy, &all.per_second.pool_busy, &all.per_second.pending_retries,
        &all.per_second.dependency_load, &all.per_second.pods_in_rotation})
    s->assign(10, 3);
  ResourceChart chart;
  chart.setResult(all, 0);
  QList<QPair<QString, QColor>> colours;
  for (QAbstractSeries* series : chart.view()->chart()->series())
    if (auto* line = qobject_cast<QXYSeries*>(series))
      colours.append({line->name(), line->color()});
  ASSERT_EQ(colours.size(), 5);
  for (qsizetype i = 0; i < colours.size(); ++i)
    for (qsizetype j = i + 1; j < colours.size(); ++j)
      EXPECT_GE(palette::perceivedDistance(colours[i].second, colours[j].second), 40)
          << colours[i].first.toStdString() << " and " << colours[j].first.toStdString();
  // The scale itself: black and white are 100 apart, a colour and itself 0.
  EXPECT_NEAR(palette::perceivedDistance(Qt::black, Qt::white), 100, 0.01);
  EXPECT_EQ(palette::perceivedDistance(palette::kGood, palette::kGood), 0);
}

TEST(ResourceChart, LongIncidentsAreBinnedKeepingPeaksAndTheFewestPods) {
  Result r;
  const std::size_t seconds = 3 * 3600;
  r.per_second.workers_busy.assign(seconds, 5);
  r.per_second.pods_in_rotation.assign(seconds, 8);
  r.per_second.workers_busy[1001] = 50;     // a one-second peak
  r.per_second.pods_in_rotation[2001] = 3;  // a one-second dip
  ResourceChart chart;
  chart.setResult(r, 0);
  EXPECT_DOUBLE_EQ(chart.valueAt("workers busy", 1001.5), 50.0);
  EXPECT_DOUBLE_EQ(chart.valueAt("workers busy", 5000.5), 5.0);
  EXPECT_DOUBLE_EQ(chart.valueAt("pods in rotation", 2001.5), 3.0);
  EXPECT_DOUBLE_EQ(chart.valueAt("pods in rotation", 5000.5), 8.0);
}

}  // namespace
}  // namespace breakerlab::views
