#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QImage>
#include <QTest>

#include "breakerlab/core/simulate.h"
#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/lanes_view.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

struct LanesViewTest : ::testing::Test {
  LanesViewTest() : deployed(simulate(test::incident0908(), test::incident0908().deployed)) {
    view.resize(1200, 600);
    view.setIncident(test::incident0908());
    view.setResults(deployed, nullptr);
    view.show();
    view.replotNow();
  }
  Result deployed;
  LanesView view;
};

TEST_F(LanesViewTest, ReplayedBreakerRowHasTheSixRecordedSegments) {
  const auto replayed = view.rowSpans("breaker", RowKind::replayed);
  const auto recorded = view.rowSpans("breaker", RowKind::recorded);
  ASSERT_EQ(replayed.size(), 6u);
  ASSERT_EQ(recorded.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(replayed[i].first, recorded[i].first, 0.5) << i;
    EXPECT_NEAR(replayed[i].second, recorded[i].second, 0.5) << i;
  }
  EXPECT_TRUE(view.rowSpans("breaker", RowKind::baseline).empty()) << "no ghost when untuned";
}

TEST_F(LanesViewTest, BracketsAreLabelledByMeaningFromTheReplay) {
  const auto labels = view.bracketLabels();
  auto has = [&](const std::string& text) {
    return std::find(labels.begin(), labels.end(), text) != labels.end();
  };
  EXPECT_TRUE(has("2.9 s to trip")) << ::testing::PrintToString(labels);
  EXPECT_TRUE(has("open 20 s"));
  EXPECT_TRUE(has("14 s cached while Pricing healthy"));
}

TEST_F(LanesViewTest, LanesArePaintedInTheirStateColours) {
  const QImage image = view.grab().toImage();
  // The middle of the replayed breaker row at t=20 s (open) is red, at t=5 s (closed) green.
  const QRect row = view.rowRect("breaker", RowKind::replayed);
  ASSERT_FALSE(row.isEmpty());
  auto* plot = view.plot();
  auto pixelAt = [&](double seconds) {
    const int x = static_cast<int>(plot->xAxis->coordToPixel(seconds)) + plot->pos().x();
    return image.pixelColor(x, row.center().y());
  };
  EXPECT_EQ(pixelAt(20).rgb(), palette::kBad.rgb());
  EXPECT_EQ(pixelAt(5).rgb(), palette::kGood.rgb());
  EXPECT_EQ(pixelAt(32).rgb(), palette::kWarn.rgb());
  const QRect checkout = view.rowRect("checkout", RowKind::replayed);
  const int x = static_cast<int>(plot->xAxis->coordToPixel(30)) + plot->pos().x();
  EXPECT_EQ(image.pixelColor(x, checkout.center().y()).rgb(), palette::kCached.rgb());
}

TEST_F(LanesViewTest, TunedConfigShowsTheDeployedGhost) {
  Config early = test::incident0908().deployed;
  early.breaker.early_probe = true;
  const Result tuned = simulate(test::incident0908(), early);
  view.setResults(tuned, &deployed);
  EXPECT_EQ(view.rowSpans("breaker", RowKind::baseline).size(), 6u);
  EXPECT_NEAR(view.rowSpans("breaker", RowKind::replayed).back().first, 43.0, 1.0);
}

TEST_F(LanesViewTest, CursorsSnapToStateChangesAndMeasureTheInterval) {
  const double trip = toSeconds(deployed.breaker.intervals[1].from);
  const double reopen = toSeconds(deployed.breaker.intervals[3].from);
  view.setCursorAt(0, trip);
  view.setCursorAt(1, reopen);
  const QString text = view.readoutText();
  EXPECT_TRUE(text.contains(QString("Δt = %1 s").arg(reopen - trip, 0, 'f', 3)))
      << text.toStdString();
  EXPECT_TRUE(view.readoutAt(20).contains("Breaker open")) << view.readoutAt(20).toStdString();
  EXPECT_TRUE(view.readoutAt(20).contains("Pricing connection refused"));

  // Key 1 with the mouse 3 px from the trip edge snaps onto it.
  auto* plot = view.plot();
  const int x = static_cast<int>(plot->xAxis->coordToPixel(trip)) + 3;
  QTest::mouseMove(plot, QPoint(x, plot->axisRect()->center().y()));
  QTest::keyClick(plot, Qt::Key_1);
  ASSERT_TRUE(view.cursorAt(0).has_value());
  EXPECT_DOUBLE_EQ(*view.cursorAt(0), trip);
}

TEST_F(LanesViewTest, ExportsPngSvgAndPdf) {
  const QString dir = QDir::tempPath() + "/breakerlab-lanes-test";
  QDir().mkpath(dir);
  for (const char* suffix : {"png", "svg", "pdf"}) {
    const QString path = dir + "/lanes." + suffix;
    QFile::remove(path);
    QString error;
    ASSERT_TRUE(view.exportImage(path, &error)) << error.toStdString();
    EXPECT_GT(QFileInfo(path).size(), 1000) << suffix;
  }
  QString error;
  EXPECT_FALSE(view.exportImage(dir + "/lanes.bmpx", &error));
  EXPECT_TRUE(error.contains("png"));
}

}  // namespace
}  // namespace breakerlab::views

namespace breakerlab::views {
namespace {

TEST(LanesViewPalette, FollowsADarkPalette) {
  const Result deployed = simulate(test::incident0908(), test::incident0908().deployed);
  LanesView view;
  view.resize(1000, 500);
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x26));
  dark.setColor(QPalette::Base, QColor(0x18, 0x1a, 0x1e));
  dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  view.setPalette(dark);
  view.setIncident(test::incident0908());
  view.setResults(deployed, nullptr);
  view.show();
  view.replotNow();
  const QImage image = view.grab().toImage();
  // Between two lane groups the plot background shows: it is the dark base colour.
  const QRect breaker = view.rowRect("breaker", RowKind::replayed);
  const QPoint gap(breaker.center().x(), breaker.bottom() + 6);
  EXPECT_LT(image.pixelColor(gap).lightness(), 60);
  // The lanes keep their state colours.
  EXPECT_EQ(image.pixelColor(breaker.center()).rgb(), palette::kBad.rgb());  // t=30: open
}

}  // namespace
}  // namespace breakerlab::views
