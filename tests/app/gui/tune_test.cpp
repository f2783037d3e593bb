// The Tune dock, driven as a user would, on 8 Sep: the search the docs run with the CLI finds the
// same config from the dock (checked against `breakerlab-cli tune` itself), B follows the best
// config so far, Stop keeps it, Apply makes it A as one undo step, and every config found is
// saved as a workspace run.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>
#include <cmath>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/data/tuning_text.h"
#include "breakerlab/data/workspace.h"
#include "breakerlab/views/knob_panel.h"
#include "main_window.h"
#include "replay_session.h"
#include "settings_keys.h"
#include "test_incident.h"
#include "tune_panel.h"
#include "workspace_controller.h"

namespace breakerlab::app {
namespace {

// The docs' 8 Sep search (docs/tuning.md), as `breakerlab-cli tune` takes it.
const QStringList kCliSearch = {
    QStringLiteral("tune"),       QStringLiteral("inc-2026-0908-pricing"),
    QStringLiteral("--library"),  QStringLiteral("gobreaker"),
    QStringLiteral("--knob"),     QStringLiteral("gobreaker.Timeout=0.5..60:log"),
    QStringLiteral("--knob"),     QStringLiteral("gobreaker.MaxRequests=1..10"),
    QStringLiteral("--goal"),     QStringLiteral("failed_checkouts == 0"),
    QStringLiteral("--minimize"), QStringLiteral("cached_while_healthy_s"),
    QStringLiteral("--json")};

struct TuneDock : ::testing::Test {
  MainWindow window;
  QStringList errors;

  TuneDock() {
    window.setInteractive(false);
    window.setErrorReporter(
        [this](const QString& title, const QString& text) { errors << title + ": " + text; });
    window.resize(1500, 900);
    window.show();
  }
  TunePanel& panel() { return *window.tunePanel(); }

  void settle() {
    QElapsedTimer waited;
    waited.start();
    while ((window.session().busy() || window.comparison().busy()) && waited.elapsed() < 60'000)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QCoreApplication::processEvents();
  }
  void open8Sep() {
    ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())))
        << errors.join('\n').toStdString();
    settle();
  }
  // The dock asked as the CLI is asked: gobreaker's default knobs are the docs' two.
  void askTheDocsSearch(int budget, int seed) {
    window.action(QStringLiteral("tune"))->trigger();
    ASSERT_TRUE(panel().chooseLibrary(BreakerLibrary::gobreaker));
    panel().setExtraGoals(QStringLiteral("failed_checkouts == 0"));
    ASSERT_TRUE(panel().chooseObjectives(QStringLiteral("cached_while_healthy_s")));
    panel().setBudget(budget);
    panel().setSeed(seed);
  }
  bool waitForSearch(int ms = 120'000) {
    QElapsedTimer waited;
    waited.start();
    while (panel().busy() && waited.elapsed() < ms)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    settle();
    return !panel().busy();
  }
  // `breakerlab-cli tune` with the docs' search: its first config's knobs as it writes them, and
  // the minimised metric.
  QJsonObject cliFront(int budget, int seed) {
    QStringList arguments = kCliSearch;
    arguments << QStringLiteral("--budget") << QString::number(budget) << QStringLiteral("--seed")
              << QString::number(seed);
    QProcess cli;
    cli.start(QStringLiteral(BREAKERLAB_CLI), arguments);
    EXPECT_TRUE(cli.waitForFinished(120'000));
    EXPECT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
    const QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    EXPECT_TRUE(root.value(QStringLiteral("meets_goals")).toBool());
    const QJsonArray front = root.value(QStringLiteral("front")).toArray();
    EXPECT_EQ(front.size(), 1);
    return front.first().toObject();
  }
};

// Scrolling the dock over its boxes changes none of them: a user scrolling to read the status
// changed the second objective without noticing. A box takes the wheel once it has focus.
TEST_F(TuneDock, TheWheelChangesNoBoxWithoutFocus) {
  open8Sep();
  window.action(QStringLiteral("tune"))->trigger();
  QCoreApplication::processEvents();
  const auto wheel = [](QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &event);
  };
  auto* second = panel().findChild<QComboBox*>(QStringLiteral("tune-minimize-2"));
  auto* budget = panel().findChild<QSpinBox*>(QStringLiteral("tune-budget"));
  ASSERT_NE(second, nullptr);
  ASSERT_NE(budget, nullptr);
  ASSERT_GT(second->count(), 1);
  const int chosen = second->currentIndex();
  const int configs = budget->value();
  wheel(second);
  wheel(budget);
  for (auto* spin : panel().findChildren<QDoubleSpinBox*>()) {
    const double before = spin->value();
    wheel(spin);
    EXPECT_EQ(spin->value(), before) << spin->toolTip().toStdString();
  }
  EXPECT_EQ(second->currentIndex(), chosen);
  EXPECT_EQ(budget->value(), configs);
}

// The dock searches in the library A is in: when A's library changes (chosen, or a config
// loaded), the dock follows, and a library chosen in the dock itself stays while knobs move. A
// user who loaded a resilience4j config found the dock still on the generic breaker, and Apply
// then took A back to it.
TEST_F(TuneDock, FollowsTheLibraryOfAAndKeepsTheUsersOwnChoice) {
  open8Sep();
  window.action(QStringLiteral("tune"))->trigger();
  EXPECT_EQ(panel().library(), window.session().config().breaker.library);
  window.knobs()->comboBox("breaker.library")->setCurrentText("resilience4j");
  settle();
  ASSERT_EQ(window.session().config().breaker.library, BreakerLibrary::resilience4j);
  EXPECT_EQ(panel().library(), BreakerLibrary::resilience4j);
  for (const KnobRange& k : panel().knobs())
    EXPECT_TRUE(!k.knob->library || *k.knob->library == BreakerLibrary::resilience4j) << k.knob->id;

  ASSERT_TRUE(panel().chooseLibrary(BreakerLibrary::gobreaker));  // the user's own choice
  window.knobs()->spinBox(QStringLiteral("fallback.cache.ttl"))->setValue(90);
  settle();
  EXPECT_EQ(panel().library(), BreakerLibrary::gobreaker) << "a knob moved, not the library";

  window.undoStack()->undo();  // the TTL
  window.undoStack()->undo();  // the library: A is generic again
  settle();
  ASSERT_EQ(window.session().config().breaker.library, BreakerLibrary::breakerlab);
  EXPECT_EQ(panel().library(), BreakerLibrary::breakerlab);
}

TEST_F(TuneDock, OpensOnItsShortcutWithTheLibrarysKnobsAndTheIncidentsQuestion) {
  open8Sep();
  QAction* show = window.action(QStringLiteral("tune"));
  ASSERT_NE(show, nullptr);
  EXPECT_EQ(show->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  EXPECT_TRUE(window.tuneDock()->isHidden()) << "asked for, not shown by default";
  show->trigger();
  EXPECT_FALSE(window.tuneDock()->isHidden());
  ASSERT_TRUE(panel().chooseLibrary(BreakerLibrary::gobreaker));
  const std::vector<KnobRange> knobs = panel().knobs();
  ASSERT_EQ(knobs.size(), 2u);
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    const KnobRange docs = parseKnobRange(
        kCliSearch[5 + 2 * static_cast<qsizetype>(i)].toStdString(), "the docs' --knob");
    EXPECT_EQ(knobs[i].knob, docs.knob);
    EXPECT_EQ(knobs[i].low, docs.low) << docs.knob->id;
    EXPECT_EQ(knobs[i].high, docs.high) << docs.knob->id;
    EXPECT_EQ(knobs[i].log, docs.log) << docs.knob->id;
  }
  EXPECT_FALSE(panel().addKnob(QStringLiteral("resilience4j.waitDurationInOpenState")))
      << "another library's knob";
  EXPECT_TRUE(panel().addKnob(QStringLiteral("fallback.cache.ttl")));
  ASSERT_EQ(panel().knobs().size(), 3u);
  EXPECT_EQ(panel().knobs()[2].knob, findKnob("fallback.cache.ttl"));
  // Its ✕ leaves it out again, as a user clicks it.
  QCoreApplication::processEvents();  // a row added to the shown dock is shown after the event
  std::vector<QToolButton*> removes;
  for (QToolButton* b : panel().findChildren<QToolButton*>())
    if (!b->isHidden() && b->toolTip() == QStringLiteral("Do not search this knob"))
      removes.push_back(b);
  ASSERT_EQ(removes.size(), 3u);
  removes.back()->click();
  QCoreApplication::processEvents();
  ASSERT_EQ(panel().knobs().size(), 2u);
  EXPECT_EQ(panel().knobs()[1].knob, findKnob("gobreaker.MaxRequests"));
}

// The dock's answer and the CLI's for one seed and budget (the dock on every core but one, the
// CLI on every core): the same knob values and the same minimised metric.
void expectTheCliFinds(const TuneOutcome& outcome, const std::vector<KnobRange>& knobs,
                       const QJsonObject& cli) {
  const QJsonObject cli_knobs = cli.value(QStringLiteral("knobs")).toObject();
  ASSERT_EQ(cli_knobs.size(), static_cast<qsizetype>(knobs.size()));
  ASSERT_EQ(outcome.reported.size(), 1u);
  for (std::size_t d = 0; d < knobs.size(); ++d)
    EXPECT_EQ(cli_knobs
                  .value(QString::fromLatin1(knobs[d].knob->id.data(),
                                             static_cast<qsizetype>(knobs[d].knob->id.size())))
                  .toString()
                  .toStdString(),
              knobValueText(*knobs[d].knob, outcome.reported[0].values[d]))
        << knobs[d].knob->id;
  EXPECT_EQ(cli.value(QStringLiteral("objectives"))
                .toObject()
                .value(QStringLiteral("cached_while_healthy_s"))
                .toDouble(),
            outcome.reported[0].evaluation.objectives[0]);
}

TEST_F(TuneDock, FindsTheConfigTheCliFindsOn8SepAndItMeetsTheGoals) {
  constexpr int kBudget = 150, kSeed = 7;
  open8Sep();
  askTheDocsSearch(kBudget, kSeed);
  // Seen as each best so far is handed to B (after the window's own slot), not by polling: a
  // search of 0.14 s can hand it over and end within one turn of the event loop.
  bool b_followed_the_search = false;
  const QMetaObject::Connection watch = QObject::connect(&panel(), &TunePanel::bestSoFar, [&] {
    b_followed_the_search =
        b_followed_the_search || window.comparison().name() == QStringLiteral("tune: best so far");
  });
  QElapsedTimer clock;
  clock.start();
  panel().start();
  EXPECT_TRUE(panel().busy());
  EXPECT_EQ(panel().startButton()->text(), QStringLiteral("Stop"));
  while (panel().busy() && clock.elapsed() < 120'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  QObject::disconnect(watch);
  ASSERT_TRUE(waitForSearch());
  std::printf("[ measured ] 8 Sep, %d configs in the dock: %.2f s (search %.2f s)\n", kBudget,
              static_cast<double>(clock.elapsed()) / 1000, panel().outcome()->seconds);
  EXPECT_TRUE(b_followed_the_search) << "B is the best config so far while the search runs";
  ASSERT_TRUE(panel().outcome().has_value());
  const TuneOutcome& outcome = *panel().outcome();
  EXPECT_FALSE(outcome.result.cancelled);
  EXPECT_EQ(outcome.result.stats.evaluated, static_cast<std::size_t>(kBudget));
  ASSERT_EQ(outcome.reported.size(), 1u);
  EXPECT_TRUE(outcome.reported[0].evaluation.feasible);
  EXPECT_EQ(panel().progressBar()->isVisible(), false);
  EXPECT_EQ(panel().startButton()->text(), QStringLiteral("Tune"));

  // The CLI, run as a user runs it, finds the same knob values and the same metric.
  QElapsedTimer cli_clock;
  cli_clock.start();
  const QJsonObject cli = cliFront(kBudget, kSeed);
  std::printf("[ measured ] 8 Sep, %d configs by breakerlab-cli tune: %.2f s\n", kBudget,
              static_cast<double>(cli_clock.elapsed()) / 1000);
  expectTheCliFinds(outcome, panel().knobs(), cli);

  // B is the config found; made A, its own replay meets every goal of the incident, and the
  // one asked: no failed checkout, the time cached while healthy down from 14 s to 3 s or less.
  EXPECT_EQ(window.comparison().name(), QStringLiteral("tuned"));
  panel().applyButton()->click();
  settle();
  EXPECT_EQ(window.session().config(), outcome.configs[0]);
  EXPECT_EQ(window.session().config().breaker.library, BreakerLibrary::gobreaker);
  const Metrics& metrics = window.session().result().metrics;
  EXPECT_EQ(findMetric("failed_checkouts")->get(metrics), 0.0);
  EXPECT_LE(*findMetric("cached_while_healthy_s")->get(metrics), 3.0);
  EXPECT_EQ(*findMetric("cached_while_healthy_s")->get(metrics),
            outcome.reported[0].evaluation.objectives[0]);
  EXPECT_TRUE(allPassed(window.session().goals()));
  EXPECT_TRUE(errors.isEmpty()) << errors.join('\n').toStdString();
}

// Another seed and budget find another config with the same 0 s (Timeout 5.5 s, MaxRequests 2,
// on 7 Dec): the dock follows the search, not one answer.
TEST_F(TuneDock, FindsTheCliConfigForAnotherSeedAndBudgetToo) {
  constexpr int kBudget = 500, kSeed = 5;
  open8Sep();
  askTheDocsSearch(kBudget, kSeed);
  panel().start();
  ASSERT_TRUE(waitForSearch());
  ASSERT_TRUE(panel().outcome().has_value());
  EXPECT_TRUE(panel().outcome()->reported.at(0).evaluation.feasible);
  expectTheCliFinds(*panel().outcome(), panel().knobs(), cliFront(kBudget, kSeed));
}

TEST_F(TuneDock, StopKeepsTheBestSoFarAndLeavesTheWorkbenchUsable) {
  open8Sep();
  askTheDocsSearch(TunePanel::kMaxBudget, 1);
  panel().start();
  // Until B shows a config that meets the goals, then Stop, as a user would click it.
  QElapsedTimer waited;
  waited.start();
  while (window.comparison().name() != QStringLiteral("tune: best so far") &&
         waited.elapsed() < 60'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  ASSERT_EQ(window.comparison().name(), QStringLiteral("tune: best so far"));
  ASSERT_TRUE(panel().busy());
  // The workbench answers while the search runs: a knob dragged replays A.
  const Config before = window.session().config();
  window.knobs()->spinBox(QStringLiteral("fallback.cache.ttl"))->setValue(90);
  settle();
  EXPECT_TRUE(panel().busy()) << "the search is still running";
  EXPECT_EQ(findKnob("fallback.cache.ttl")->get(window.session().config()), 90);
  EXPECT_TRUE(window.session().resultIsCurrent());
  window.undoStack()->undo();
  settle();
  EXPECT_EQ(window.session().config(), before);

  panel().startButton()->click();  // Stop
  ASSERT_TRUE(waitForSearch(30'000)) << "Stop ends the search within a replay";
  ASSERT_TRUE(panel().outcome().has_value());
  const TuneOutcome& outcome = *panel().outcome();
  EXPECT_TRUE(outcome.result.cancelled);
  EXPECT_LT(outcome.result.stats.evaluated, static_cast<std::size_t>(TunePanel::kMaxBudget));
  ASSERT_FALSE(outcome.reported.empty()) << "the best so far is kept";
  EXPECT_TRUE(outcome.reported[0].evaluation.feasible);
  EXPECT_TRUE(panel().statusText().contains(QStringLiteral("stopped")))
      << panel().statusText().toStdString();
  EXPECT_EQ(window.comparison().name(), QStringLiteral("tuned")) << "B is what the search kept";
  EXPECT_TRUE(panel().applyButton()->isEnabled());
  EXPECT_EQ(panel().startButton()->text(), QStringLiteral("Tune"));
  EXPECT_TRUE(panel().startButton()->isEnabled());
  // And it tunes again.
  panel().setBudget(40);
  panel().start();
  ASSERT_TRUE(waitForSearch());
  EXPECT_FALSE(panel().outcome()->result.cancelled);
  EXPECT_EQ(panel().outcome()->result.stats.evaluated, 40u);
  EXPECT_TRUE(errors.isEmpty()) << errors.join('\n').toStdString();
}

TEST_F(TuneDock, ANewIncidentEndsTheSearchAndShowsNothingOfIt) {
  open8Sep();
  askTheDocsSearch(TunePanel::kMaxBudget, 1);
  panel().start();
  ASSERT_TRUE(panel().busy());
  ASSERT_TRUE(window.openIncident(
      QString::fromStdString(test::resourcePath("incidents/teach-metastable-retries.yaml"))));
  settle();
  EXPECT_FALSE(panel().busy());
  QElapsedTimer waited;
  waited.start();
  while (panel().job().searchesRunning() != 0 && waited.elapsed() < 30'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  QCoreApplication::processEvents();
  EXPECT_EQ(panel().job().searchesRunning(), 0) << "the search stopped within a replay";
  EXPECT_FALSE(panel().outcome().has_value()) << "nothing of 8 Sep's search is shown";
  EXPECT_EQ(panel().resultList()->count(), 0);
  EXPECT_TRUE(window.comparison().isDeployed());
  EXPECT_FALSE(panel().applyButton()->isEnabled());
}

// As `tune` warns on the command line (the same analysis, knobsWithoutEffect): the health poll
// does nothing while the early probe is off, unless the probe is searched too.
TEST_F(TuneDock, SaysWhenAKnobSearchedHasNoEffectAndWhatWouldMakeItCount) {
  open8Sep();
  window.action(QStringLiteral("tune"))->trigger();
  ASSERT_TRUE(panel().chooseLibrary(BreakerLibrary::breakerlab));
  ASSERT_TRUE(
      panel().setKnobs({KnobRange{findKnob("breaker.open.early_probe.poll"), 0.5, 10, true}}));
  panel().setBudget(20);
  panel().start();
  EXPECT_EQ(panel().notice(), QStringLiteral("Health poll has no effect while early probe on "
                                             "health green is off: add early probe on health "
                                             "green to the knobs, or turn it on."));
  ASSERT_TRUE(waitForSearch());
  ASSERT_TRUE(panel().addKnob(QStringLiteral("breaker.open.early_probe.enabled")));
  panel().start();
  EXPECT_EQ(panel().notice(), QString());
  ASSERT_TRUE(waitForSearch());
}

TEST_F(TuneDock, ApplyIsOneUndoStepThatGivesThePreviousABack) {
  open8Sep();
  // A is the document's fix, not the deployed config: undo must give exactly it back.
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == QStringLiteral("early-probe")) a->trigger();
  settle();
  const Config previous_a = window.session().config();
  ASSERT_TRUE(previous_a.breaker.early_probe);
  ASSERT_TRUE(window.comparison().isDeployed());
  askTheDocsSearch(60, 3);
  panel().start();
  ASSERT_TRUE(waitForSearch());
  ASSERT_TRUE(panel().chosenConfig().has_value());
  const Config tuned = *panel().chosenConfig();
  ASSERT_FALSE(tuned == previous_a);
  EXPECT_EQ(tuned.breaker.library, BreakerLibrary::gobreaker);

  QUndoStack& undo = *window.undoStack();
  const int steps = undo.count();
  panel().applyButton()->click();
  settle();
  EXPECT_EQ(undo.count(), steps + 1) << "one undo step";
  EXPECT_EQ(window.session().config(), tuned);
  EXPECT_TRUE(window.comparison().isDeployed()) << "B is what it was before the search";
  EXPECT_TRUE(undo.undoText().startsWith(QStringLiteral("apply tuned: ")))
      << undo.undoText().toStdString();
  EXPECT_TRUE(window.statusText().startsWith(QStringLiteral("Applied tuned: ")))
      << window.statusText().toStdString() << " (once read \"Applied apply tuned\")";

  undo.undo();
  settle();
  EXPECT_EQ(window.session().config(), previous_a) << "undo restores the previous A exactly";
  EXPECT_EQ(window.comparison().name(), QStringLiteral("tuned"));
  undo.redo();
  settle();
  EXPECT_EQ(window.session().config(), tuned);
  EXPECT_TRUE(errors.isEmpty()) << errors.join('\n').toStdString();
}

TEST_F(TuneDock, TheConfigFoundIsSavedAsAWorkspaceRun) {
  QSettings().remove(settings::kLastWorkspace);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("tune.breakerlab"));
  ASSERT_TRUE(window.workspace().create(path));
  open8Sep();
  askTheDocsSearch(60, 1);
  panel().start();
  ASSERT_TRUE(waitForSearch());
  ASSERT_TRUE(panel().outcome().has_value());
  const TuneOutcome& outcome = *panel().outcome();
  ASSERT_EQ(outcome.runs.size(), outcome.configs.size());
  EXPECT_TRUE(panel().statusText().contains(QStringLiteral("saved as 1 workspace run")))
      << panel().statusText().toStdString();

  const Workspace stored = Workspace::open(path.toStdString(), Workspace::Access::read_only);
  RunFilter filter;
  filter.incident_id = window.workspace().currentIncident();
  const std::vector<RunSummary> runs = stored.runs(filter);
  ASSERT_EQ(runs.size(), 1u) << errors.join('\n').toStdString();
  EXPECT_TRUE(QString::fromStdString(runs[0].name).startsWith(QStringLiteral("tuned: Timeout ")))
      << runs[0].name;
  EXPECT_EQ(runs[0].library, "gobreaker");
  EXPECT_EQ(runs[0].failed_checkouts, 0.0);
  EXPECT_EQ(runs[0].cached_while_healthy_s, outcome.reported[0].evaluation.objectives[0]);
  const StoredRun run = stored.run(runs[0].id);
  EXPECT_EQ(run.inputs.config, outcome.configs[0]);
  EXPECT_EQ(run.inputs.seed, window.session().openedIncident().seed);
  // Applied, the tuning is the run saved: opening another file loses nothing (the third
  // walkthrough of issue #33 was asked "neither exported nor saved in the workspace").
  panel().applyButton()->click();
  ASSERT_TRUE(window.session().isTuned());
  EXPECT_FALSE(window.tuningWouldBeLost());
  EXPECT_TRUE(errors.isEmpty()) << errors.join('\n').toStdString();
  window.workspace().close();
  QSettings().remove(settings::kLastWorkspace);
  QSettings().remove(settings::kRecentWorkspaces);
}

}  // namespace
}  // namespace breakerlab::app
