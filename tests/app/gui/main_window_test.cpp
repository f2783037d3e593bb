// The workbench as a user drives it: open, drag knobs, undo, export, break a file.
#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QAction>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QCursor>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsTextItem>
#include <QGroupBox>
#include <QLabel>
#include <QLegendMarker>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUndoStack>
#include <QValueAxis>

#include <map>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/native_config.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/state_table.h"
#include "breakerlab/views/changes_panel.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/lanes_view.h"
#include "breakerlab/views/metrics_panel.h"
#include "breakerlab/views/outcome_chart.h"
#include "breakerlab/views/resource_chart.h"
#include "breakerlab/views/scenario_panel.h"
#include "charts/per_second_chart.h"
#include "import_report_dialog.h"
#include "main_window.h"
#include "replay_session.h"
#include "settings_keys.h"
#include "settle_window.h"
#include "shown_pixels.h"
#include "test_incident.h"

namespace breakerlab::app {
namespace {

double metricValue(const MainWindow& w, const char* name) {
  return *findMetric(name)->get(w.session().result().metrics);
}

struct Workbench : ::testing::Test {
  Workbench() {
    window.setInteractive(false);
    window.setErrorReporter([this](const QString&, const QString& text) { errors << text; });
    window.resize(1500, 900);
    window.show();
  }
  MainWindow window;
  QStringList errors;
};

// On the start page nothing acts on an incident: the actions that would (and their shortcuts)
// are off until one is open, the import report until an imported one is.
TEST_F(Workbench, ActionsOnTheIncidentAreOffUntilOneIsOpen) {
  const char* need_incident[] = {"reload",         "save-incident", "import-config", "export-lanes",
                                 "copy-metrics",   "reset",         "fit",           "workbench",
                                 "export-library", "export-0",      "import-report"};
  for (const char* name : need_incident) {
    QAction* a = window.action(QString::fromLatin1(name));
    ASSERT_NE(a, nullptr) << name;
    EXPECT_FALSE(a->isEnabled()) << name;
  }
  EXPECT_TRUE(window.action("open")->isEnabled());
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  for (const char* name : need_incident) {
    const bool expected = std::string(name) != "import-report" &&  // not imported
                          std::string(name) != "export-library";   // BreakerLab's own model
    EXPECT_EQ(window.action(QString::fromLatin1(name))->isEnabled(), expected) << name;
  }
}

TEST_F(Workbench, OpeningTheIncidentShowsTheSixRecordedBreakerSegments) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  const auto replayed = window.lanes()->rowSpans("breaker", views::RowKind::replayed);
  const auto recorded = window.lanes()->rowSpans("breaker", views::RowKind::recorded);
  ASSERT_EQ(replayed.size(), 6u);
  for (std::size_t i = 0; i < replayed.size(); ++i) {
    EXPECT_NEAR(replayed[i].first, recorded[i].first, 0.5);
    EXPECT_NEAR(replayed[i].second, recorded[i].second, 0.5);
  }
  EXPECT_TRUE(window.windowTitle().contains("INC-2026-0908"));
  EXPECT_EQ(window.metrics()->failedExpectations(), 0);
}

TEST_F(Workbench, DraggingTheOpenIntervalUpdatesMetricsAndLanesAndUndoRestoresThem) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  const QString before = window.metrics()->valueText("cached_while_healthy_s");
  const double before_s = metricValue(window, "cached_while_healthy_s");
  QSlider* slider = window.knobs()->slider("breaker.open.interval");
  const int start = slider->value();
  // A drag: many small steps, each replayed at once, down to 14 s (the slider runs by ratio).
  for (int p = start - 1; window.session().config().breaker.open_interval > 14 * kSecond; --p) {
    ASSERT_GT(p, 0);
    const Micros before_step = window.session().config().breaker.open_interval;
    slider->setValue(p);
    EXPECT_LE(window.session().config().breaker.open_interval, before_step);
  }
  EXPECT_EQ(window.session().config().breaker.open_interval, 14 * kSecond);
  const double after_s = metricValue(window, "cached_while_healthy_s");
  EXPECT_LT(after_s, before_s - 3) << "a 14 s open interval probes sooner after recovery";
  EXPECT_NE(window.metrics()->valueText("cached_while_healthy_s"), before);
  EXPECT_NEAR(window.lanes()->rowSpans("breaker", views::RowKind::replayed)[1].second -
                  window.lanes()->rowSpans("breaker", views::RowKind::replayed)[1].first,
              14.0, 1e-6);
  EXPECT_EQ(window.lanes()->rowSpans("breaker", views::RowKind::baseline).size(), 6u)
      << "the deployed config is drawn as a ghost";
  EXPECT_EQ(window.undoStack()->count(), 1) << "one drag, one undo step";

  window.undoStack()->undo();
  EXPECT_EQ(window.metrics()->valueText("cached_while_healthy_s"), before);
  EXPECT_EQ(window.session().config(), window.session().incident().deployed);
  EXPECT_EQ(slider->value(), start);
  window.undoStack()->redo();
  EXPECT_NEAR(metricValue(window, "cached_while_healthy_s"), after_s, 1e-9);
}

// A knob moved off the deployed config is marked; its reset is one more undo step, like a drag.
TEST_F(Workbench, AKnobsResetToDeployedIsUndoable) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  views::KnobPanel* knobs = window.knobs();
  const QString id = QStringLiteral("fallback.cache.ttl");
  EXPECT_FALSE(knobs->isMarked(id));
  knobs->spinBox(id)->setValue(30);
  EXPECT_TRUE(knobs->isMarked(id));
  EXPECT_EQ(window.session().config().cache.ttl, 30 * kSecond);
  knobs->resetToDeployed(id);
  EXPECT_EQ(window.session().config(), window.session().incident().deployed);
  EXPECT_FALSE(knobs->isMarked(id));
  EXPECT_EQ(window.undoStack()->count(), 2) << "the change, then the reset";
  window.undoStack()->undo();
  EXPECT_EQ(window.session().config().cache.ttl, 30 * kSecond);
  EXPECT_TRUE(knobs->isMarked(id)) << "undo marks it again";
  window.undoStack()->undo();
  EXPECT_FALSE(knobs->isMarked(id));
}

TEST_F(Workbench, TheEarlyProbeBringsCachedWhileHealthyToAboutTwoSeconds) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  window.knobs()->checkBox("breaker.open.early_probe.enabled")->setChecked(true);
  EXPECT_NEAR(metricValue(window, "cached_while_healthy_s"), 2.0, 1.0);
  EXPECT_EQ(window.metrics()->deltaDirection("cached_while_healthy_s"), 1);
  EXPECT_TRUE(window.windowTitle().startsWith("*")) << "tuned";
  window.action("reset")->trigger();
  EXPECT_NEAR(metricValue(window, "cached_while_healthy_s"), 14.0, 1.0);
  EXPECT_FALSE(window.knobs()->checkBox("breaker.open.early_probe.enabled")->isChecked());
  window.undoStack()->undo();  // undo the reset
  EXPECT_TRUE(window.knobs()->checkBox("breaker.open.early_probe.enabled")->isChecked());
}

TEST_F(Workbench, ExportedBreakerLabYamlReimportsToTheSameConfig) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  window.knobs()->checkBox("breaker.open.early_probe.enabled")->setChecked(true);
  window.knobs()->slider("fallback.cache.ttl")->setValue(45);
  QTemporaryDir dir;
  const QString yaml = dir.filePath("tuned.yaml");
  ASSERT_TRUE(window.exportConfigTo(yaml, ExportTarget::breakerlab_yaml));
  EXPECT_EQ(loadConfig(yaml.toStdString()), window.session().config());

  const QString spring = dir.filePath("application.yml");
  ASSERT_TRUE(window.exportConfigTo(spring, ExportTarget::resilience4j));
  QFile file(spring);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(file.readAll());
  for (const char* key : {"resilience4j:", "circuitbreaker:", "instances:", "slidingWindowSize: 20",
                          "failureRateThreshold: 50", "waitDurationInOpenState: 20s",
                          "permittedNumberOfCallsInHalfOpenState: 3", "timeoutDuration: 800ms"})
    EXPECT_TRUE(text.contains(key)) << key << "\n" << text.toStdString();
  EXPECT_TRUE(text.contains("early probe")) << "the export says what resilience4j cannot express";
}

TEST_F(Workbench, ABrokenIncidentShowsTheErrorAndKeepsThePreviousOne) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  const Result before = window.session().result();
  EXPECT_FALSE(
      window.openIncident(QStringLiteral(BREAKERLAB_TEST_FIXTURES) + "/broken-incident.yaml"));
  ASSERT_EQ(errors.size(), 1);
  EXPECT_TRUE(errors.front().contains(QRegularExpression("broken-incident\\.yaml:\\d+:\\d+: ")))
      << errors.front().toStdString();
  EXPECT_EQ(window.session().incident().id, "INC-2026-0908");
  EXPECT_EQ(window.session().result().breaker, before.breaker);
  EXPECT_FALSE(window.openIncident("/no/such/incident.yaml"));
  EXPECT_EQ(errors.size(), 2);
}

// 8 Sep open with the early probe turned on: a tuning neither exported nor saved.
Config openTunedAwayFromDeployed(MainWindow& window) {
  EXPECT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  Config tuned = window.session().incident().deployed;
  tuned.breaker.early_probe = true;
  EXPECT_TRUE(window.applyTuning(QStringLiteral("early probe"), tuned, window.session().changes(),
                                 window.session().scenario()));
  settleWindow(window);
  return tuned;
}

// With the knobs tuned, a file that does not open is said without asking about the tuning
// first (issue #33: the user confirmed Discard, then got a parse error); a file that opens is
// asked about, and Cancel keeps the incident and the tuning.
TEST_F(Workbench, TheTuningIsAskedAboutOnlyOnceTheFileIsKnownToOpen) {
  const Config tuned = openTunedAwayFromDeployed(window);
  ASSERT_TRUE(window.tuningWouldBeLost());
  QStringList asked;
  MainWindow::UnsavedTuningChoice answer = MainWindow::UnsavedTuningChoice::cancel;
  window.setUnsavedTuningPrompt([&](const QString& text) {
    asked << text;
    return answer;
  });

  EXPECT_FALSE(
      window.openIncident(QStringLiteral(BREAKERLAB_TEST_FIXTURES) + "/broken-incident.yaml"));
  EXPECT_TRUE(asked.isEmpty()) << "asked before the file was read: "
                               << asked.join('\n').toStdString();
  ASSERT_EQ(errors.size(), 1);
  EXPECT_TRUE(window.tuningWouldBeLost()) << "the tuning is still there";

  const QString orders =
      QStringLiteral(BREAKERLAB_RESOURCES "/incidents/inc-2026-0814-orders.yaml");
  EXPECT_FALSE(window.openIncident(orders));
  ASSERT_EQ(asked.size(), 1);
  EXPECT_TRUE(asked.front().contains("Save exports it to a config file"))
      << asked.front().toStdString();
  EXPECT_EQ(window.session().incident().id, "INC-2026-0908");
  EXPECT_EQ(window.session().config(), tuned);

  answer = MainWindow::UnsavedTuningChoice::discard;
  EXPECT_TRUE(window.openIncident(orders));
  EXPECT_EQ(asked.size(), 2);
  EXPECT_EQ(window.session().incident().id, "INC-2026-0814");
  EXPECT_EQ(errors.size(), 1);
}

// The walkthrough after the fix above: with the progress dialog of an interactive open, the
// question came up and, half a second later, the progress dialog over it ("Opening…", Stop),
// waiting on the question it hid. While the user reads the question no progress dialog shows,
// and after the answer the incident opens.
TEST_F(Workbench, NoProgressDialogComesUpOverTheQuestionOnTheTuning) {
  openTunedAwayFromDeployed(window);
  ASSERT_TRUE(window.tuningWouldBeLost());
  window.setInteractive(true);  // the progress dialog of a user's open
  int progress_shown_while_asked = -1;
  window.setUnsavedTuningPrompt([&](const QString&) {
    test::processEventsFor(900);  // reading the question, past the dialog's 500 ms
    progress_shown_while_asked = 0;
    for (const QProgressDialog* dialog : window.findChildren<QProgressDialog*>())
      if (dialog->isVisible()) ++progress_shown_while_asked;
    return MainWindow::UnsavedTuningChoice::discard;
  });
  // A postmortem: its import calibrates, with progress.
  EXPECT_TRUE(window.openIncident(
      QStringLiteral(BREAKERLAB_RESOURCES "/postmortems/inc-2026-0908-pricing-postmortem.md")));
  window.setInteractive(false);
  EXPECT_EQ(progress_shown_while_asked, 0);
  EXPECT_TRUE(window.session().isImported());
}

TEST_F(Workbench, TheRenderedWindowShowsTheLanesInTheirColours) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  window.lanes()->replotNow();
  const QImage image = window.grab().toImage();
  const QRect row = window.lanes()->rowRect("breaker", views::RowKind::replayed);
  const QPoint origin = window.lanes()->mapTo(&window, QPoint(0, 0));
  auto* plot = window.lanes()->plot();
  auto at = [&](double seconds) {
    const int x = static_cast<int>(plot->xAxis->coordToPixel(seconds)) + plot->pos().x();
    return image.pixelColor(origin + QPoint(x, row.bottom() - 2)).rgb();  // below the names
  };
  EXPECT_EQ(at(5), views::palette::kGood.rgb());
  EXPECT_EQ(at(20), views::palette::kBad.rgb());
  EXPECT_EQ(at(54), views::palette::kProbing.rgb());
}

TEST_F(Workbench, TheResourceChartAndPodsLaneAppearOnlyWhenTheRunHasThem) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  // 8 Sep: unlimited workers and pool, one pod: no resource chart, no pods row, no rows of
  // dashes for resources in the metrics.
  EXPECT_FALSE(window.resources()->isVisibleTo(&window));
  EXPECT_TRUE(window.chart()->isVisibleTo(&window));
  EXPECT_TRUE(window.lanes()->rowRect("pods", views::RowKind::replayed).isEmpty());
  EXPECT_FALSE(window.metrics()->isShown("peak_worker_utilization_pct"));

  // Four pods of 20 workers behind a health-checking load balancer.
  window.knobs()->spinBox("load_balancer.pods")->setValue(4);
  window.knobs()->spinBox("workers.per_pod")->setValue(20);
  window.knobs()->checkBox("load_balancer.health_check.enabled")->setChecked(true);
  EXPECT_TRUE(window.session().config().load_balancer.health_check.enabled);
  EXPECT_TRUE(window.resources()->isVisibleTo(&window));
  const QStringList shown = window.resources()->shownNames();
  EXPECT_TRUE(shown.contains("workers busy")) << shown.join(", ").toStdString();
  EXPECT_TRUE(shown.contains("pods in rotation")) << shown.join(", ").toStdString();
  EXPECT_GT(window.resources()->height(), 40);
  EXPECT_FALSE(window.lanes()->rowSpans("pods", views::RowKind::replayed).empty());
  EXPECT_TRUE(window.metrics()->isShown("peak_worker_utilization_pct"));
  EXPECT_TRUE(window.metrics()->isShown("min_pods_in_rotation"));

  // The chart follows the lanes' zoom like the outcome chart.
  window.lanes()->plot()->xAxis->setRange(10, 30);
  const auto* x =
      qobject_cast<QValueAxis*>(window.resources()->view()->chart()->axes(Qt::Horizontal).value(0));
  ASSERT_NE(x, nullptr);
  EXPECT_DOUBLE_EQ(x->min(), 10.0);
  EXPECT_DOUBLE_EQ(x->max(), 30.0);

  window.action("reset")->trigger();
  EXPECT_FALSE(window.resources()->isVisibleTo(&window));
  EXPECT_TRUE(window.lanes()->rowRect("pods", views::RowKind::replayed).isEmpty());
}

TEST_F(Workbench, RemembersRecentFilesAndRestoresTheLayout) {
  const QString path = QFileInfo(QString::fromStdString(test::incidentPath())).absoluteFilePath();
  ASSERT_TRUE(window.openIncident(path));
  EXPECT_EQ(QSettings().value("files/recent").toStringList().value(0), path);
  // The one folder shared by every kind of file is gone: it held other checkouts' folders.
  EXPECT_FALSE(QSettings().contains("files/lastFolder"));
  window.resize(1234, 777);
  window.close();  // saves geometry and splitters
  MainWindow again;
  again.setInteractive(false);
  EXPECT_EQ(again.size(), QSize(1234, 777));
  const auto recent = again.findChildren<QAction*>();
  EXPECT_TRUE(std::any_of(recent.begin(), recent.end(), [&](QAction* a) {
    return a->text().endsWith(path);
  })) << "File > Open Recent lists it";
}

TEST_F(Workbench, ImportingTheLessonsGobreakerFileReplaysGobreakersLanes) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  QStringList notes;
  const QString go = QString::fromStdString(test::resourcePath("configs/lesson-gobreaker.go"));
  ASSERT_TRUE(window.importConfigFrom(go, &notes)) << errors.join('\n').toStdString();
  const Config& c = window.session().config();
  EXPECT_EQ(c.breaker.library, BreakerLibrary::gobreaker);
  EXPECT_EQ(c.native.gobreaker.timeout, 10 * kSecond);
  ASSERT_FALSE(notes.isEmpty()) << "Name comes from a variable";
  EXPECT_TRUE(notes[0].startsWith("lesson-gobreaker.go:25:")) << notes[0].toStdString();

  // 5 consecutive failures trip it; each open spell lasts the 10 s Timeout and ends lazily with
  // one trial; the lane says whose rules made it.
  const auto spans = window.lanes()->rowSpans("breaker", views::RowKind::replayed);
  ASSERT_GE(spans.size(), 5u);
  EXPECT_NEAR(spans[1].second - spans[1].first, 10.0, 0.1) << "open 10 s, then the next call";
  EXPECT_EQ(window.metrics()->failedExpectations(), 0)
      << "the 8 Sep lanes differ, but calibration is the deployed config's";
  const QString ticks = window.lanes()->rowTitles().join('|');
  EXPECT_TRUE(ticks.contains("Breaker · gobreaker")) << ticks.toStdString();

  // The knobs are gobreaker's own now; the generic machine's are hidden.
  views::KnobPanel* knobs = window.knobs();
  EXPECT_TRUE(knobs->spinBox("gobreaker.Timeout")->isVisibleTo(&window));
  EXPECT_DOUBLE_EQ(knobs->spinBox("gobreaker.Timeout")->value(), 10.0);
  EXPECT_FALSE(knobs->spinBox("breaker.open.interval")->isVisibleTo(&window));
  EXPECT_EQ(knobs->comboBox("breaker.library")->currentText(), "gobreaker");

  // Exports: gobreaker's own file (and BreakerLab YAML), not another library's.
  EXPECT_TRUE(window.action("export-library")->isEnabled());
  EXPECT_FALSE(
      window.action(QStringLiteral("export-%1").arg(static_cast<int>(ExportTarget::resilience4j)))
          ->isEnabled());
  QTemporaryDir dir;
  const QString out = dir.filePath("pricing.go");
  ASSERT_TRUE(window.exportConfigTo(out, ExportTarget::gobreaker));
  const NativeConfig back = loadNativeConfig(out.toStdString());
  EXPECT_EQ(back.native.gobreaker.timeout, c.native.gobreaker.timeout);
  EXPECT_EQ(back.native.gobreaker.ready_to_trip, c.native.gobreaker.ready_to_trip);

  // One undo step takes the import back.
  window.undoStack()->undo();
  EXPECT_EQ(window.session().config().breaker.library, BreakerLibrary::breakerlab);
  EXPECT_TRUE(knobs->spinBox("breaker.open.interval")->isVisibleTo(&window));
}

TEST_F(Workbench, ChoosingALibraryShowsItsOwnKnobsWithItsNamesAndUnits) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  views::KnobPanel* knobs = window.knobs();
  QComboBox* library = knobs->comboBox("breaker.library");
  library->setCurrentText("opossum");
  EXPECT_EQ(window.session().config().breaker.library, BreakerLibrary::opossum);
  QDoubleSpinBox* reset = knobs->spinBox("opossum.resetTimeout");
  ASSERT_NE(reset, nullptr);
  EXPECT_TRUE(reset->isVisibleTo(&window));
  EXPECT_FALSE(knobs->spinBox("gobreaker.Timeout")->isVisibleTo(&window));
  reset->setValue(5000);  // opossum's own unit, ms
  EXPECT_EQ(window.session().config().native.opossum.reset_timeout, 5 * kSecond);
  EXPECT_EQ(reset->text(), "5 s") << "shown in its natural unit";
  // Undo takes the knob back, then the library.
  window.undoStack()->undo();
  window.undoStack()->undo();
  EXPECT_EQ(window.session().config().breaker.library, BreakerLibrary::breakerlab);
}

// Issue #33: a new library takes the breaker in force under its own rules, not its defaults
// (resilience4j's 100-call window and 60 s open); what it cannot hold is listed where the user
// looks, and one undo step gives back the library and its settings.
TEST_F(Workbench, ChoosingALibraryCarriesTheBreakerInForceOverAndListsWhatItCannot) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  const Config deployed = window.session().config();
  ASSERT_EQ(deployed.breaker.window_size, 20u);
  ASSERT_EQ(deployed.breaker.open_interval, 20 * kSecond);
  views::KnobPanel* knobs = window.knobs();
  QLabel* note = knobs->notCarriedOverNote();
  ASSERT_NE(note, nullptr);
  EXPECT_FALSE(note->isVisibleTo(&window));

  knobs->comboBox("breaker.library")->setCurrentText("resilience4j");
  const Config& r4j = window.session().config();
  EXPECT_EQ(r4j.breaker.library, BreakerLibrary::resilience4j);
  EXPECT_EQ(r4j.native.resilience4j.sliding_window_size, 20u) << "not resilience4j's 100 calls";
  EXPECT_EQ(r4j.native.resilience4j.minimum_number_of_calls, 20u);
  EXPECT_EQ(r4j.native.resilience4j.wait_duration_in_open_state, 20 * kSecond)
      << "not resilience4j's 60 s";
  EXPECT_DOUBLE_EQ(knobs->spinBox("resilience4j.slidingWindowSize")->value(), 20);
  EXPECT_DOUBLE_EQ(knobs->spinBox("resilience4j.waitDurationInOpenState")->value(), 20);
  // The replayed breaker's first open spell lasts the 20 s in force, as the bracket says.
  const auto spans = window.lanes()->rowSpans("breaker", views::RowKind::replayed);
  ASSERT_GE(spans.size(), 2u);
  EXPECT_NEAR(spans[1].second - spans[1].first, 20.0, 1.0);
  // Only the library is a change from the deployed breaker: its knobs hold what was deployed.
  EXPECT_TRUE(knobs->isMarked("breaker.library"));
  EXPECT_FALSE(knobs->isMarked("resilience4j.slidingWindowSize"));
  EXPECT_FALSE(knobs->isMarked("resilience4j.waitDurationInOpenState"));
  // The probes' spacing does not carry over: said under the choice and in the status bar.
  EXPECT_TRUE(note->isVisibleTo(&window));
  // By the knob's name in the panel; its config key in the tooltip.
  EXPECT_TRUE(note->text().contains("Probe spacing")) << note->text().toStdString();
  EXPECT_TRUE(note->toolTip().contains("breaker.half_open.spacing"))
      << note->toolTip().toStdString();
  EXPECT_TRUE(window.statusText().contains("not carried over"))
      << window.statusText().toStdString();
  EXPECT_EQ(window.undoStack()->count(), 1) << "one switch, one undo step";

  // A knob edited after the switch, then undone and redone: the list still speaks of the switch
  // in force (the second walkthrough of issue #33: it went with any undo).
  knobs->spinBox("resilience4j.slidingWindowSize")->setValue(30);
  ASSERT_EQ(window.undoStack()->count(), 2);
  window.undoStack()->undo();
  EXPECT_EQ(window.session().config().native.resilience4j.sliding_window_size, 20u);
  EXPECT_TRUE(note->isVisibleTo(&window)) << "undoing a later edit keeps the switch's list";
  window.undoStack()->redo();
  EXPECT_TRUE(note->isVisibleTo(&window));
  window.undoStack()->undo();

  window.undoStack()->undo();
  EXPECT_EQ(window.session().config(), deployed) << "the generic machine and its settings";
  EXPECT_EQ(knobs->comboBox("breaker.library")->currentText(), "BreakerLab (generic)");
  EXPECT_DOUBLE_EQ(knobs->spinBox("breaker.open.interval")->value(), 20);
  EXPECT_FALSE(note->isVisibleTo(&window)) << "the list spoke of the switch undone";
  window.undoStack()->redo();
  EXPECT_EQ(window.session().config().native.resilience4j.sliding_window_size, 20u);
  EXPECT_TRUE(note->isVisibleTo(&window)) << "a redo lists it again";
  window.undoStack()->undo();

  // gobreaker counts since the last clear, not the last 20 calls: listed.
  knobs->comboBox("breaker.library")->setCurrentText("gobreaker");
  EXPECT_EQ(window.session().config().native.gobreaker.timeout, 20 * kSecond)
      << "not gobreaker's 60 s";
  EXPECT_TRUE(note->isVisibleTo(&window));
  EXPECT_TRUE(note->text().contains("gobreaker")) << note->text().toStdString();
  EXPECT_TRUE(note->text().contains("breaker.window")) << note->text().toStdString();
  EXPECT_LE(knobs->width(), window.docks()[0]->width()) << "the list does not widen the panel";
}

TEST_F(Workbench, APostmortemOpensDirectlyWithItsReportAndSavesAsAnIncident) {
  const QString doc =
      QString::fromStdString(test::resourcePath("postmortems/inc-2026-0908-pricing-postmortem.md"));
  ASSERT_TRUE(window.openIncident(doc)) << errors.join('\n').toStdString();
  EXPECT_TRUE(window.session().isImported());
  EXPECT_EQ(window.metrics()->failedExpectations(), 0) << "the document's numbers hold";
  const auto replayed = window.lanes()->rowSpans("breaker", views::RowKind::replayed);
  const auto recorded = window.lanes()->rowSpans("breaker", views::RowKind::recorded);
  ASSERT_EQ(replayed.size(), recorded.size());
  for (std::size_t i = 0; i < replayed.size(); ++i)
    EXPECT_NEAR(replayed[i].first, recorded[i].first, 0.5);
  ASSERT_TRUE(window.action("import-report")->isEnabled());
  window.action("import-report")->trigger();
  ImportReportDialog* dialog = window.importReportDialog();
  ASSERT_NE(dialog, nullptr);
  const QString report = dialog->findChild<QTextBrowser*>("import-report-text")->toPlainText();
  EXPECT_TRUE(report.contains("timeout.attempt")) << report.toStdString();
  EXPECT_TRUE(report.contains("line 122"));
  EXPECT_TRUE(report.contains("missing"));

  QTemporaryDir dir;
  const QString saved = dir.filePath("0908.yaml");
  ASSERT_TRUE(window.saveIncidentTo(saved));
  const std::string text = readTextFile(saved.toStdString());
  EXPECT_EQ(text.rfind("# Imported from ", 0), 0u) << "the report as comments";
  const Incident back = parseIncident(text, saved.toStdString());
  EXPECT_EQ(back.deployed, window.session().incident().deployed);
}

TEST_F(Workbench, EditingTheStateTableAndImportingAgainReplaysTheNewBehaviour) {
  QSettings().remove(settings::kStateTable);
  const QString doc =
      QString::fromStdString(test::resourcePath("postmortems/inc-2026-0908-pricing-postmortem.md"));
  ASSERT_TRUE(window.openIncident(doc));
  const double trip_before = metricValue(window, "time_to_trip_s");
  window.action("import-report")->trigger();
  ImportReportDialog* dialog = window.importReportDialog();
  auto* editor = dialog->findChild<QPlainTextEdit*>("state-table");
  ASSERT_NE(editor, nullptr);
  // "timing out" becomes a state that refuses at once.
  StateTable table = *dialog->editedTable(nullptr);
  for (StateBehaviour& row : table.rows)
    if (row.name == "timing out") {
      row.outcomes = {};
      row.outcomes.refused = 1;
      row.fitted = StateBehaviour::Fitted::none;
    }
  editor->setPlainText(QString::fromStdString(stateTableToYaml(table)));
  ASSERT_TRUE(window.reimportWith(*dialog->editedTable(nullptr)));
  EXPECT_LT(metricValue(window, "time_to_trip_s"), trip_before);
  // The table is remembered for the next import.
  EXPECT_TRUE(QSettings().value(settings::kStateTable).toString().contains("timing out"));
  QSettings().remove(settings::kStateTable);

  // A table that does not read says where, and changes nothing.
  editor->setPlainText("format: breakerlab-states/1\nstates:\n  - state: x\n    health: amber\n");
  QString error;
  EXPECT_FALSE(dialog->editedTable(&error));
  EXPECT_TRUE(error.contains(":4:")) << error.toStdString();
}

TEST_F(Workbench, OpeningAConfigAsAnIncidentSaysToLoadItOntoOne) {
  QTemporaryDir dir;
  const QString path = dir.filePath("config.yaml");
  writeOutputFile(path.toStdString(), "format: breakerlab-config/1\nbreaker: {enabled: false}\n");
  EXPECT_FALSE(window.openIncident(path));
  ASSERT_EQ(errors.size(), 1);
  EXPECT_TRUE(errors.front().contains("Load Config")) << errors.front().toStdString();
}

TEST_F(Workbench, AnOperatorChangeCanBeLeftOutMovedAndUndone) {
  ASSERT_TRUE(
      window.openIncident(QStringLiteral(BREAKERLAB_TEST_FIXTURES) + "/retry-flag-off.yaml"));
  views::ChangesPanel* panel = window.changesPanel();
  ASSERT_TRUE(panel->isVisible());
  auto* table = panel->findChild<QTableWidget*>(QStringLiteral("changes"));
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rowCount(), 1);
  EXPECT_EQ(table->item(0, 2)->text(), QStringLiteral("10:00:30"));
  auto* made = qobject_cast<QCheckBox*>(table->cellWidget(0, 0));
  auto* at = qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 1));
  ASSERT_NE(made, nullptr);
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(made->text(), QStringLiteral("retry flag off"));
  // Retries switched off at 30 s: half of the later checkouts fail, an eighth of the earlier.
  const double with_change = metricValue(window, "failed_pct");
  EXPECT_NEAR(with_change, 31.5, 1.0);

  made->setChecked(false);  // "what if the flag had stayed on"
  EXPECT_TRUE(window.session().isTuned());
  EXPECT_NEAR(metricValue(window, "failed_pct"), 13.1, 1.0);

  made->setChecked(true);
  at->setValue(10);  // "what if it had come 20 s earlier": more checkouts without retries
  EXPECT_EQ(window.session().changes().front().at, 10 * kSecond);
  EXPECT_EQ(table->item(0, 2)->text(), QStringLiteral("10:00:10"));
  EXPECT_NEAR(metricValue(window, "failed_pct"), 12.5 / 6 + 50.0 * 5 / 6, 2.0);

  QUndoStack* undo = window.findChild<QUndoStack*>();
  ASSERT_NE(undo, nullptr);
  undo->undo();  // the move
  undo->undo();  // the tick back on
  EXPECT_EQ(window.session().changes().front().at, 30 * kSecond);
  EXPECT_FALSE(window.session().changes().front().enabled);
  // (undo shows the list again: new widgets)
  EXPECT_FALSE(qobject_cast<QCheckBox*>(table->cellWidget(0, 0))->isChecked());
  undo->undo();
  EXPECT_FALSE(window.session().isTuned());
  EXPECT_DOUBLE_EQ(metricValue(window, "failed_pct"), with_change);

  // The what-if without the change takes the change out, and undoes in one step.
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == QStringLiteral("never-switched-off")) a->trigger();
  EXPECT_TRUE(window.session().changes().empty());
  ASSERT_NE(window.session().currentWhatIf(), nullptr);
  EXPECT_NEAR(metricValue(window, "failed_pct"), 13.1, 1.0);
  undo->undo();
  EXPECT_EQ(window.session().changes().size(), 1u);
  EXPECT_NEAR(metricValue(window, "failed_pct"), with_change, 1e-9);

  // Save Incident As writes the changes as shown: here moved to 10:00:45.
  qobject_cast<QDoubleSpinBox*>(table->cellWidget(0, 1))->setValue(45);
  QTemporaryDir dir;
  const QString saved = dir.filePath(QStringLiteral("moved.yaml"));
  ASSERT_TRUE(window.saveIncidentTo(saved));
  EXPECT_EQ(loadIncident(saved.toStdString()).changes.front().at, 45 * kSecond);
}

TEST_F(Workbench, ALongerOutageInTheScenarioFailsCheckoutsWithTheDeployedTtlAndUndoes) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  EXPECT_EQ(metricValue(window, "failed_checkouts"), 0);
  auto* extend =
      window.scenarioPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("scenario.outage.extend"));
  ASSERT_NE(extend, nullptr);
  extend->setValue(20);  // source 000: "in a longer outage cache entries expire"
  EXPECT_EQ(window.session().incident().end, 80 * kSecond);
  const Result& r = window.session().result();
  std::size_t misses = 0;
  for (const CheckoutRecord& c : r.checkouts) misses += c.reason == FailReason::cache_miss;
  EXPECT_GT(misses, 100u);
  EXPECT_EQ(metricValue(window, "failed_checkouts"), static_cast<double>(misses));
  // The baseline is the deployed config in the same scenario: no tuning, no delta.
  EXPECT_EQ(window.session().baseline().metrics.failed_checkouts, misses);
  QUndoStack* undo = window.findChild<QUndoStack*>();
  ASSERT_NE(undo, nullptr);
  undo->undo();
  EXPECT_EQ(window.session().incident().end, 60 * kSecond);
  EXPECT_EQ(metricValue(window, "failed_checkouts"), 0);
  EXPECT_EQ(extend->value(), 0);
}

TEST_F(Workbench, DraggingAChangesMarkerAlongTheLanesMovesTheChange) {
  ASSERT_TRUE(
      window.openIncident(QStringLiteral(BREAKERLAB_TEST_FIXTURES) + "/retry-flag-off.yaml"));
  views::LanesView* lanes = window.findChild<views::LanesView*>();
  ASSERT_NE(lanes, nullptr);
  lanes->replotNow();
  QCustomPlot* plot = lanes->plot();
  const double y = plot->axisRect()->rect().center().y();
  const auto mouse = [&](QEvent::Type type, double seconds, Qt::MouseButtons buttons) {
    const QPointF at(plot->xAxis->coordToPixel(seconds), y);
    QMouseEvent e(type, at, plot->mapToGlobal(at), Qt::LeftButton, buttons, Qt::NoModifier);
    QCoreApplication::sendEvent(plot, &e);
  };
  const QCPRange before = plot->xAxis->range();
  mouse(QEvent::MouseButtonPress, 30.0, Qt::LeftButton);  // on the "retry flag off" marker
  mouse(QEvent::MouseMove, 20.0, Qt::LeftButton);
  mouse(QEvent::MouseButtonRelease, 10.0, Qt::NoButton);
  ASSERT_EQ(window.session().changes().size(), 1u);
  EXPECT_NEAR(toSeconds(window.session().changes().front().at), 10.0, 0.2);
  // The drag moved the change, not the view.
  EXPECT_EQ(plot->xAxis->range().lower, before.lower);
  EXPECT_EQ(plot->xAxis->range().upper, before.upper);
  EXPECT_NEAR(metricValue(window, "failed_pct"), 12.5 / 6 + 50.0 * 5 / 6, 2.0);
  // The panel follows, and one undo puts it back.
  auto* table = window.changesPanel()->findChild<QTableWidget*>(QStringLiteral("changes"));
  EXPECT_EQ(table->item(0, 2)->text().left(7), QStringLiteral("10:00:1"));
  window.findChild<QUndoStack*>()->undo();
  EXPECT_EQ(window.session().changes().front().at, 30 * kSecond);

  // A drag that starts away from a marker pans, and moves nothing.
  mouse(QEvent::MouseButtonPress, 45.0, Qt::LeftButton);
  mouse(QEvent::MouseMove, 40.0, Qt::LeftButton);
  mouse(QEvent::MouseButtonRelease, 40.0, Qt::NoButton);
  EXPECT_EQ(window.session().changes().front().at, 30 * kSecond);
}

// 12 Sep replays 487,000 requests on the worker: a knob change answers at once with the window's
// beginning, the rest veiled in the lanes and the metrics greyed, until the whole replay lands.
TEST_F(Workbench, AKnobChangeOnALongIncidentShowsItsBeginningAtOnceAndSaysTheRestIsReplaying) {
  ASSERT_TRUE(window.openIncident(QStringLiteral(BREAKERLAB_RESOURCES) +
                                  "/incidents/inc-2026-0912-payment-timeout.yaml"));
  EXPECT_FALSE(window.lanes()->pendingFrom().has_value());
  const QString failed_before = window.metrics()->valueText("failed_checkouts");
  QSlider* slider = window.knobs()->slider("timeout.attempt");
  slider->setValue(slider->value() - 40);
  ASSERT_TRUE(window.session().busy());
  ASSERT_TRUE(window.session().partialUntil().has_value());
  ASSERT_TRUE(window.lanes()->pendingFrom().has_value());
  EXPECT_NEAR(*window.lanes()->pendingFrom(), toSeconds(*window.session().partialUntil()), 1e-9);
  EXPECT_FALSE(window.metrics()->isEnabled());
  EXPECT_EQ(window.metrics()->valueText("failed_checkouts"), failed_before) << "kept, greyed";
  window.lanes()->replotNow();  // the replot it queued
  const auto veils = [this] {
    int n = 0;
    for (int i = 0; i < window.lanes()->plot()->itemCount(); ++i)
      n += qobject_cast<QCPItemRect*>(window.lanes()->plot()->item(i)) != nullptr;
    return n;
  };
  const int veil_rows = veils();
  EXPECT_GE(veil_rows, 4);  // breaker, dependency, health check, checkout
  // Zooming lays the marks out again: the veil is replaced, not piled up.
  const QCPRange before = window.lanes()->plot()->xAxis->range();
  window.lanes()->plot()->xAxis->setRange(before.lower, before.lower + before.size() / 4);
  window.lanes()->replotNow();
  window.lanes()->replotNow();
  EXPECT_EQ(veils(), veil_rows);
  window.lanes()->fitAll();
  window.lanes()->replotNow();
  const QImage veiled = window.grab().toImage();
  EXPECT_FALSE(veiled.isNull());
  if (const QByteArray out = qgetenv("BREAKERLAB_GRAB_VEILED"); !out.isEmpty())
    veiled.save(QString::fromLocal8Bit(out));

  QElapsedTimer clock;
  clock.start();
  while (window.session().busy() && clock.elapsed() < 60'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  ASSERT_FALSE(window.session().busy());
  EXPECT_FALSE(window.lanes()->pendingFrom().has_value());
  EXPECT_TRUE(window.metrics()->isEnabled());
  EXPECT_NE(window.metrics()->valueText("failed_checkouts"), failed_before);
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

// The window at a size: the lanes keep half the width, no dock is crushed to nothing.
void expectUsableAt(MainWindow& window, QSize size, const char* what) {
  window.resize(size);
  // The docks are arranged for the new width on the next turns of the event loop.
  QElapsedTimer waited;
  waited.start();
  do QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  while (window.lanes()->width() < size.width() / 2 && waited.elapsed() < 3000);
  const QImage image = window.grab().toImage();
  EXPECT_EQ(image.size() / image.devicePixelRatio(), size) << what;
  auto* lanes = window.lanes();
  EXPECT_GE(lanes->width(), size.width() / 2) << what;
  EXPECT_GE(lanes->plot()->axisRect()->width(), size.width() / 3) << what << ": the time axis";
  EXPECT_GE(lanes->rowRect("breaker", views::RowKind::replayed).height(), 12) << what;
  const bool narrow = size.width() < MainWindow::kSideBySideWidth;
  auto* charts = window.docks()[2];
  auto* metrics = window.docks()[1];
  if (narrow) {
    // The metrics in front of the charts, tabbed under the lanes; then the charts' tab.
    EXPECT_TRUE(window.tabifiedDockWidgets(metrics).contains(charts)) << what;
    EXPECT_GT(metrics->mapTo(&window, QPoint(0, 0)).y(), 0) << what << ": metrics in front";
  }
  for (QDockWidget* dock : window.docks()) {
    if (narrow && dock == charts) continue;  // behind the metrics' tab
    ASSERT_TRUE(dock->isVisible()) << what << " " << dock->objectName().toStdString();
    EXPECT_FALSE(dock->isFloating());
    EXPECT_GE(dock->width(), dock == charts || (narrow && dock == metrics)
                                 ? lanes->width() - 12
                                 : MainWindow::kDockMinimumWidth)
        << what << " " << dock->objectName().toStdString();
    EXPECT_GE(dock->height(), MainWindow::kDockMinimumHeight) << what;
  }
  // The charts (or the metrics in front of them) sit under the lanes, not under the docks
  // beside them.
  QDockWidget* under = narrow ? metrics : charts;
  const int lanes_left = lanes->mapTo(&window, QPoint(0, 0)).x();
  EXPECT_NEAR(under->mapTo(&window, QPoint(0, 0)).x(), lanes_left, 8) << what;
  EXPECT_GT(under->mapTo(&window, QPoint(0, 0)).y(), lanes->mapTo(&window, QPoint(0, 0)).y());
}

TEST_F(Workbench, TheLayoutIsUsableFrom1024x700To1920x1080) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  expectUsableAt(window, {1024, 700}, "1024x700");
  expectUsableAt(window, {1920, 1080}, "1920x1080");
  expectUsableAt(window, {1024, 700}, "back to 1024x700");
}

TEST_F(Workbench, DocksCloseFromTheViewMenuAndComeBackWithResetLayout) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  auto* metrics = window.docks()[1];
  QAction* toggle = window.action(QStringLiteral("metrics-dock-toggle"));
  ASSERT_NE(toggle, nullptr);
  ASSERT_TRUE(toggle->isChecked());
  toggle->trigger();
  QCoreApplication::processEvents();
  EXPECT_FALSE(metrics->isVisible());
  const int wider = window.lanes()->width();
  toggle->trigger();
  QCoreApplication::processEvents();
  EXPECT_TRUE(metrics->isVisible());
  EXPECT_LT(window.lanes()->width(), wider);

  // Floating off every screen and closed: Reset Layout puts it all back.
  window.docks()[0]->setFloating(true);
  window.docks()[0]->move(-20000, -20000);
  metrics->close();
  window.action(QStringLiteral("reset-layout"))->trigger();
  QCoreApplication::processEvents();
  for (QDockWidget* dock : window.docks()) {
    EXPECT_TRUE(dock->isVisible()) << dock->objectName().toStdString();
    EXPECT_FALSE(dock->isFloating()) << dock->objectName().toStdString();
  }
}

TEST_F(Workbench, TheStartPageHasTheWindowToItselfAndTheDocksComeBackAsTheyWere) {
  for (QDockWidget* dock : window.docks()) EXPECT_FALSE(dock->isVisible()) << "start page";
  EXPECT_FALSE(window.action(QStringLiteral("knobs-dock-toggle"))->isEnabled());
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  window.docks()[2]->close();
  window.action(QStringLiteral("start-page"))->trigger();
  for (QDockWidget* dock : window.docks()) EXPECT_FALSE(dock->isVisible());
  window.action(QStringLiteral("workbench"))->trigger();
  EXPECT_TRUE(window.docks()[0]->isVisible());
  EXPECT_TRUE(window.docks()[1]->isVisible());
  EXPECT_FALSE(window.docks()[2]->isVisible()) << "closed by the user, stays closed";
  // Opening an incident again keeps it closed.
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  EXPECT_FALSE(window.docks()[2]->isVisible());
}

TEST(WorkbenchLayout, IsSavedAndRestoredButNeverIntoAnUnusableState) {
  QSettings().clear();
  {
    MainWindow window;
    window.setInteractive(false);
    window.resize(1200, 800);
    window.show();
    ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
    window.docks()[1]->close();
    window.close();  // saves the layout
  }
  {
    MainWindow window;
    window.setInteractive(false);
    window.show();
    ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
    EXPECT_FALSE(window.docks()[1]->isVisible()) << "closed last time";
    EXPECT_TRUE(window.docks()[0]->isVisible());
    window.close();
  }
  // A layout from before the docks (or garbage): the default layout.
  QSettings().setValue(settings::kWindowState, QByteArray("not a layout"));
  {
    MainWindow window;
    window.setInteractive(false);
    window.show();
    ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
    for (QDockWidget* dock : window.docks()) EXPECT_TRUE(dock->isVisible());
    window.close();
  }
  QSettings().clear();
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

QAction* whatIfAction(MainWindow& window, const QString& name) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == name) return a;
  return nullptr;
}

TEST_F(Workbench, ComparesTheTuningWithAnyWhatIfAndSwapsAAndB) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  auto* box = window.findChild<QComboBox*>(QStringLiteral("compare-with"));
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->currentText(), QStringLiteral("deployed"));
  EXPECT_EQ(box->findText(QStringLiteral("what-if early-probe")), 1);

  // B = the early probe; A stays the deployed config.
  window.compareWith(window.comparisonChoices()[0]);
  settleWindow(window);
  ASSERT_NE(window.comparison().result(), nullptr);
  EXPECT_EQ(box->currentText(), QStringLiteral("what-if early-probe"));
  const Result& b = *window.comparison().result();
  EXPECT_LT(b.metrics.cached_while_healthy_s, 3.0) << "B is the early probe's replay";
  EXPECT_EQ(&window.comparisonBaseline(), window.comparison().result());
  // The ghost rows are B, titled with its name; the metrics' baseline column is B.
  EXPECT_EQ(window.lanes()->rowTitles().count(QStringLiteral("what-if early-probe")), 2)
      << window.lanes()->rowTitles().join(", ").toStdString();
  EXPECT_NEAR(window.lanes()->rowSpans("breaker", views::RowKind::baseline).back().first, 43.0,
              1.0);
  EXPECT_TRUE(window.metrics()->verdictText().contains(QStringLiteral("what-if early-probe")))
      << window.metrics()->verdictText().toStdString();
  EXPECT_TRUE(window.metrics()->verdictText().contains(QStringLiteral("worse")))
      << "the deployed config meets fewer goals than the early probe";

  // Swap: A is now the early probe (the knobs), B the deployed config; one undo step.
  window.action(QStringLiteral("swap-ab"))->trigger();
  settleWindow(window);
  EXPECT_TRUE(window.session().config().breaker.early_probe);
  EXPECT_TRUE(window.comparison().isDeployed());
  EXPECT_EQ(box->currentText(), QStringLiteral("deployed"));
  EXPECT_TRUE(window.metrics()->verdictText().contains(QStringLiteral("better than deployed")));
  window.undoStack()->undo();
  settleWindow(window);
  EXPECT_FALSE(window.session().config().breaker.early_probe);
  EXPECT_EQ(window.comparison().name(), QStringLiteral("what-if early-probe")) << "B back too";
  window.undoStack()->redo();
  settleWindow(window);
  EXPECT_TRUE(window.session().config().breaker.early_probe);
  EXPECT_TRUE(window.comparison().isDeployed());
  window.undoStack()->undo();
  settleWindow(window);

  // Pinning the tuning as B, then tuning on: A against the pinned one.
  window.action(QStringLiteral("pin-b"))->trigger();
  settleWindow(window);
  EXPECT_EQ(window.comparison().name(), QStringLiteral("pinned tuning"));
  EXPECT_EQ(box->currentText(), QStringLiteral("pinned tuning"));
  // A new incident: B is the deployed config again.
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  EXPECT_TRUE(window.comparison().isDeployed());
}

TEST_F(Workbench, BIsReplayedOnTheScenariosIncident) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  window.compareWith(window.comparisonChoices()[0]);  // the early probe
  settleWindow(window);
  ASSERT_NE(window.comparison().result(), nullptr);
  auto* extend =
      window.scenarioPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("scenario.outage.extend"));
  ASSERT_NE(extend, nullptr);
  extend->setValue(20);
  settleWindow(window);
  ASSERT_NE(window.comparison().result(), nullptr);
  const Incident& incident = window.session().incident();
  EXPECT_EQ(incident.end, 80 * kSecond);
  // B is the what-if on the longer outage, as a fresh replay of it gives.
  const WhatIf* w = incident.whatIf("early-probe");
  ASSERT_NE(w, nullptr);
  SimulateOptions options;
  const auto changes = w->changes ? *w->changes : incident.changes;
  options.changes = &changes;
  const Result direct = simulate(incident, w->config, options);
  EXPECT_EQ(window.comparison().result()->metrics.failed_checkouts,
            direct.metrics.failed_checkouts);
  EXPECT_EQ(window.comparison().result()->metrics.cached_checkouts,
            direct.metrics.cached_checkouts);
  EXPECT_EQ(window.comparison().name(), QStringLiteral("what-if early-probe"));
}

TEST_F(Workbench, BreakerAt40PodsAgainstScaleTo40PodsOn12Sep) {
  const QString path =
      QString::fromStdString(test::resourcePath("incidents/inc-2026-0912-payment-timeout.yaml"));
  ASSERT_TRUE(window.openIncident(path));
  settleWindow(window);
  QAction* breaker = whatIfAction(window, QStringLiteral("breaker-at-40-pods"));
  ASSERT_NE(breaker, nullptr);
  breaker->trigger();
  const auto choices = window.comparisonChoices();
  const auto scale = std::find_if(choices.begin(), choices.end(), [](const auto& c) {
    return c.name == QStringLiteral("what-if scale-to-40-pods");
  });
  ASSERT_NE(scale, choices.end());
  window.compareWith(*scale);
  settleWindow(window);
  ASSERT_NE(window.comparison().result(), nullptr);
  const Incident& incident = window.session().incident();
  const WhatIf* scale_what_if = incident.whatIf("scale-to-40-pods");
  ASSERT_NE(scale_what_if, nullptr);
  // B is exactly the what-if's replay: the same metrics a fresh replay of it gives.
  SimulateOptions options;
  const auto changes = scale_what_if->changes ? *scale_what_if->changes : incident.changes;
  options.changes = &changes;
  const Result direct = simulate(incident, scale_what_if->config, options);
  EXPECT_EQ(window.comparison().result()->metrics.failed_checkouts,
            direct.metrics.failed_checkouts);
  EXPECT_EQ(window.session().currentWhatIf()->name, "breaker-at-40-pods");
  EXPECT_EQ(window.lanes()->rowTitles().count(QStringLiteral("what-if scale-to-40-pods")), 2);
  // The breaker's trips against the scale-up's none.
  EXPECT_GT(window.session().result().metrics.trips, 0u);
  EXPECT_EQ(window.comparison().result()->metrics.trips, 0u);
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

TEST_F(Workbench, TheChartsShareTheLanesTimeAxisPixelForPixel) {
  window.resize(1600, 1000);
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  QElapsedTimer waited;
  waited.start();
  while (waited.elapsed() < 100) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  window.lanes()->replotNow();
  QCoreApplication::processEvents();
  const views::TimeAxisPlace lanes = window.lanes()->timeAxisPlace();
  ASSERT_GE(lanes.ticks.size(), 3);
  const QRectF area = window.chart()->alignedPlotArea();
  ASSERT_FALSE(area.isNull()) << "the charts dock is under the lanes";
  const QWidget* viewport = window.chart()->view()->viewport();
  EXPECT_EQ(viewport->mapToGlobal(QPoint(static_cast<int>(area.left()), 0)).x(), lanes.global_left);
  EXPECT_EQ(viewport->mapToGlobal(QPoint(static_cast<int>(area.right() - 1), 0)).x(),
            lanes.global_right);
  // The same ticks, labelled the same.
  auto* x = qobject_cast<QCategoryAxis*>(window.chart()->chart()->axes(Qt::Horizontal).value(0));
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->categoriesLabels().size(), lanes.ticks.size());
  EXPECT_EQ(x->categoriesLabels().front(), lanes.ticks.front().second);
  // Zooming the lanes moves both.
  window.lanes()->plot()->xAxis->setRange(20, 40);
  window.lanes()->replotNow();
  EXPECT_EQ(window.chart()->timeRange(), std::make_pair(20.0, 40.0));
  const views::TimeAxisPlace zoomed = window.lanes()->timeAxisPlace();
  EXPECT_EQ(x->categoriesLabels().front(), zoomed.ticks.front().second);

  // Key 1 with the pointer over the chart: cursor A at the time under it, not the middle of the
  // view (the second walkthrough of issue #33).
  const QRectF zoomed_area = window.chart()->alignedPlotArea();
  const QPoint over_chart =
      viewport->mapToGlobal(QPoint(static_cast<int>(zoomed_area.left() + zoomed_area.width() / 4),
                                   static_cast<int>(zoomed_area.center().y())));
  QCursor::setPos(over_chart);
  ASSERT_EQ(QCursor::pos(), over_chart) << "the platform moves the pointer";
  const std::optional<double> chart_time = window.chart()->timeAt(over_chart);
  ASSERT_TRUE(chart_time.has_value());
  EXPECT_NEAR(*chart_time, 25, 0.5) << "a quarter of the way from 20 s to 40 s";
  QTest::keyClick(window.lanes()->plot(), Qt::Key_1);
  ASSERT_TRUE(window.lanes()->cursorAt(0).has_value());
  EXPECT_NEAR(*window.lanes()->cursorAt(0), *chart_time, 0.2) << "snapped at most 8 px";
  // Over no chart: the middle of the view, as before.
  QCursor::setPos(window.mapToGlobal(QPoint(2, 2)));
  EXPECT_FALSE(window.chart()->timeAt(QCursor::pos()).has_value());
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

QString bundledIncident(const char* name) {
  return QStringLiteral(BREAKERLAB_RESOURCES "/incidents/") + QLatin1String(name) +
         QStringLiteral(".yaml");
}

QWidget* metricsTable(const MainWindow& window) {
  for (QTreeWidget* tree : window.metrics()->findChildren<QTreeWidget*>())
    if (tree->columnCount() == 4) return tree->viewport();
  return nullptr;
}

void openAndSettle(MainWindow& window, const QString& path) {
  ASSERT_TRUE(window.openIncident(path));
  settleWindow(window);
  test::processEventsFor(200);
}

// A chart's plot area spans the lanes' time axis on screen, pixel for pixel.
void expectLinedUpWithTheLanes(MainWindow& window, const QRectF& area, const QWidget* viewport,
                               const std::string& what) {
  window.lanes()->replotNow();
  QCoreApplication::processEvents();
  const views::TimeAxisPlace lanes = window.lanes()->timeAxisPlace();
  ASSERT_FALSE(area.isNull()) << what;
  EXPECT_EQ(viewport->mapToGlobal(QPoint(static_cast<int>(area.left()), 0)).x(), lanes.global_left)
      << what;
  EXPECT_EQ(viewport->mapToGlobal(QPoint(static_cast<int>(area.right() - 1), 0)).x(),
            lanes.global_right)
      << what;
}

// The walkthrough of issue #33: teach-metastable-retries' charts sat 30 px left of its lanes,
// whose short row titles left less room than a chart's y axis needs, so the charts were laid out
// on their own. Under every bundled incident, at both sizes a user has, both charts' plot areas
// span the lanes' time axis.
TEST(WorkbenchCharts, EveryBundledIncidentsChartsLineUpWithItsLanes) {
  QSettings().clear();
  for (const QSize size : {QSize(1920, 1080), QSize(1024, 700)}) {
    MainWindow window;
    window.setInteractive(false);
    window.resize(size);
    window.show();
    for (const char* name :
         {"inc-2026-0814-orders", "inc-2026-0908-pricing", "inc-2026-0912-payment-timeout",
          "inc-payment-retry-amplification", "teach-metastable-retries"}) {
      const std::string what = std::string(name) + " at " + std::to_string(size.width());
      openAndSettle(window, bundledIncident(name));
      window.chartsDock()->show();
      window.chartsDock()->raise();
      test::processEventsFor(200);
      expectLinedUpWithTheLanes(window, window.chart()->alignedPlotArea(),
                                window.chart()->view()->viewport(), what + " outcome");
      if (window.resources()->isVisible())  // an incident with resource series
        expectLinedUpWithTheLanes(window, window.resources()->alignedPlotArea(),
                                  window.resources()->view()->viewport(), what + " resources");
    }
  }
  QSettings().clear();
}

// Issue #33, item 1: 14 Aug, resized to 1024x700 and back, then 12 Sep: the metrics are 12 Sep's
// as a fresh window shows them, on screen too (14 Aug's "Pod ejections 320" and "Peak calls in
// flight 320" stayed under "Mean call").
TEST(WorkbenchMetrics, AnotherIncidentShowsItsOwnRowsAsAFreshWindowDoes) {
  MainWindow window;
  window.setInteractive(false);
  window.resize(1920, 1080);
  window.show();
  openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
  window.resize(1024, 700);
  test::processEventsFor(200);
  window.resize(1920, 1080);
  test::processEventsFor(200);
  openAndSettle(window, bundledIncident("inc-2026-0912-payment-timeout"));
  // What is on screen before another window is shown over it.
  QWidget* table = metricsTable(window);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(test::shownOnScreen(table) == test::paintedNow(table))
      << "14 Aug's rows still on screen";

  MainWindow fresh;
  fresh.setInteractive(false);
  fresh.resize(1920, 1080);
  fresh.show();
  openAndSettle(fresh, bundledIncident("inc-2026-0912-payment-timeout"));
  EXPECT_EQ(window.metrics()->asText(), fresh.metrics()->asText());
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

// The chart's plot area is the lanes' time axis, pixel for pixel.
void expectChartUnderTheLanes(const MainWindow& window, const char* what) {
  const views::TimeAxisPlace lanes = window.lanes()->timeAxisPlace();
  const QRectF area = window.chart()->alignedPlotArea();
  ASSERT_FALSE(area.isNull()) << what << ": the chart is not lined up with the lanes";
  const QWidget* viewport = window.chart()->view()->viewport();
  EXPECT_EQ(viewport->mapToGlobal(QPoint(static_cast<int>(area.left()), 0)).x(), lanes.global_left)
      << what;
  EXPECT_EQ(viewport->mapToGlobal(QPoint(static_cast<int>(area.right() - 1), 0)).x(),
            lanes.global_right)
      << what;
  auto* x = qobject_cast<QCategoryAxis*>(window.chart()->chart()->axes(Qt::Horizontal).value(0));
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->categoriesLabels().size(), lanes.ticks.size()) << what << ": the time axis";
}

// Every entry of a chart's legend has the room it needs: Qt Charts cuts a label to the room
// given ("fail…", "cac…", "wor…" at 1920 px, issue #33); and, where the chart is tall enough,
// the legend stays off the plot.
void collectLegendTexts(const QGraphicsItem* item, QStringList& texts) {
  if (const auto* text = qgraphicsitem_cast<const QGraphicsTextItem*>(item))
    texts << text->toPlainText();
  for (const QGraphicsItem* child : item->childItems()) collectLegendTexts(child, texts);
}

void expectWholeLegend(QChart* chart, const std::string& what, bool off_the_plot) {
  const QLegend* legend = chart->legend();
  const QRectF room = legend->geometry();
  for (double width : views::legendEntryWidths(legend))
    EXPECT_LE(width, room.width()) << what << ": an entry cut to fit " << room.width() << " px";
  // What Qt Charts painted: each visible entry's label whole (our room sums said so while Qt
  // cut "cac…": the legend's margins were not counted).
  QStringList shown;
  collectLegendTexts(legend, shown);
  for (const QLegendMarker* marker : legend->markers()) {
    if (!marker->isVisible()) continue;
    EXPECT_TRUE(shown.contains(marker->label()))
        << what << ": \"" << marker->label().toStdString() << "\" shown as \""
        << shown.join(QStringLiteral("\", \"")).toStdString() << "\"";
  }
  if (off_the_plot) {
    EXPECT_FALSE(room.intersects(chart->plotArea()))
        << what << ": legend " << room.top() << "-" << room.bottom() << ", plot from "
        << chart->plotArea().top();
  }
}

// On every bundled incident (the second walkthrough saw "cac…" on some incidents, not others).
TEST(WorkbenchCharts, LegendsAreWholeAt1920And1024) {
  for (const char* name :
       {"inc-2026-0814-orders", "inc-2026-0908-pricing", "inc-2026-0912-payment-timeout",
        "inc-payment-retry-amplification", "teach-metastable-retries"}) {
    MainWindow window;
    window.setInteractive(false);
    window.resize(1920, 1080);
    window.show();
    openAndSettle(window, bundledIncident(name));
    window.lanes()->replotNow();
    test::processEventsFor(100);
    const std::string at = std::string(name) + ", ";
    expectWholeLegend(window.chart()->chart(), at + "outcomes at 1920", true);
    expectWholeLegend(window.resources()->view()->chart(), at + "resources at 1920", true);
    window.resize(1024, 700);
    test::processEventsFor(200);
    window.chartsDock()->raise();  // the charts' tab, behind the metrics at this width
    test::processEventsFor(100);
    window.lanes()->replotNow();
    test::processEventsFor(100);
    // At 1024x700 a chart may be too short for a plot under its legend's row: the plot keeps
    // 20 px.
    expectWholeLegend(window.chart()->chart(), at + "outcomes at 1024", false);
    expectWholeLegend(window.resources()->view()->chart(), at + "resources at 1024", false);
  }
}

// After a restart (a saved layout), the first incident opened from the start page has its chart
// under the lanes, with their time axis (issue #33, item 6: drawn at half width, without its
// axis, until a resize).
TEST(WorkbenchCharts, TheFirstIncidentAfterARestartHasItsChartUnderTheLanes) {
  QSettings().clear();
  {
    MainWindow window;
    window.setInteractive(false);
    window.resize(1920, 1080);
    window.show();
    openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
    window.close();  // saves the layout
  }
  MainWindow window;
  window.setInteractive(false);
  window.show();
  test::processEventsFor(200);
  openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
  expectChartUnderTheLanes(window, "after a restart");
  window.close();
  QSettings().clear();
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

// Each dock's place in the window, or nothing when it is hidden or behind another's tab.
std::map<QString, QRect> dockPlaces(const MainWindow& window) {
  std::map<QString, QRect> places;
  for (QDockWidget* dock : window.findChildren<QDockWidget*>())
    if (dock->isVisible() && !dock->visibleRegion().isEmpty())
      places[dock->objectName()] = QRect(dock->mapTo(&window, QPoint(0, 0)), dock->size());
  return places;
}

void expectSamePlaces(const std::map<QString, QRect>& got, const std::map<QString, QRect>& want,
                      const char* what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  for (const auto& [name, rect] : want) {
    const auto it = got.find(name);
    ASSERT_NE(it, got.end()) << what << ": " << name.toStdString() << " is not shown";
    const QRect& g = it->second;
    constexpr int kSlack = 24;  // "roughly": a splitter's handle, a rounding
    EXPECT_NEAR(g.left(), rect.left(), kSlack) << what << " " << name.toStdString();
    EXPECT_NEAR(g.top(), rect.top(), kSlack) << what << " " << name.toStdString();
    EXPECT_NEAR(g.width(), rect.width(), kSlack) << what << " " << name.toStdString();
    EXPECT_NEAR(g.height(), rect.height(), kSlack) << what << " " << name.toStdString();
  }
}

// Issue #33, item 7: after 1024x700 and back to 1920x1080 the docks are where a window opened at
// 1920x1080 has them: with the sensitivity map open, the metrics were squeezed under it.
TEST(WorkbenchLayout, DocksComeBackAfterANarrowWindow) {
  for (const bool map : {false, true}) {
    const char* what = map ? "with the map" : "without the map";
    QSettings().clear();
    MainWindow fresh;
    fresh.setInteractive(false);
    fresh.resize(1920, 1080);
    fresh.show();
    openAndSettle(fresh, bundledIncident("inc-2026-0814-orders"));
    if (map) fresh.showSensitivity();
    test::processEventsFor(200);
    const auto want = dockPlaces(fresh);
    fresh.hide();

    MainWindow window;
    window.setInteractive(false);
    window.resize(1920, 1080);
    window.show();
    openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
    if (map) window.showSensitivity();
    test::processEventsFor(200);
    expectSamePlaces(dockPlaces(window), want, what);
    window.resize(1024, 700);
    test::processEventsFor(300);
    window.resize(1920, 1080);
    test::processEventsFor(300);
    expectSamePlaces(dockPlaces(window), want, what);
  }
  QSettings().clear();
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

// The docs name the File menu's commands as the menu does (issue #33, item 12: the README said
// File ▸ Import Config where the menu says Load Config).
TEST_F(Workbench, TheDocsNameTheFileMenusCommandsAsTheMenuDoes) {
  QMenu* file = window.menuBar()->actions().value(0)->menu();
  ASSERT_NE(file, nullptr);
  QStringList commands;
  for (const QAction* a : file->actions()) {
    QString text = a->text();
    text.remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    if (!text.isEmpty()) commands << text;
  }
  const QDir root(QStringLiteral(BREAKERLAB_RESOURCES "/.."));
  QStringList documents{root.filePath(QStringLiteral("README.md"))};
  for (const QFileInfo& doc : QDir(root.filePath(QStringLiteral("docs")))
                                  .entryInfoList({QStringLiteral("*.md")}, QDir::Files))
    documents << doc.filePath();
  int named = 0;
  for (const QString& path : documents) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
    const QString text = QString::fromUtf8(f.readAll()).simplified();
    for (qsizetype at = text.indexOf(QStringLiteral("File ▸ ")); at >= 0;
         at = text.indexOf(QStringLiteral("File ▸ "), at + 1)) {
      const QString named_as = text.mid(at + 7, 40);
      ++named;
      EXPECT_TRUE(std::any_of(commands.begin(), commands.end(),
                              [&named_as](const QString& c) { return named_as.startsWith(c); }))
          << QFileInfo(path).fileName().toStdString() << ": File ▸ " << named_as.toStdString();
    }
  }
  EXPECT_GT(named, 0);
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

// The metrics' rows wholly on screen, without scrolling.
int wholeMetricRows(MainWindow& window) {
  auto* tree = window.metrics()->findChild<QTreeWidget*>(QStringLiteral("metrics"));
  if (tree == nullptr) return -1;
  const QRect viewport = tree->viewport()->rect();
  int whole = 0;
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree->topLevelItem(i);
    if (!item->isHidden() && viewport.contains(tree->visualItemRect(item))) ++whole;
  }
  return whole;
}

// Issue #33, item 7: at 1024x700 the metrics showed about 3 rows. A user sees the headline
// metrics (the registry's workbench list) without scrolling, in a window opened at that size
// and in one made that small.
TEST(WorkbenchLayout, TheHeadlineMetricsAreWhollyShownAt1024x700) {
  const int headline = static_cast<int>(metricsIn(MetricList::workbench_headline).size());
  for (const bool resized : {false, true}) {
    const char* what = resized ? "resized from 1920x1080" : "opened at 1024x700";
    QSettings().clear();
    MainWindow window;
    window.setInteractive(false);
    window.resize(resized ? QSize(1920, 1080) : QSize(1024, 700));
    window.show();
    openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
    if (resized) window.resize(1024, 700);
    test::processEventsFor(300);  // the docks are arranged on the next turns of the loop
    EXPECT_GE(wholeMetricRows(window), headline) << what;
    // The lanes keep room for their rows and labels.
    EXPECT_GE(window.lanes()->rowRect("breaker", views::RowKind::replayed).height(), 14) << what;
    if (const QByteArray out = qgetenv("BREAKERLAB_GRAB_1024"); !out.isEmpty() && !resized)
      window.grab().save(QString::fromLocal8Bit(out));
  }
  QSettings().clear();
}

}  // namespace
}  // namespace breakerlab::app

namespace breakerlab::app {
namespace {

// Issue #33, item 6: after a restart (a saved layout), the first incident opened from the start
// page drew its chart at half width, not lined up with the lanes and without its axis, until the
// window was resized: the charts were laid out while their dock was hidden behind the start page.
TEST(WorkbenchCharts, AfterARestartTheFirstIncidentsChartsLineUpWithItsLanes) {
  QSettings().clear();
  for (const QSize size : {QSize(1920, 1080), QSize(1024, 700)}) {
    {
      MainWindow window;
      window.setInteractive(false);
      window.resize(size);
      window.show();
      openAndSettle(window, bundledIncident("inc-2026-0908-pricing"));
      window.chartsDock()->raise();
      window.close();  // saves the layout
    }
    // As `breakerlab INCIDENT` starts: shown with the saved layout and the incident opened at
    // once, before the event loop has laid the window out.
    MainWindow window;
    window.setInteractive(false);
    window.show();
    openAndSettle(window, bundledIncident("inc-2026-0912-payment-timeout"));
    window.chartsDock()->raise();
    test::processEventsFor(200);
    expectLinedUpWithTheLanes(window, window.chart()->alignedPlotArea(),
                              window.chart()->view()->viewport(),
                              "at " + std::to_string(size.width()));
    window.close();
  }
  QSettings().clear();
}

// The walkthrough of issue #33: at 1024x700 the per-second charts were about 15 px tall on the
// incidents with a resource chart. With their tab in front, each chart shown has a plot area a
// reader can read values off.
TEST(WorkbenchCharts, ThePerSecondChartsAreReadableAt1024x700) {
  QSettings().clear();
  MainWindow window;
  window.setInteractive(false);
  window.resize(1024, 700);
  window.show();
  for (const char* name :
       {"inc-2026-0814-orders", "inc-2026-0908-pricing", "inc-2026-0912-payment-timeout",
        "inc-payment-retry-amplification", "teach-metastable-retries"}) {
    openAndSettle(window, bundledIncident(name));
    window.chartsDock()->show();
    window.chartsDock()->raise();
    test::processEventsFor(300);
    const std::pair<const char*, QRectF> charts[] = {
        {"outcome", window.chart()->alignedPlotArea()},
        {"resources", window.resources()->alignedPlotArea()}};
    for (const auto& [chart, area] : charts) {
      const bool shown = std::string_view(chart) == "outcome" ? window.chart()->isVisible()
                                                              : window.resources()->isVisible();
      if (!shown) continue;
      // 50 px: the value labels at 0, the middle and the top, four grid lines apart.
      EXPECT_GE(area.height(), 50) << name << " " << chart;
    }
  }
  QSettings().clear();
}

// The walkthrough of issue #33: at 1920x1080 with Tune and the sensitivity map open (both in the
// right-hand column), made 1024x700, the lanes were 120 px wide. In a narrow window both go
// beside the knobs, as View ▸ opens them there; back at 1920 they return under the metrics.
TEST(WorkbenchLayout, TuneAndTheMapOpenLeaveTheLanesTheirRoomAt1024x700) {
  QSettings().clear();
  MainWindow window;
  window.setInteractive(false);
  window.resize(1920, 1080);
  window.show();
  openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
  window.showTune();
  window.showSensitivity();
  test::processEventsFor(200);
  ASSERT_EQ(window.dockWidgetArea(window.tuneDock()), Qt::RightDockWidgetArea);
  // Under the metrics, as two tabs of one place: each the whole height under them, the map (the
  // last opened) in front. Stacked, Tune had a third of the column and its buttons went below it.
  EXPECT_TRUE(window.tabifiedDockWidgets(window.tuneDock()).contains(window.sensitivityDock()));
  EXPECT_FALSE(window.sensitivityDock()->visibleRegion().isEmpty()) << "in front";
  EXPECT_GE(window.sensitivityDock()->height(), 1080 / 3);
  window.resize(1024, 700);
  test::processEventsFor(400);
  // Half the window, as keepLanesHalfTheWidth keeps it, less a few pixels of splitters.
  EXPECT_GE(window.lanes()->width(), 1024 / 2 - 20);
  EXPECT_GE(window.lanes()->rowRect("breaker", views::RowKind::replayed).height(), 14);
  for (QDockWidget* side : {window.sensitivityDock(), window.tuneDock()}) {
    EXPECT_FALSE(side->isHidden()) << side->objectName().toStdString() << ": still open";
    EXPECT_NE(window.dockWidgetArea(side), Qt::RightDockWidgetArea)
        << side->objectName().toStdString();
  }
  window.resize(1920, 1080);
  test::processEventsFor(400);
  for (QDockWidget* side : {window.sensitivityDock(), window.tuneDock()})
    EXPECT_EQ(window.dockWidgetArea(side), Qt::RightDockWidgetArea)
        << side->objectName().toStdString() << ": back under the metrics";
  EXPECT_TRUE(window.tabifiedDockWidgets(window.tuneDock()).contains(window.sensitivityDock()))
      << "tabs again";
  EXPECT_GE(window.lanes()->width(), 1920 / 3);
  QSettings().clear();
}

// Issue #33, item 12: the payments incidents said "Oldest cached price" and "Serve cached
// prices". The labels that name the dependency's answers follow the incident open.
TEST_F(Workbench, TheCacheKnobAndMetricNameTheIncidentsDependency) {
  openAndSettle(window, bundledIncident("inc-2026-0912-payment-timeout"));
  EXPECT_EQ(window.metrics()->labelText(QStringLiteral("oldest_cached_price_s")).toStdString(),
            "Oldest cached Payment provider answer");
  QCheckBox* cache = window.knobs()->checkBox(QStringLiteral("fallback.cache.enabled"));
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->text().toStdString(), "Serve cached Payment provider answers");
  EXPECT_FALSE(cache->toolTip().contains(QStringLiteral("price")))
      << cache->toolTip().toStdString();
  // A pricing incident after it: prices again.
  openAndSettle(window, bundledIncident("inc-2026-0908-pricing"));
  EXPECT_EQ(window.metrics()->labelText(QStringLiteral("oldest_cached_price_s")).toStdString(),
            "Oldest cached price");
  EXPECT_EQ(cache->text().toStdString(), "Serve cached prices");
}

// The second walkthrough of issue #33: at 1024 x 700 the operator changes and the scenario took
// half the knobs dock. They sit under the knobs across a splitter: dragged down or collapsed,
// they give the knobs the whole dock; the knobs themselves never collapse.
TEST(WorkbenchLayout, TheKnobsCanTakeTheDockFromTheChangesAndTheScenario) {
  MainWindow window;
  window.setInteractive(false);
  window.resize(1024, 700);
  window.show();
  openAndSettle(window, bundledIncident("inc-2026-0814-orders"));
  auto* split = window.findChild<QSplitter*>(QStringLiteral("knobs-split"));
  ASSERT_NE(split, nullptr);
  ASSERT_EQ(split->count(), 2);
  EXPECT_EQ(split->widget(0), window.knobs());
  const int shared = window.knobs()->height();
  EXPECT_GT(split->widget(1)->height(), 0) << "the changes and the scenario are shown";
  split->setSizes({split->height(), 0});
  test::processEventsFor(50);
  EXPECT_GT(window.knobs()->height(), shared);
  EXPECT_GE(window.knobs()->height(), split->height() - split->handleWidth() - 1);
  split->setSizes({0, split->height()});
  test::processEventsFor(50);
  EXPECT_GT(window.knobs()->height(), 0) << "the knobs never collapse";
}

}  // namespace
}  // namespace breakerlab::app
