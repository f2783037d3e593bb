#include <gtest/gtest.h>

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QImage>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/views/lane_colors.h"
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

// Each band of the stack shows its own outcome's colour: fresh at the bottom, cached above it,
// failed on top, and nothing above the total.
TEST(OutcomeChart, TheStackShowsFreshThenCachedThenFailedFromTheBottom) {
  Result r;
  const std::size_t seconds = 60;
  r.per_second.checkouts.assign(seconds, 30);
  r.per_second.fresh.assign(seconds, 10);
  r.per_second.cached.assign(seconds, 10);
  r.per_second.failed.assign(seconds, 10);
  OutcomeChart chart;
  chart.resize(800, 400);
  chart.show();
  chart.setResult(r, 0);
  const QImage image = chart.grab().toImage();
  QAbstractSeries* series = chart.chart()->series().front();
  const auto colourAt = [&](double t, double per_second) {
    const QPointF scene = chart.chart()->mapToPosition(QPointF(t, per_second), series);
    const QPoint in_view = chart.view()->mapFromScene(scene);
    return image.pixelColor(chart.view()->viewport()->mapTo(&chart, in_view));
  };
  for (const double t : {5.0, 30.0, 55.0}) {
    EXPECT_EQ(colourAt(t, 5), palette::kGood) << t;
    EXPECT_EQ(colourAt(t, 15), palette::kCached) << t;
    EXPECT_EQ(colourAt(t, 25), palette::kBad) << t;
    const QColor above = colourAt(t, 31);
    EXPECT_NE(above, palette::kBad) << t;
    EXPECT_NE(above, palette::kCached) << t;
    EXPECT_NE(above, palette::kGood) << t;
  }
}

}  // namespace
}  // namespace breakerlab::views
