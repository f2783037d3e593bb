// The sensitivity plot, offscreen: a heatmap of a real sweep on 8 Sep with its goal boundary and
// marker, a line plot of one knob, clicks and the image the CLI saves.
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>
#include <cmath>

#include "breakerlab/core/tuning/sweep.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/views/sensitivity_plot.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

// 8 Sep with the early probe on: the open interval across, the health poll up.
struct PricingMap {
  Incident incident = test::incident0908();
  std::vector<KnobRange> knobs{{findKnob("breaker.open.interval"), 2, 60, true},
                               {findKnob("breaker.open.early_probe.poll"), 0.5, 20, true}};
  std::vector<const MetricInfo*> metrics{findMetric("cached_while_healthy_s")};
  SweepResult sweep;
  SensitivityMap map;

  explicit PricingMap(std::size_t points = 6) {
    incident.deployed.breaker.early_probe = true;
    TuneCase c{&incident, incident.goals, incident.deployed};
    const Evaluator evaluator({c}, metrics);
    const std::size_t p[] = {points, points};
    sweep = breakerlab::sweep(evaluator, knobs, p);
    map = sensitivityMapOf(sweep, knobs, metrics, incident.goals);
  }
};

TEST(SensitivityMap, IsTheSweepsCellsWithEachGoalsVerdict) {
  const PricingMap m;
  ASSERT_EQ(m.map.axes.size(), 2u);
  ASSERT_EQ(m.map.cellCount(), m.sweep.cells.size());
  ASSERT_EQ(m.map.goals.size(), m.incident.goals.size());
  for (const SweepCell& cell : m.sweep.cells) {
    EXPECT_EQ(m.map.cellValues(cell.index), cell.values);
    EXPECT_DOUBLE_EQ(m.map.metrics[0].values[cell.index], cell.evaluation.objectives[0]);
    EXPECT_EQ(m.map.all_goals[cell.index] == CellVerdict::met, cell.evaluation.feasible);
    for (std::size_t g = 0; g < m.map.goals.size(); ++g)
      EXPECT_EQ(m.map.goals[g].cells[cell.index] == CellVerdict::met, cell.evaluation.goals_met[g]);
  }
  const std::size_t place[] = {2, 3};
  EXPECT_EQ(m.map.cellPlace(m.map.cellIndex(place)), (std::vector<std::size_t>{2, 3}));
  EXPECT_NE(m.map.goalOn("cached_while_healthy_s"), nullptr);
  EXPECT_EQ(m.map.goalOn("latency_p99_ms"), nullptr);
}

TEST(SensitivityMap, CellsACancelledSweepLeftOutAreUnknown) {
  PricingMap m;
  m.sweep.cells.resize(5);
  const SensitivityMap map = sensitivityMapOf(m.sweep, m.knobs, m.metrics, m.incident.goals);
  EXPECT_NE(map.all_goals[4], CellVerdict::unknown);
  EXPECT_EQ(map.all_goals[20], CellVerdict::unknown);
  EXPECT_TRUE(std::isnan(map.metrics[0].values[20]));
}

struct ShownPlot : ::testing::Test {
  SensitivityPlot plot;
  ShownPlot() {
    plot.resize(640, 560);
    plot.show();
  }
};

TEST_F(ShownPlot, AHeatmapHasItsCellsColourScaleBoundaryAndMarker) {
  const PricingMap m;
  plot.setMap(m.map);
  plot.setCurrent({20, 2});
  plot.plot()->replot();
  QCustomPlot* p = plot.plot();
  EXPECT_EQ(p->xAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(p->yAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(p->plottableCount(), 2) << "the met cells and the faded missed ones";
  auto* scale = p->findChild<QCPColorScale*>();
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->axis()->label(), QStringLiteral("Cached while healthy (s)"));
  // Every cell is found at its own centre.
  for (std::size_t i = 0; i < m.map.cellCount(); ++i)
    EXPECT_EQ(plot.cellAt(plot.cellCentre(i)), i) << i;
  // The map has both sides of the goal, so a boundary between them.
  EXPECT_FALSE(plot.hatchedCells().empty());
  EXPECT_LT(plot.hatchedCells().size(), m.map.cellCount());
  ASSERT_FALSE(plot.goalsBoundary().empty());
  for (const auto& line : plot.goalsBoundary())
    for (const QPointF& point : line) {
      EXPECT_GE(point.x(), m.map.axes[0].values.front() / 2);
      EXPECT_LE(point.y(), m.map.axes[1].values.back() * 2);
    }
  // The marker is where the cell holding the current config is drawn: on its knob values.
  ASSERT_TRUE(plot.currentMarker());
  EXPECT_NEAR(plot.currentMarker()->x(), p->xAxis->coordToPixel(20), 0.5);
  EXPECT_NEAR(plot.currentMarker()->y(), p->yAxis->coordToPixel(2), 0.5);
  plot.setCurrent({200, 2});
  EXPECT_FALSE(plot.currentMarker()) << "off the map";
  EXPECT_FALSE(plot.currentOnMap());
}

// A user saw a colour bar under the cells with its ticks evenly spaced while the cells were
// coloured by ratio: a tick's place on the bar must be the colour of a cell of that value.
TEST(SensitivityPlotColourScale, IsTickedByRatioBesideTheCellsAndUnderThem) {
  const PricingMap m;
  SensitivityMap map = m.map;
  // Values over a ratio of 64 (the time cached from 0.25 s to 16 s).
  std::vector<double>& values = map.metrics[0].values;
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] =
        0.25 * std::pow(64.0, static_cast<double>(i) / static_cast<double>(values.size() - 1));
  SensitivityPlot plot;
  plot.setMap(map);
  for (const QSize size : {QSize(900, 420), QSize(360, 640), QSize(900, 420)}) {
    plot.resize(size);
    plot.show();
    QCoreApplication::processEvents();
    plot.plot()->replot();
    auto* scale = plot.plot()->findChild<QCPColorScale*>();
    ASSERT_NE(scale, nullptr);
    ASSERT_EQ(scale->dataScaleType(), QCPAxis::stLogarithmic)
        << "values spanning a ratio of 8 or more are coloured by ratio";
    const bool under = size.width() < size.height();
    EXPECT_EQ(scale->type(), under ? QCPAxis::atBottom : QCPAxis::atRight);
    QCPAxis* axis = scale->axis();
    EXPECT_EQ(axis->scaleType(), QCPAxis::stLogarithmic) << size.width() << "x" << size.height();
    // The geometric middle of the range is the middle of the bar.
    const QCPRange range = scale->dataRange();
    const double middle = std::sqrt(range.lower * range.upper);
    const QRect bar = axis->axisRect()->rect();
    const double centre = under ? bar.center().x() : bar.center().y();
    EXPECT_NEAR(axis->coordToPixel(middle), centre, 2.0);
    // Its ticks are the knob-style ones sized for this axis: at least two on the bar.
    int ticks_on_bar = 0;
    for (const double tick : axis->tickVector())
      if (tick >= range.lower && tick <= range.upper) ++ticks_on_bar;
    EXPECT_GE(ticks_on_bar, 2);
    // The bar's colours run along it, under the cells as beside them (the third walkthrough of
    // issue #33: moved under the cells, the bar kept the image drawn for the side, one colour
    // across its whole width).
    const QImage image = plot.plot()->grab().toImage();
    const auto along = [&](double share) {
      return under ? QPoint(bar.left() + static_cast<int>(share * bar.width()), bar.center().y())
                   : QPoint(bar.center().x(), bar.top() + static_cast<int>(share * bar.height()));
    };
    EXPECT_NE(image.pixelColor(along(0.2)), image.pixelColor(along(0.8)))
        << size.width() << "x" << size.height() << ": the bar is one colour along its length";
  }
}

TEST_F(ShownPlot, TheImageShowsTheMetGoalInFullColourAndTheRestFaded) {
  const PricingMap m;
  plot.setMap(m.map);
  plot.setCurrent({20, 2});
  const QImage image = plot.renderImage(QSize(640, 560));
  ASSERT_FALSE(image.isNull());
  // BREAKERLAB_GRAB_SENSITIVITY=file.png keeps the image to look at.
  if (const QByteArray out = qgetenv("BREAKERLAB_GRAB_SENSITIVITY"); !out.isEmpty())
    image.save(QString::fromLocal8Bit(out));
  // A met cell's centre is a saturated colour; a missed cell's is faded towards grey.
  std::optional<std::size_t> met, missed;
  for (std::size_t i = 0; i < m.map.cellCount(); ++i) {
    if (m.map.all_goals[i] == CellVerdict::met && !met) met = i;
    if (m.map.all_goals[i] == CellVerdict::missed && !missed) missed = i;
  }
  ASSERT_TRUE(met && missed);
  const QColor met_colour = image.pixelColor(plot.cellCentre(*met).toPoint() + QPoint(3, 3));
  const QColor missed_colour = image.pixelColor(plot.cellCentre(*missed).toPoint() + QPoint(3, 3));
  EXPECT_GT(met_colour.hsvSaturation(), 100) << met_colour.name().toStdString();
  EXPECT_LT(missed_colour.hsvSaturation(), 90) << missed_colour.name().toStdString();
}

// Fading every cell would only take the contrast away: when no cell meets every goal, all are
// drawn in full colour and the legend says no cell meets them.
TEST_F(ShownPlot, WhenNoCellMeetsEveryGoalNoneIsFaded) {
  PricingMap m;
  EXPECT_TRUE(plot.legendTexts().isEmpty());
  plot.setMap(m.map);
  EXPECT_TRUE(plot.legendTexts().contains(QStringLiteral("misses a goal")));
  EXPECT_FALSE(plot.legendTexts().contains(QStringLiteral("no cell meets every goal")));
  SensitivityMap none_met = m.map;
  std::optional<std::size_t> was_met;
  for (std::size_t i = 0; i < none_met.cellCount(); ++i)
    if (none_met.all_goals[i] == CellVerdict::met) {
      none_met.all_goals[i] = CellVerdict::missed;
      if (!was_met) was_met = i;
    }
  ASSERT_TRUE(was_met);
  plot.setMap(none_met);
  EXPECT_FALSE(plot.anyCellMeetsEveryGoal());
  const QStringList texts = plot.legendTexts();
  EXPECT_TRUE(texts.contains(QStringLiteral("no cell meets every goal")))
      << texts.join(", ").toStdString();
  EXPECT_FALSE(texts.contains(QStringLiteral("misses a goal")));
  EXPECT_FALSE(texts.contains(QStringLiteral("boundary of every goal met")));
  // The coloured metric's own goal still parts the cells: its dashed line is named.
  ASSERT_FALSE(plot.metricGoalBoundary().empty());
  EXPECT_EQ(texts.filter(QStringLiteral("cached while healthy")).size(), 1)
      << texts.join(", ").toStdString();
  const QImage image = plot.renderImage(QSize(640, 560));
  for (std::size_t i = 0; i < none_met.cellCount(); ++i) {
    const QColor colour = image.pixelColor(plot.cellCentre(i).toPoint() + QPoint(3, 3));
    // Viridis' least saturated colour is its dark purple end (about 150 of 255).
    EXPECT_GT(colour.hsvSaturation(), 100) << i << " " << colour.name().toStdString();
  }
}

TEST_F(ShownPlot, AClickOnACellOffersItsKnobValues) {
  const PricingMap m;
  plot.setMap(m.map);
  plot.plot()->replot();
  QSignalSpy chosen(&plot, &SensitivityPlot::cellChosen);
  const std::size_t cell = 7;
  QTest::mouseClick(plot.plot(), Qt::LeftButton, {}, plot.cellCentre(cell).toPoint());
  ASSERT_EQ(chosen.count(), 1);
  EXPECT_EQ(chosen.at(0).at(0).value<std::vector<double>>(), m.map.cellValues(cell));
  // Outside the cells (on the colour scale's side): nothing.
  QTest::mouseClick(plot.plot(), Qt::LeftButton, {}, QPoint(plot.plot()->width() - 5, 20));
  EXPECT_EQ(chosen.count(), 1);
}

TEST_F(ShownPlot, OneKnobIsALineWithTheMissedStretchesAndTheGoalsLevel) {
  PricingMap m;
  m.knobs.pop_back();
  TuneCase c{&m.incident, m.incident.goals, m.incident.deployed};
  const Evaluator evaluator({c}, m.metrics);
  const std::size_t points[] = {12};
  const SweepResult line = sweep(evaluator, m.knobs, points);
  plot.setMap(sensitivityMapOf(line, m.knobs, m.metrics, m.incident.goals));
  plot.setCurrent({20});
  plot.plot()->replot();
  QCustomPlot* p = plot.plot();
  ASSERT_EQ(p->graphCount(), 1);
  EXPECT_EQ(p->graph(0)->dataCount(), static_cast<int>(line.cells.size()));
  EXPECT_EQ(p->xAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(p->yAxis->label(), QStringLiteral("Cached while healthy (s)"));
  // The goal's level (3 s) is in view.
  EXPECT_LE(p->yAxis->range().lower, 3.0);
  EXPECT_GE(p->yAxis->range().upper, 3.0);
  ASSERT_TRUE(plot.currentMarker());
  EXPECT_NEAR(plot.currentMarker()->x(), p->xAxis->coordToPixel(20), 0.5);
  for (std::size_t i = 0; i < line.cells.size(); ++i)
    EXPECT_EQ(plot.cellAt(plot.cellCentre(i)), i) << i;
}

// Between two computed cells the metric can be anything: told the config's own replay, the
// marker sits at its value and the line passes through it; untold, at the nearest cell's value.
TEST_F(ShownPlot, ALinePlotsMarkerIsTheConfigsOwnValueWhenKnown) {
  SensitivityMap map;
  map.axes = {SensitivityAxis{findKnob("breaker.open.interval"), true, {10, 20, 40}}};
  map.metrics = {SensitivityMetric{findMetric("cached_while_healthy_s"), {0, 0, 1}}};
  plot.setMap(map);
  QCustomPlot* p = plot.plot();
  plot.setCurrent({23});
  ASSERT_TRUE(plot.currentMarker());
  EXPECT_NEAR(plot.currentMarker()->y(), p->yAxis->coordToPixel(0), 0.5);
  EXPECT_EQ(p->graph(0)->dataCount(), 3);

  plot.setCurrent({23}, {73});
  ASSERT_TRUE(plot.currentMarker());
  EXPECT_NEAR(plot.currentMarker()->x(), p->xAxis->coordToPixel(23), 0.5);
  EXPECT_NEAR(plot.currentMarker()->y(), p->yAxis->coordToPixel(73), 0.5);
  ASSERT_EQ(p->graph(0)->dataCount(), 4);
  // In order of the knob, between the cells of 20 and 40.
  EXPECT_EQ(p->graph(0)->data()->at(2)->key, 23);
  EXPECT_EQ(p->graph(0)->data()->at(2)->value, 73);
  EXPECT_GE(p->yAxis->range().upper, 73);
  // The stretch at 0 is drawn clear of the axis' own line, 0 still at the foot of the scale.
  EXPECT_LT(p->yAxis->range().lower, 0);
  EXPECT_GT(p->yAxis->range().lower, -0.1 * p->yAxis->range().upper);
  EXPECT_LT(p->yAxis->coordToPixel(0), p->axisRect()->bottom() - 2);

  // Not known (NaN): the nearest cell again, and the line is the map's own.
  plot.setCurrent({23}, {std::nan("")});
  EXPECT_NEAR(plot.currentMarker()->y(), p->yAxis->coordToPixel(0), 0.5);
  EXPECT_EQ(p->graph(0)->dataCount(), 3);
  // On a cell's value the own replay takes the cell's place (a preview's cell may show its
  // neighbour's value): no point added.
  plot.setCurrent({20}, {5});
  EXPECT_EQ(p->graph(0)->dataCount(), 3);
  EXPECT_EQ(p->graph(0)->data()->at(1)->key, 20);
  EXPECT_EQ(p->graph(0)->data()->at(1)->value, 5);
  EXPECT_NEAR(plot.currentMarker()->y(), p->yAxis->coordToPixel(5), 0.5);
  // A new map forgets the old map's own values until told again.
  plot.setCurrent({23}, {73});
  plot.setMap(map);
  EXPECT_EQ(p->graph(0)->dataCount(), 3);
  EXPECT_NEAR(plot.currentMarker()->y(), p->yAxis->coordToPixel(0), 0.5);
}

TEST_F(ShownPlot, WithoutAMapItShowsItsPlaceholder) {
  plot.setPlaceholder(QStringLiteral("Choose a knob and compute"));
  plot.setMap({});
  plot.plot()->replot();
  EXPECT_EQ(plot.plot()->plottableCount(), 0);
  EXPECT_EQ(plot.cellAt(QPointF(100, 100)), std::nullopt);
  EXPECT_FALSE(plot.currentMarker());
  const QImage image = plot.renderImage(QSize(300, 200));
  EXPECT_FALSE(image.isNull());
}

}  // namespace
}  // namespace breakerlab::views
