// The Sensitivity dock, driven as a user would: the 8 Sep map of the open interval by the health
// poll, a cell clicked into the knobs as one undo step, the marker and the out-of-date note
// following the knobs, and a map of an incident closed meanwhile never shown.
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QUndoStack>
#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <set>
#endif

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/sensitivity_plot.h"
#include "main_window.h"
#include "replay_session.h"
#include "sensitivity_job.h"
#include "sensitivity_panel.h"
#include "test_incident.h"

namespace breakerlab::app {
namespace {

const QString kInterval = QStringLiteral("breaker.open.interval");
const QString kPoll = QStringLiteral("breaker.open.early_probe.poll");

QString orders() {
  return QString::fromStdString(test::resourcePath("incidents/inc-2026-0814-orders.yaml"));
}

struct SensitivityDock : ::testing::Test {
  MainWindow window;
  QStringList errors;

  SensitivityDock() {
    window.setInteractive(false);
    window.setErrorReporter(
        [this](const QString& title, const QString& text) { errors << title + ": " + text; });
    window.resize(1500, 900);
    window.show();
  }
  SensitivityPanel& panel() { return *window.sensitivityPanel(); }
  views::SensitivityPlot& plot() { return *panel().plot(); }

  void open(const QString& path) {
    ASSERT_TRUE(window.openIncident(path)) << errors.join('\n').toStdString();
    settle();
  }
  // 8 Sep with the document's fix (early probe on, 2 s poll).
  void openEarlyProbe() {
    open(QString::fromStdString(test::incidentPath()));
    for (QAction* a : window.findChildren<QAction*>())
      if (a->text() == QStringLiteral("early-probe")) a->trigger();
    settle();
    ASSERT_TRUE(window.session().config().breaker.early_probe);
  }
  void settle() {
    QElapsedTimer waited;
    waited.start();
    while ((window.session().busy() || window.comparison().busy()) && waited.elapsed() < 60'000)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QCoreApplication::processEvents();
  }
  bool waitForMap(int ms = 60'000) {
    QElapsedTimer waited;
    waited.start();
    while (panel().busy() && waited.elapsed() < ms)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QCoreApplication::processEvents();
    return !panel().busy();
  }
  // Every sweep started, superseded ones too, has returned.
  bool waitForSweepsToStop(int ms) {
    QElapsedTimer waited;
    waited.start();
    while (panel().job().sweepsRunning() != 0 && waited.elapsed() < ms)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QCoreApplication::processEvents();
    return panel().job().sweepsRunning() == 0;
  }
  // A small map: 6 values per knob.
  void computeSmallMap() {
    panel().setPoints(6);
    panel().compute();
    ASSERT_TRUE(waitForMap());
    plot().plot()->replot();
  }
};

TEST_F(SensitivityDock, OpensOnItsShortcutWithThe8SepQuestionAsItsDefaults) {
  openEarlyProbe();
  QAction* show = window.action(QStringLiteral("sensitivity"));
  ASSERT_NE(show, nullptr);
  EXPECT_EQ(show->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
  EXPECT_TRUE(window.sensitivityDock()->isHidden()) << "asked for, not shown by default";
  show->trigger();
  EXPECT_FALSE(window.sensitivityDock()->isHidden());
  EXPECT_EQ(panel().xKnob()->currentData().toString(), kInterval);
  EXPECT_EQ(panel().yKnob()->currentData().toString(), kPoll);
  EXPECT_EQ(panel().metricBox()->currentData().toString(),
            QStringLiteral("cached_while_healthy_s"));
  EXPECT_TRUE(panel().notice().isEmpty()) << "the early probe is on: the poll counts";
}

TEST_F(SensitivityDock, ComputesTheMapWithTheGoalsBoundaryAndTheCurrentConfigMarked) {
  openEarlyProbe();
  window.showSensitivity();
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  computeSmallMap();
  ASSERT_EQ(computed.count(), 1);
  const views::SensitivityMap& map = plot().map();
  ASSERT_EQ(map.axes.size(), 2u);
  EXPECT_EQ(map.axes[0].knob->id, kInterval.toStdString());
  EXPECT_EQ(map.axes[1].knob->id, kPoll.toStdString());
  EXPECT_GE(map.cellCount(), 25u);
  EXPECT_LE(map.cellCount(), 36u);
  for (views::CellVerdict v : map.all_goals) EXPECT_NE(v, views::CellVerdict::unknown);
  ASSERT_NE(map.goalOn("cached_while_healthy_s"), nullptr);
  EXPECT_FALSE(plot().goalsBoundary().empty()) << "some cells meet the goals, some do not";
  ASSERT_TRUE(plot().currentMarker());
  EXPECT_EQ(plot().current(), (std::vector<double>{20, 2}));
  EXPECT_FALSE(panel().isStale());
  // The status line wraps before the hint, never inside it (a lone "it" on the last line).
  const auto* status = panel().findChild<QLabel*>(QStringLiteral("sensitivity-status"));
  ASSERT_NE(status, nullptr);
  EXPECT_TRUE(status->text().endsWith(
      QStringLiteral(" ·\u00A0click\u00A0a\u00A0cell\u00A0to\u00A0apply\u00A0it")))
      << status->text().toStdString();
}

TEST_F(SensitivityDock, AClickedCellAppliesBothKnobsAsOneUndoStep) {
  openEarlyProbe();
  window.showSensitivity();
  computeSmallMap();
  const Config before = window.session().config();
  const int steps = window.undoStack()->count();
  const std::size_t cell = 7;
  const std::vector<double> values = plot().map().cellValues(cell);
  ASSERT_NE(values, (std::vector<double>{20, 2}));
  QTest::mouseClick(plot().plot(), Qt::LeftButton, {}, plot().cellCentre(cell).toPoint());
  settle();
  const Config& after = window.session().config();
  EXPECT_DOUBLE_EQ(findKnob(kInterval.toStdString())->get(after), values[0]);
  EXPECT_DOUBLE_EQ(findKnob(kPoll.toStdString())->get(after), values[1]);
  EXPECT_EQ(window.undoStack()->count(), steps + 1);
  // The knobs show it, the marker moved to it, and the map is still the config's.
  EXPECT_DOUBLE_EQ(window.knobs()->config().breaker.early_probe_poll,
                   after.breaker.early_probe_poll);
  EXPECT_EQ(plot().current(), values);
  EXPECT_FALSE(panel().isStale());
  // A second cell is a step of its own.
  QTest::mouseClick(plot().plot(), Qt::LeftButton, {}, plot().cellCentre(cell + 1).toPoint());
  settle();
  EXPECT_EQ(window.undoStack()->count(), steps + 2);
  window.undoStack()->undo();
  window.undoStack()->undo();
  settle();
  EXPECT_TRUE(window.session().config() == before);
  EXPECT_EQ(plot().current(), (std::vector<double>{20, 2}));
}

// A line plot's marker is the current config's own replay, not the nearest computed cell's
// value, and the line passes through it; dragging the mapped knob moves it along.
TEST_F(SensitivityDock, ALinePlotsMarkerIsTheCurrentReplaysOwnValue) {
  openEarlyProbe();
  window.showSensitivity();
  panel().yKnob()->setCurrentIndex(panel().yKnob()->findData(QString()));
  panel().setRange(0, 2, 60, true);
  computeSmallMap();
  const views::SensitivityMap& map = plot().map();
  ASSERT_EQ(map.axes.size(), 1u);
  ASSERT_EQ(std::count(map.axes[0].values.begin(), map.axes[0].values.end(), 20.0), 0)
      << "the deployed 20 s lies between two cells";
  const auto ownValue = [this] {
    return *findMetric("cached_while_healthy_s")->get(window.session().result().metrics);
  };
  const auto expectMarkerAtOwnValue = [&](double interval) {
    QCustomPlot* p = plot().plot();
    ASSERT_TRUE(plot().currentMarker());
    EXPECT_NEAR(plot().currentMarker()->y(), p->yAxis->coordToPixel(ownValue()), 0.5);
    ASSERT_EQ(p->graph(0)->dataCount(), static_cast<int>(map.cellCount()) + 1);
    bool on_line = false;
    for (auto it = p->graph(0)->data()->constBegin(); it != p->graph(0)->data()->constEnd(); ++it)
      on_line = on_line || (it->key == interval && it->value == ownValue());
    EXPECT_TRUE(on_line) << interval;
  };
  expectMarkerAtOwnValue(20);
  Config other = window.session().config();
  other.breaker.open_interval = 25 * kSecond;
  window.applyTuning(QStringLiteral("longer interval"), other, window.session().changes(),
                     window.session().scenario());
  settle();
  ASSERT_FALSE(panel().isStale()) << "only the mapped knob moved";
  expectMarkerAtOwnValue(25);
}

TEST_F(SensitivityDock, AnotherKnobChangedMarksTheMapOutOfDateAndACheapMapRecomputes) {
  openEarlyProbe();
  window.showSensitivity();
  // What is cheap is the panel's bar; a sanitizer build beside other tests may take several
  // times the half second for this 9-cell map.
  panel().setAutoRecomputeSeconds(30);
  computeSmallMap();
  ASSERT_LT(panel().lastSeconds(), panel().autoRecomputeSeconds());
  const std::size_t cells = plot().map().cellCount();
  const auto shorterTtl = [this] {
    Config other = window.session().config();
    other.cache.ttl = 30 * kSecond;
    window.applyTuning(QStringLiteral("shorter ttl"), other, window.session().changes(),
                       window.session().scenario());
  };
  // 8 Sep replays synchronously: the map is out of date the moment the config changes.
  shorterTtl();
  EXPECT_TRUE(panel().isStale());
  EXPECT_TRUE(plot().isStale());
  window.undoStack()->undo();
  EXPECT_FALSE(panel().isStale()) << "back to the config it was computed for";
  // Left out of date, a map this cheap is computed again once the knobs are still.
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  shorterTtl();
  ASSERT_TRUE(panel().isStale());
  QElapsedTimer waited;
  waited.start();
  while (computed.count() == 0 && waited.elapsed() < 10'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  EXPECT_EQ(computed.count(), 1);
  EXPECT_FALSE(panel().isStale());
  EXPECT_EQ(plot().map().cellCount(), cells) << "the same map, of the config as it is now";
}

TEST_F(SensitivityDock, AMapSlowerThanTheBarWaitsForRecompute) {
  openEarlyProbe();
  window.showSensitivity();
  computeSmallMap();
  // Any map takes longer than no time at all.
  panel().setAutoRecomputeSeconds(0);
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  Config other = window.session().config();
  other.cache.ttl = 30 * kSecond;
  window.applyTuning(QStringLiteral("shorter ttl"), other, window.session().changes(),
                     window.session().scenario());
  ASSERT_TRUE(panel().isStale());
  QElapsedTimer waited;
  waited.start();
  while (waited.elapsed() < 4 * SensitivityPanel::kRecomputeDelayMs)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  EXPECT_EQ(computed.count(), 0);
  EXPECT_FALSE(panel().busy());
  EXPECT_TRUE(panel().isStale()) << "out of date until Recompute";
  // One button recomputes: Compute, saying so, beside the notice (not a second button in it).
  auto* button = panel().findChild<QPushButton*>(QStringLiteral("sensitivity-compute"));
  ASSERT_NE(button, nullptr);
  EXPECT_EQ(button->text(), QStringLiteral("Recompute"));
  EXPECT_TRUE(
      panel().findChild<QLabel*>(QStringLiteral("sensitivity-stale"))->isVisibleTo(&panel()));
  int recompute_buttons = 0;
  for (const QPushButton* b : panel().findChildren<QPushButton*>())
    recompute_buttons += b->text() == QStringLiteral("Recompute") ? 1 : 0;
  EXPECT_EQ(recompute_buttons, 1);
  button->click();
  EXPECT_EQ(button->text(), QStringLiteral("Cancel"));
  ASSERT_TRUE(waitForMap());
  EXPECT_FALSE(panel().isStale());
  EXPECT_EQ(button->text(), QStringLiteral("Compute"));
  EXPECT_FALSE(
      panel().findChild<QLabel*>(QStringLiteral("sensitivity-stale"))->isVisibleTo(&panel()));
}

// A user pressed Compute on a whole, up-to-date 14 Aug map, then Cancel, and was left with a
// coarse preview of the map they had.
TEST_F(SensitivityDock, ComputeOnAWholeUpToDateMapKeepsIt) {
  openEarlyProbe();
  window.showSensitivity();
  computeSmallMap();
  const std::size_t cells = plot().map().cellCount();
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  panel().compute();
  EXPECT_FALSE(panel().busy()) << "the same map again: nothing to compute";
  EXPECT_EQ(panel().computeButton()->text(), QStringLiteral("Compute"));
  const QLabel* status = panel().findChild<QLabel*>(QStringLiteral("sensitivity-status"));
  ASSERT_NE(status, nullptr);
  EXPECT_TRUE(status->text().startsWith(QStringLiteral("The map is up to date")))
      << status->text().toStdString();
  EXPECT_EQ(plot().map().cellCount(), cells);
  // Other points are another map.
  panel().setPoints(4);
  panel().compute();
  EXPECT_TRUE(panel().busy());
  ASSERT_TRUE(waitForMap());
  EXPECT_EQ(computed.count(), 1);
  EXPECT_EQ(plot().map().cellCount(), 16u);
  // And so is the same map of another config.
  Config other = window.session().config();
  other.cache.ttl = 30 * kSecond;
  panel().setAutoRecomputeSeconds(0);
  window.applyTuning(QStringLiteral("shorter ttl"), other, window.session().changes(),
                     window.session().scenario());
  ASSERT_TRUE(panel().isStale());
  panel().compute();
  EXPECT_TRUE(panel().busy());
  ASSERT_TRUE(waitForMap());
  EXPECT_EQ(computed.count(), 2);
}

TEST_F(SensitivityDock, SaysWhenTheHealthPollHasNoEffectAndTurnsTheEarlyProbeOn) {
  open(QString::fromStdString(test::incidentPath()));
  window.showSensitivity();
  EXPECT_EQ(panel().yKnob()->currentData().toString(), kPoll) << "the 8 Sep question";
  EXPECT_TRUE(panel().notice().contains(QStringLiteral("no effect")))
      << panel().notice().toStdString();
  ASSERT_TRUE(panel().enableButton()->isVisible());
  const int steps = window.undoStack()->count();
  panel().enableButton()->click();
  settle();
  EXPECT_TRUE(window.session().config().breaker.early_probe);
  EXPECT_EQ(window.undoStack()->count(), steps + 1);
  EXPECT_TRUE(panel().notice().isEmpty());
}

TEST_F(SensitivityDock, A14AugMapStartsOnKnobsThatCount) {
  open(orders());
  window.showSensitivity();
  // The breaker is off in the deployed config: its knobs would map nothing.
  EXPECT_EQ(panel().xKnob()->currentData().toString(), QStringLiteral("timeout.attempt"));
  EXPECT_EQ(panel().yKnob()->currentData().toString(), QStringLiteral("retry.max_attempts"));
  EXPECT_TRUE(panel().notice().isEmpty()) << panel().notice().toStdString();
}

TEST_F(SensitivityDock, ANewIncidentStopsTheMapComputingAndNeverShowsIt) {
  open(orders());
  window.showSensitivity();
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  panel().setPoints(20);
  panel().compute();  // hundreds of 14 Aug replays: seconds
  QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  ASSERT_TRUE(panel().busy());
  open(QString::fromStdString(test::incidentPath()));
  EXPECT_TRUE(plot().map().empty());
  EXPECT_FALSE(panel().busy());
  ASSERT_TRUE(waitForSweepsToStop(30'000)) << "the superseded sweep stops within a cell";
  EXPECT_EQ(computed.count(), 0) << "the 14 Aug map is never handed out";
  EXPECT_TRUE(plot().map().empty());
  // The new incident's own map comes through.
  computeSmallMap();
  EXPECT_EQ(computed.count(), 1);
  EXPECT_EQ(plot().map().axes[0].knob->id, kInterval.toStdString());
}

TEST_F(SensitivityDock, ASlowMapShowsItsWholeShapeWhileItComputesAndStoppingKeepsIt) {
  open(orders());
  window.showSensitivity();
  QSignalSpy previews(&panel().job(), &SensitivityJob::preview);
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  panel().setPoints(20);
  panel().compute();  // 14 Aug, 20 x 10: seconds on one core
  QElapsedTimer waited;
  waited.start();
  while (previews.count() == 0 && panel().busy() && waited.elapsed() < 60'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  QCoreApplication::processEvents();
  ASSERT_GT(previews.count(), 0) << "no preview before the map was done";
  ASSERT_TRUE(panel().busy());
  const views::SensitivityMap& preview = plot().map();
  const std::size_t cells = preview.cellCount();  // 20 call timeouts (fewer on its step) x 10
  ASSERT_GE(cells, 150u);
  EXPECT_GT(preview.preview_cells, 0u);
  EXPECT_LT(preview.preview_cells, cells);
  // Every cell shows a value: its own or its nearest computed cell's.
  for (const views::CellVerdict v : preview.all_goals) EXPECT_NE(v, views::CellVerdict::unknown);
  const QLabel* status = panel().findChild<QLabel*>(QStringLiteral("sensitivity-status"));
  ASSERT_NE(status, nullptr);
  EXPECT_TRUE(status->text().startsWith(
      QStringLiteral("Preview: %1 of %2 cells computed").arg(preview.preview_cells).arg(cells)))
      << status->text().toStdString();
  // The bar above never counts fewer cells than the preview under it says are computed.
  const auto* bar = panel().findChild<QProgressBar*>(QStringLiteral("sensitivity-progress"));
  ASSERT_NE(bar, nullptr);
  EXPECT_GE(bar->value(), static_cast<int>(preview.preview_cells));
  EXPECT_TRUE(bar->text().endsWith(QStringLiteral(" of %1 cells").arg(cells)))
      << bar->text().toStdString();
  EXPECT_EQ(computed.count(), 0);

  panel().cancel();
  ASSERT_TRUE(waitForMap(60'000));
  EXPECT_TRUE(status->text().startsWith(QStringLiteral("Stopped at ")))
      << status->text().toStdString();
  EXPECT_EQ(computed.count(), 0) << "a stopped map is not handed out as whole";
  EXPECT_GT(plot().map().preview_cells, 0u) << "the preview stays";
  EXPECT_EQ(plot().map().cellCount(), cells);
}

#ifdef __linux__
int niceOfThisThread() {
  return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
}

// The nice value of each of this process's threads (field 19 of /proc/self/task/TID/stat).
std::multiset<int> niceOfEachThread() {
  std::multiset<int> nice;
  for (const QString& task : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs)) {
    QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(task));
    if (!stat.open(QIODevice::ReadOnly)) continue;
    const QByteArray text = stat.readAll();
    // The command name, field 2, may hold spaces: count the fields from field 3, after its ')'.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() > 19 - 3) nice.insert(fields[19 - 3].toInt());
  }
  return nice;
}

int lowered(int nice) {
  return std::min(SensitivityJob::kMostNice, nice + SensitivityJob::kExtraThreadsNiceness);
}

// The hook the sweep calls on each thread it starts (Sweep.EachThreadItStartsIsSetUpOnce...)
// lowers the priority of that thread and of any thread it starts.
TEST(SensitivityJobThreads, YieldingLowersThePriorityOfTheThreadAndOfThoseItStarts) {
  const int own = niceOfThisThread();
  int yielded = -100, started = -100;
  std::thread([&] {  // as the sweep's threads are: not QThreads
    SensitivityJob::yieldThisThreadToOthers();
    yielded = niceOfThisThread();
    std::thread([&] { started = niceOfThisThread(); }).join();
  })
      .join();
  EXPECT_EQ(yielded, lowered(own));
  EXPECT_EQ(started, lowered(own));
  EXPECT_EQ(niceOfThisThread(), own) << "another thread's yielding leaves this one alone";
}

// A map of 14 Aug on two threads: while it computes, one of the process's threads runs at the
// lower priority (the one the sweep started), and none is left once the map is done.
TEST(SensitivityJobThreads, AMapOnTwoThreadsRunsOneAtALowerPriority) {
  const int own = niceOfThisThread();
  ASSERT_NE(lowered(own), own) << "this test needs a nice below " << SensitivityJob::kMostNice;
  ASSERT_EQ(niceOfEachThread().count(lowered(own)), 0u);
  auto incident = std::make_shared<const Incident>(
      loadIncident(test::resourcePath("incidents/inc-2026-0814-orders.yaml")));
  SensitivityJob job;
  SensitivityRequest request;
  request.incident = incident;
  request.base = incident->deployed;
  request.knobs = {{findKnob("timeout.attempt"), 200, 10000, true},
                   {findKnob("workers.per_pod"), 10, 100, false}};
  request.points = {3, 2};  // 6 replays of 14 Aug: long enough to see, short under a sanitizer
  request.metrics = {findMetric("failed_pct")};
  request.threads = 2;
  QSignalSpy finished(&job, &SensitivityJob::finished);
  job.start(std::move(request));
  std::size_t most_lowered = 0;
  QElapsedTimer waited;
  waited.start();
  while (job.sweepsRunning() != 0 && waited.elapsed() < 120'000) {
    most_lowered = std::max(most_lowered, niceOfEachThread().count(lowered(own)));
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  ASSERT_EQ(job.sweepsRunning(), 0);
  EXPECT_EQ(finished.count(), 1);
  EXPECT_EQ(most_lowered, 1u) << "one thread of two at the lower priority";
  EXPECT_EQ(niceOfEachThread().count(lowered(own)), 0u) << "the sweep's thread ends with the map";
}
#endif

TEST_F(SensitivityDock, ClosingTheDockStopsTheMapComputing) {
  open(orders());
  window.showSensitivity();
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  panel().setPoints(20);
  panel().compute();
  ASSERT_TRUE(panel().busy());
  window.sensitivityDock()->close();
  ASSERT_TRUE(waitForSweepsToStop(30'000)) << "the sweep stops within a cell";
  EXPECT_EQ(computed.count(), 0);
  EXPECT_EQ(panel().computeButton()->text(), QStringLiteral("Compute"));
}

// Compute right after Cancel starts a new map, while the cancelled sweep may still be finishing
// its cell (longer on a busy machine, for a thread at the lowest priority).
TEST_F(SensitivityDock, ComputeRightAfterCancelStartsANewMap) {
  openEarlyProbe();  // 8 Sep: cheap cells, even under a sanitizer
  window.showSensitivity();
  QSignalSpy computed(&panel(), &SensitivityPanel::computed);
  panel().setPoints(20);
  QTest::mouseClick(panel().computeButton(), Qt::LeftButton);
  ASSERT_EQ(panel().computeButton()->text(), QStringLiteral("Cancel"));
  QTest::mouseClick(panel().computeButton(), Qt::LeftButton);  // Cancel
  ASSERT_EQ(panel().computeButton()->text(), QStringLiteral("Compute"));
  ASSERT_GE(panel().job().sweepsRunning(), 1) << "the cancelled sweep has not returned yet";
  panel().setPoints(3);
  QTest::mouseClick(panel().computeButton(), Qt::LeftButton);  // Compute again
  EXPECT_EQ(panel().computeButton()->text(), QStringLiteral("Cancel"));
  EXPECT_TRUE(panel().busy());
  ASSERT_TRUE(waitForMap(60'000));
  EXPECT_EQ(computed.count(), 1) << "the new map, and only it, comes through";
  EXPECT_EQ(plot().map().cellCount(), 9u);
  ASSERT_TRUE(waitForSweepsToStop(30'000));
}

}  // namespace
}  // namespace breakerlab::app
