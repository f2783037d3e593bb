#include "main_window.h"
#include "breakerlab/views/qt_text.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QResizeEvent>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

#include "breakerlab/core/inputs/dependency_words.h"
#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/native_config.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/values.h"
#include "breakerlab/views/changes_panel.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/lane_keys.h"
#include "breakerlab/views/lanes_view.h"
#include "breakerlab/views/metrics_panel.h"
#include "breakerlab/views/outcome_chart.h"
#include "breakerlab/views/resource_chart.h"
#include "breakerlab/views/scenario_panel.h"
#include "changes_command.h"
#include "comparison_slot.h"
#include "dialog_folders.h"
#include "import_report_dialog.h"
#include "knob_command.h"
#include "prometheus_import_dialog.h"
#include "recent_paths.h"
#include "replay_session.h"
#include "report_export.h"
#include "scenario_command.h"
#include "sensitivity_panel.h"
#include "settings_keys.h"
#include "start_page.h"
#include "tune_panel.h"
#include "value_command.h"
#include "workspace_controller.h"
#include "workspace_panel.h"

namespace breakerlab::app {

namespace {
QString incidentFilter() {
  // The content decides the format; the filter only narrows the list.
  return QObject::tr(
      "Incidents, postmortems, logs and traces (*.yaml *.yml *.json *.md *.markdown *.txt *.csv "
      "*.jsonl *.ndjson *.log);;BreakerLab incidents (*.yaml *.yml);;Postmortems (*.md *.markdown "
      "*.txt);;Request logs (*.csv *.jsonl *.ndjson *.log);;Traces and metrics (*.json "
      "*.jsonl);;All files (*)");
}
}  // namespace

MainWindow::MainWindow(QWidget* parent, LastWorkspace last) : QMainWindow(parent) {
  session_ = new ReplaySession(this);
  workspace_ = new WorkspaceController(this);
  comparison_ = new ComparisonSlot(this);
  undo_ = new QUndoStack(this);
  report_error_ = [this](const QString& title, const QString& text) {
    QMessageBox::critical(this, title, text);
  };
  buildWidgets();
  buildMenus();
  setAcceptDrops(true);
  connect(session_, &ReplaySession::incidentChanged, this, &MainWindow::showIncident);
  connect(session_, &ReplaySession::resultChanged, this, &MainWindow::showResult);
  // A change's marker dragged on the lanes: the same edit as its time box.
  connect(lanes_, &views::LanesView::changeDragged, this, [this](Micros from, Micros to) {
    std::vector<TimedChange> after = session_->changes();
    for (TimedChange& c : after)
      if (c.enabled && c.at == from) {
        c.at = to;
        break;
      }
    if (after == session_->changes()) return;
    undo_->push(new ChangesCommand(session_->changes(), after,
                                   [this](const std::vector<TimedChange>& c) { applyChanges(c); }));
    applyChanges(after);
  });
  connect(comparison_, &ComparisonSlot::failed, this, [this](const QString& reason) {
    refreshComparisonBox();
    status_->setText(reason);
    report_error_(tr("Could not compare"), reason);
  });
  connect(comparison_, &ComparisonSlot::changed, this, [this] {
    showResult();
    if (!comparison_->isDeployed() && comparison_->result())
      status_->setText(tr("B: %1 · replayed").arg(comparison_->name()));
  });
  connect(session_, &ReplaySession::scenarioChanged, this, [this] {
    comparison_->replayOn(session_->incident());
    lanes_->setIncident(session_->incident());
    changes_->setChanges(session_->incident(), session_->changes());
  });
  connect(workspace_, &WorkspaceController::failed, this,
          [this](const QString& title, const QString& text) { report_error_(title, text); });
  connect(workspace_, &WorkspaceController::notice, this,
          [this](const QString& text) { status_->setText(text); });
  connect(workspace_, &WorkspaceController::changed, this, [this] {
    updateIncidentActions();
    refreshRecentWorkspaces();
    refreshComparisonBox();  // the B list offers the workspace's configs and runs
  });
  connect(workspace_, &WorkspaceController::autosaveFound, this, [this](const QString& summary) {
    // After the window is up (the workspace is reopened while it is built), and only when it
    // is interactive by then.
    QTimer::singleShot(0, this, [this, summary] {
      if (!interactive_) return;
      whenNotLoading([this, summary] { askToRestoreAutosave(summary); });
    });
  });
  restoreSettings();
  if (last == LastWorkspace::reopen) workspace_->reopenLast();
  refreshRecentWorkspaces();
  updateTitle();
}

void MainWindow::whenNotLoading(std::function<void()> ask) {
  if (!loading_) {
    ask();
    return;
  }
  after_loading_.push_back(std::move(ask));
}

void MainWindow::askToRestoreAutosave(const QString& summary) {
  // The buttons say what they do: a user read "Yes" against "Discard".
  QMessageBox ask(
      QMessageBox::Question, tr("Restore the tuning you were working on?"),
      summary + QStringLiteral("\n\n") +
          (session_->hasIncident() ? tr("Restore it, or discard it and keep what is open?")
                                   : tr("Restore it, or discard it?")),
      QMessageBox::NoButton, this);
  QPushButton* restore = ask.addButton(tr("Restore"), QMessageBox::AcceptRole);
  ask.addButton(QMessageBox::Discard);
  ask.setDefaultButton(restore);
  ask.exec();
  if (ask.clickedButton() == restore) {
    workspace_->restoreAutosave();
  } else if (workspace_->workspace() != nullptr && !workspace_->workspace()->readOnly()) {
    try {
      workspace_->workspace()->clearAutosave();
    } catch (const WorkspaceError& e) {
      emit workspace_->failed(tr("Could not discard the autosaved tuning"),
                              QString::fromUtf8(e.what()));
    }
  }
}

MainWindow::~MainWindow() {
  // The note being typed and the last change of the tuning go to the workspace while the
  // session and the controller are still there.
  workspace_panel_->saveNote();
  delete workspace_dock_;
  delete sensitivity_dock_;  // stops a map computing, while the session is still there
  delete tune_dock_;         // stops a search, likewise
  workspace_->flushAutosave();
  workspace_->disconnect(this);
  // Children die after this destructor has run; signals they send on their way out must not
  // reach the half-destroyed window.
  session_->disconnect(this);
  undo_->disconnect(this);
  knobs_->disconnect(this);
  changes_->disconnect(this);
  scenario_->disconnect(this);
}

void MainWindow::buildWidgets() {
  knobs_ = new views::KnobPanel;
  lanes_ = new views::LanesView;
  chart_ = new views::OutcomeChart;
  resources_ = new views::ResourceChart;
  // Key 1 or 2 with the pointer over a chart puts the cursor at the chart's time there.
  lanes_->setPointerTimeElsewhere([this]() -> std::optional<double> {
    const QPoint at = QCursor::pos();
    if (const std::optional<double> t = chart_->timeAt(at)) return t;
    return resources_->timeAt(at);
  });
  resources_->hide();  // until a result has resource series
  metrics_ = new views::MetricsPanel;
  connect(knobs_, &views::KnobPanel::configEdited, this, &MainWindow::onKnobEdited);
  changes_ = new views::ChangesPanel;
  connect(changes_, &views::ChangesPanel::changesEdited, this,
          [this](const std::vector<TimedChange>& before, const std::vector<TimedChange>& after) {
            undo_->push(new ChangesCommand(
                before, after, [this](const std::vector<TimedChange>& c) { applyChanges(c); }));
            exported_since_tuning_ = false;
            session_->setChanges(after);
          });

  // The outcome chart with the resource chart under it, in a dock below the lanes.
  charts_split_ = new QSplitter(Qt::Vertical);
  charts_split_->setChildrenCollapsible(false);
  charts_split_->addWidget(chart_);
  charts_split_->addWidget(resources_);
  // Each chart keeps a height to read values off; a dock too low for both scrolls (at 1024x700 the
  // two shared 200 px and were 15 px tall, issue #33). The scroll bar takes the room kept right of
  // the lanes' time axis, so the charts still line up with it.
  chart_->setMinimumHeight(kChartMinimumHeight);
  resources_->setMinimumHeight(kChartMinimumHeight);
  auto* charts_scroll = new QScrollArea;
  charts_scroll->setObjectName(QStringLiteral("charts-scroll"));
  charts_scroll->setWidget(charts_split_);
  charts_scroll->setWidgetResizable(true);
  charts_scroll->setFrameShape(QFrame::NoFrame);
  charts_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // The knobs, with the operators' changes (when the incident has any) and the scenario under
  // them, across a splitter: at 1024 x 700 the two took half the dock from the knobs (the second
  // walkthrough of issue #33); dragged down, or collapsed, they give it back.
  auto* left = new QSplitter(Qt::Vertical);
  left->setObjectName(QStringLiteral("knobs-split"));
  auto* below_knobs = new QWidget;
  auto* below_layout = new QVBoxLayout(below_knobs);
  below_layout->setContentsMargins(0, 0, 0, 0);
  below_layout->addWidget(changes_);
  scenario_ = new views::ScenarioPanel;
  below_layout->addWidget(scenario_);
  below_layout->addStretch(1);
  left->addWidget(knobs_);
  left->addWidget(below_knobs);
  left->setStretchFactor(0, 1);
  left->setStretchFactor(1, 0);
  left->setCollapsible(0, false);
  connect(scenario_, &views::ScenarioPanel::scenarioEdited, this,
          [this](const Scenario& before, const Scenario& after) {
            QString error;
            if (!session_->setScenario(after, &error)) {
              scenario_->setScenario(before);
              status_->setText(tr("Scenario not applied: %1").arg(error));
              return;
            }
            undo_->push(new ScenarioCommand(before, after,
                                            [this](const Scenario& s) { applyScenario(s); }));
            exported_since_tuning_ = false;
          });
  // Docks keep their panels' own minimum widths (the knobs' fields, the metrics' numbers): a
  // dock narrower than its panel would clip it.
  charts_scroll->setMinimumHeight(kDockMinimumHeight);
  auto dock = [this](const QString& title, const QString& name, QWidget* content) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);  // saveState() and restoreState() know docks by name
    d->setWidget(content);
    d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                   QDockWidget::DockWidgetFloatable);
    return d;
  };
  knobs_dock_ = dock(tr("Knobs"), QStringLiteral("knobs-dock"), left);
  // The metrics scroll sideways in a dock narrower than their columns, rather than hold the
  // window wider than the screen or be clipped.
  auto* metrics_scroll = new QScrollArea;
  metrics_scroll->setWidget(metrics_);
  metrics_scroll->setWidgetResizable(true);
  metrics_scroll->setFrameShape(QFrame::NoFrame);
  metrics_scroll->setMinimumWidth(kDockMinimumWidth);
  metrics_dock_ = dock(tr("Metrics and Checks"), QStringLiteral("metrics-dock"), metrics_scroll);
  charts_dock_ = dock(tr("Per-second Charts"), QStringLiteral("charts-dock"), charts_scroll);
  workspace_panel_ = new WorkspacePanel(workspace_);
  workspace_panel_->setMinimumWidth(kDockMinimumWidth);
  workspace_dock_ = dock(tr("Workspace"), QStringLiteral("workspace-dock"), workspace_panel_);
  sensitivity_ = new SensitivityPanel(session_);
  sensitivity_->setMinimumWidth(kDockMinimumWidth);
  sensitivity_dock_ = dock(tr("Sensitivity"), QStringLiteral("sensitivity-dock"), sensitivity_);
  connectSensitivity();
  tune_ = new TunePanel(session_, workspace_);
  tune_->setMinimumWidth(kDockMinimumWidth);
  // The panel scrolls in a short dock rather than be cut off (1024 x 700).
  auto* tune_scroll = new QScrollArea;
  tune_scroll->setWidget(tune_);
  tune_scroll->setWidgetResizable(true);
  tune_scroll->setFrameShape(QFrame::NoFrame);
  tune_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tune_dock_ = dock(tr("Tune"), QStringLiteral("tune-dock"), tune_scroll);
  connectTune();
  // The bottom area lies under the lanes only, so the charts line up with the lanes' time axis.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  // The charts line up with the lanes' time axis (pixels and ticks).
  connect(lanes_, &views::LanesView::timeAxisChanged, this,
          [this](const views::TimeAxisPlace& place) {
            chart_->alignWith(place);
            resources_->alignWith(place);
          });
  // The charts follow the lanes' zoom and pan.
  connect(lanes_->plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this](const QCPRange& r) {
            chart_->setTimeRange(r.lower, r.upper);
            resources_->setTimeRange(r.lower, r.upper);
          });

  start_ = new StartPage;
  connect(start_, &StartPage::openRequested, this, &MainWindow::openIncident);
  connect(start_, &StartPage::browseRequested, this, &MainWindow::browseForIncident);
  // A workspace opened from the start page opens onto the incident it was last used on (issue
  // #33: it only said "Opened the workspace", its dock off until an incident was open).
  connect(start_, &StartPage::openWorkspaceRequested, this, [this](const QString& path) {
    if (workspace_->open(path)) workspace_->openLastIncident();
  });

  // A stack is as tall as its tallest page: the start page, held at its own height, kept the
  // docks under the lanes from growing (three metric rows at 1024 x 700, issue #33). In a scroll
  // area it scrolls in a short window instead.
  auto* start_scroll = new QScrollArea;
  start_scroll->setWidget(start_);
  start_scroll->setWidgetResizable(true);
  start_scroll->setFrameShape(QFrame::NoFrame);
  pages_ = new QStackedWidget;
  pages_->addWidget(start_scroll);
  pages_->addWidget(lanes_);
  setCentralWidget(pages_);

  status_ = new QLabel;
  statusBar()->addWidget(status_, 1);
  resize(1500, 900);
  resetLayout();
  showPage(Page::start);
}

std::vector<QDockWidget*> MainWindow::docks() const {
  return {knobs_dock_, metrics_dock_, charts_dock_};
}

std::vector<QDockWidget*> MainWindow::allDocks() const {
  return {knobs_dock_, metrics_dock_, charts_dock_, workspace_dock_, sensitivity_dock_, tune_dock_};
}

void MainWindow::resetLayout() {
  // Every dock back in its place and shown, sized for the window as it is now.
  const std::pair<QDockWidget*, Qt::DockWidgetArea> places[] = {
      {knobs_dock_, Qt::LeftDockWidgetArea},
      {metrics_dock_, Qt::RightDockWidgetArea},
      {charts_dock_, Qt::BottomDockWidgetArea},
      {workspace_dock_, Qt::LeftDockWidgetArea}};
  for (const auto& [d, area] : places) {
    d->setFloating(false);
    addDockWidget(area, d);
    if (pages_->currentIndex() == static_cast<int>(Page::workbench)) d->show();
    docks_shown_[d] = true;
  }
  // The workspace shares the knobs' column, behind them: the lanes keep their width.
  tabifyDockWidget(knobs_dock_, workspace_dock_);
  knobs_dock_->raise();
  placeSensitivityDock();
  placeTuneDock();
  arrangeDocks();
}

void MainWindow::arrangeDocks() {
  const int w = std::max(width(), 800), h = std::max(height(), 600);
  const int knobs = knobs_dock_->widget()->minimumSizeHint().width();
  if (w < kSideBySideWidth) {
    // A narrow window: the metrics go under the lanes as a tab beside the charts (the metrics
    // in front), so that the lanes keep the width the knobs leave and the charts, when shown,
    // line up with them.
    tabifyDockWidget(charts_dock_, metrics_dock_);
    metrics_dock_->raise();
    resizeDocks({charts_dock_}, {std::clamp(h * 2 / 5, kDockMinimumHeight, 320)}, Qt::Vertical);
    // The map and Tune leave the right-hand column too: beside the lanes there is no width for
    // them (issue #33: both open at 1024 px left the lanes 120 px). A tab beside the knobs, where
    // View ▸ opens them in a narrow window; the one in front stays in front.
    if (!knobs_dock_->isFloating() && !knobs_dock_->isHidden()) {
      for (QDockWidget* side : {sensitivity_dock_, tune_dock_}) {
        if (!side || side->isHidden() || side->isFloating() ||
            dockWidgetArea(side) != Qt::RightDockWidgetArea)
          continue;
        const bool in_front = !side->visibleRegion().isEmpty();
        tabifyDockWidget(knobs_dock_, side);
        if (in_front) side->raise();
      }
    }
  } else {
    if (dockWidgetArea(metrics_dock_) != Qt::RightDockWidgetArea) {
      // Out of the charts' tabs (a plain move would leave the bottom area split).
      const bool shown = !metrics_dock_->isHidden();
      removeDockWidget(metrics_dock_);
      addDockWidget(Qt::RightDockWidgetArea, metrics_dock_);
      metrics_dock_->setVisible(shown);
      // Added last, the metrics would go under a map (or Tune) left in the right-hand column,
      // squeezed (issue #33): it goes back under them, as View ▸ Sensitivity Map puts it.
      // The same for those a narrow window had put beside the knobs.
      const QList<QDockWidget*> beside_knobs = tabifiedDockWidgets(knobs_dock_);
      for (QDockWidget* side : {sensitivity_dock_, tune_dock_})
        if (shown && side && !side->isHidden() && !side->isFloating() &&
            (dockWidgetArea(side) == Qt::RightDockWidgetArea || beside_knobs.contains(side)))
          stackUnderMetrics(side);
      knobs_dock_->raise();
    }
    resizeDocks({knobs_dock_, metrics_dock_},
                {knobs, std::clamp(w * 3 / 10, kDockMinimumWidth, 480)}, Qt::Horizontal);
    // Both charts at their least height without a scroll bar (the dock's title and the splitter
    // take about 30 px), where the window is tall enough to spare it.
    resizeDocks({charts_dock_},
                {std::clamp(std::max(h / 4, 2 * kChartMinimumHeight + 30), kDockMinimumHeight,
                            std::max(kDockMinimumHeight, h * 2 / 5))},
                Qt::Vertical);
  }
}

void MainWindow::showPage(Page page) {
  const bool workbench = page == Page::workbench;
  // What the user has open on the workbench, before the page changes (or is shown again for a
  // new incident); isHidden, not isVisible: a window not yet shown has no visible docks.
  if (pages_->currentIndex() == static_cast<int>(Page::workbench) && isVisible())
    for (QDockWidget* d : allDocks()) docks_shown_[d] = !d->isHidden();
  pages_->setCurrentIndex(static_cast<int>(page));
  // The start page has the window to itself; the docks come back as they were.
  for (QDockWidget* d : allDocks()) {
    d->setVisible(workbench && docks_shown_[d]);
    d->toggleViewAction()->setEnabled(workbench);
  }
}

void MainWindow::keepDocksUsable() {
  // A saved layout from another screen setup must not leave a dock out of reach.
  for (QDockWidget* d : allDocks()) {
    if (!d->isFloating()) continue;
    const QRect frame = d->frameGeometry();
    const bool reachable = std::any_of(
        QGuiApplication::screens().begin(), QGuiApplication::screens().end(),
        [&](const QScreen* screen) { return screen->availableGeometry().intersects(frame); });
    if (!reachable || frame.width() < kDockMinimumWidth / 2 || frame.height() < 40)
      d->setFloating(false);
  }
}

void MainWindow::keepLanesHalfTheWidth() {
  // The side docks give way to the lanes down to their own minimum.
  const int want = width() / 2;
  const int short_by = want - pages_->width();
  if (short_by <= 0) return;
  QList<QDockWidget*> side;
  QList<int> sizes;
  for (QDockWidget* d : docks()) {
    const auto area = dockWidgetArea(d);
    if (d->isHidden() || d->isFloating() ||
        (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea))
      continue;
    side << d;
    sizes << d->width();
  }
  if (side.isEmpty()) return;
  int total = 0;
  for (int w : sizes) total += w;
  for (int i = 0; i < side.size(); ++i)
    sizes[i] = std::max(side[i]->minimumSizeHint().width(),
                        sizes[i] - short_by * sizes[i] / std::max(total, 1) - 1);
  resizeDocks(side, sizes, Qt::Horizontal);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // Crossing between a narrow and a wide window moves the metrics (under the lanes or beside
  // them) if they are where the default layout put them; a layout the user made stays.
  const bool narrow = event->size().width() < kSideBySideWidth;
  const bool was_narrow = event->oldSize().width() < kSideBySideWidth;
  if (event->oldSize().isValid() && narrow != was_narrow && !metrics_dock_->isFloating() &&
      dockWidgetArea(metrics_dock_) ==
          (narrow ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea))
    QTimer::singleShot(0, this, [this] { arrangeDocks(); });
  QTimer::singleShot(0, this, [this] { keepLanesHalfTheWidth(); });
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  // Without a saved layout, the default one is made for the size the window is shown at.
  if (default_layout_pending_) {
    default_layout_pending_ = false;
    resetLayout();
  }
}

void MainWindow::buildMenus() {
  auto add = [this](QMenu* menu, const QString& name, const QString& text, const QKeySequence& keys,
                    auto slot) {
    QAction* a = menu->addAction(text);
    a->setObjectName(name);
    if (!keys.isEmpty()) a->setShortcut(keys);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };

  QMenu* file = menuBar()->addMenu(tr("&File"));
  add(file, "open", tr("&Open Incident…"), QKeySequence::Open, [this] { browseForIncident(); });
  add(file, "import-prometheus", tr("Import from &Prometheus…"), QKeySequence(),
      [this] { importFromPrometheusDialog(); });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  add(file, "new-workspace", tr("&New Workspace…"), QKeySequence(),
      [this] { newWorkspaceDialog(); });
  add(file, "open-workspace", tr("Open &Workspace…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O),
      [this] { openWorkspaceDialog(); });
  // The last workspace reopens at start-up; without this there was no leaving it (the second
  // walkthrough of issue #33).
  add(file, "close-workspace", tr("Close Wor&kspace"), QKeySequence(), [this] {
    if (!workspace_->isOpen()) return;
    const QString name = QFileInfo(workspace_->path()).fileName();
    workspace_->close();
    status_->setText(tr("Closed the workspace %1: configs and runs are no longer saved, and it "
                        "does not reopen at start-up.")
                         .arg(name));
  });
  add(file, "reload", tr("Re&load Incident"), QKeySequence(Qt::Key_F5), [this] {
    if (session_->hasIncident()) openIncident(session_->path());
  });
  file->addSeparator();
  add(file, "save-incident", tr("&Save Incident As…"),
      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), [this] { saveIncidentDialog(); });
  // Ctrl+Shift+S saves the incident and Ctrl+Shift+R shows the import report: the workspace's
  // saves take Ctrl+Alt.
  add(file, "save-config", tr("Save Con&fig As…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S),
      [this] { saveConfigAsDialog(); });
  add(file, "save-run", tr("Save R&un"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R),
      [this] { saveRunDialog(); });
  file->addSeparator();
  add(file, "import-config", tr("&Load Config…"), QKeySequence(Qt::CTRL | Qt::Key_I),
      [this] { importConfigDialog(); });
  export_library_action_ =
      add(file, "export-library", tr("Export Config for the Breaker's &Library…"),
          QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E), [this] {
            if (session_->hasIncident())
              exportConfigDialog(exportTargetOf(session_->config().breaker.library));
          });
  QMenu* export_config = file->addMenu(tr("&Export Config"));
  export_config_menu_ = export_config;
  for (ExportTarget target : kExportTargets) {
    const QString name = QStringLiteral("export-") + QString::number(static_cast<int>(target));
    const QKeySequence keys = target == ExportTarget::breakerlab_yaml
                                  ? QKeySequence(Qt::CTRL | Qt::Key_E)
                                  : QKeySequence();
    const auto label = displayName(target);
    export_actions_.push_back({target, add(export_config, name, qs(label) + QStringLiteral("…"),
                                           keys, [this, target] { exportConfigDialog(target); })});
  }
  add(file, "export-lanes", tr("Export &Lanes as Image…"),
      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this] { exportLanesDialog(); });
  add(file, "export-report", tr("Export &Report…"), QKeySequence(Qt::CTRL | Qt::Key_P), [this] {
    const QString path = exportReportDialog(this, *session_, *comparison_, report_error_);
    if (!path.isEmpty()) status_->setText(tr("Exported %1").arg(QFileInfo(path).fileName()));
  });
  add(file, "copy-metrics", tr("&Copy Metrics"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
      [this] { copyMetrics(); });
  file->addSeparator();
  add(file, "quit", tr("&Quit"), QKeySequence::Quit, [this] { close(); });

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = undo_->createUndoAction(this, tr("&Undo"));
  undo->setObjectName("undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = undo_->createRedoAction(this, tr("&Redo"));
  redo->setObjectName("redo");
  // Ctrl+Shift+Z and Ctrl+Y, and whatever else the platform calls Redo, each once: a sequence
  // given twice is two shortcuts of the same keys, which Qt takes as ambiguous and then triggers
  // neither (X11's Redo is Ctrl+Shift+Z itself).
  QList<QKeySequence> redo_keys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
                                QKeySequence(Qt::CTRL | Qt::Key_Y)};
  for (const QKeySequence& k : QKeySequence::keyBindings(QKeySequence::Redo))
    if (!redo_keys.contains(k)) redo_keys.push_back(k);
  redo->setShortcuts(redo_keys);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  add(edit, "reset", tr("Reset to &Deployed"), QKeySequence(Qt::CTRL | Qt::Key_R), [this] {
    if (!session_->hasIncident() || !session_->isTuned()) return;
    undo_->beginMacro(tr("reset to deployed"));
    if (session_->changesEdited()) {
      undo_->push(
          new ChangesCommand(session_->changes(), session_->incident().changes,
                             [this](const std::vector<TimedChange>& c) { applyChanges(c); }));
      applyChanges(session_->incident().changes);
    }
    undo_->push(new KnobCommand(QStringLiteral("reset"), session_->config(),
                                session_->incident().deployed,
                                [this](const Config& c) { applyConfig(c); }));
    applyConfig(session_->incident().deployed);
    undo_->endMacro();
  });
  what_if_menu_ = edit->addMenu(tr("Apply &What-if"));
  edit->addSeparator();
  add(edit, "swap-ab", tr("S&wap A and B"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X),
      [this] { swapAB(); });
  add(edit, "pin-b", tr("Compare &Against This Tuning"),
      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), [this] {
        if (!session_->hasIncident()) return;
        compareWith(ComparisonSlot::Choice{tr("pinned tuning"),
                                           session_->config(),
                                           session_->changes(),
                                           {},
                                           !session_->changesEdited()});
      });

  // A is the config the knobs tune; B, what it is compared against (ghost lanes, deltas).
  auto* compare = addToolBar(tr("Comparison"));
  compare->setObjectName(QStringLiteral("comparison-toolbar"));
  compare->setMovable(false);
  auto* b_label = new QLabel(tr(" Compare A (the knobs) with B: "));
  compare->addWidget(b_label);
  compare_box_ = new QComboBox;
  compare_box_->setObjectName(QStringLiteral("compare-with"));
  compare_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  compare_box_->setToolTip(tr("B: drawn as the ghost under each lane; the metrics' Δ is A − B"));
  compare->addWidget(compare_box_);
  compare->addAction(action(QStringLiteral("swap-ab")));
  compare->addAction(action(QStringLiteral("pin-b")));
  connect(compare_box_, &QComboBox::activated, this, [this](int index) {
    if (!session_->hasIncident()) return;
    const auto choices = comparisonChoices();
    if (index == 0) return compareWith(std::nullopt);
    if (index >= 1 && index <= static_cast<int>(choices.size()))
      return compareWith(choices[static_cast<std::size_t>(index - 1)]);
    if (index == compare_box_->count() - 1) {
      const QString folder = dialogFolder(FileKind::config, DialogMode::open, session_->path());
      const QString path = QFileDialog::getOpenFileName(
          this, tr("Compare with a Config"), folder,
          tr("Configs (*.yaml *.yml *.json *.go *.ts *.js *.properties);;All files (*)"));
      if (!path.isEmpty()) rememberDialogFolder(FileKind::config, path);
      if (path.isEmpty() || !compareWithConfigFile(path)) refreshComparisonBox();
    }
  });
  refreshComparisonBox();

  QMenu* view = menuBar()->addMenu(tr("&View"));
  add(view, "fit", tr("&Fit All"), QKeySequence(Qt::CTRL | Qt::Key_0),
      [this] { lanes_->fitAll(); });
  // The fleet's row expanded into a row per pod (key P over the lanes, or a click on its title).
  QAction* pods = add(view, "pods-expanded", tr("Breakers by &Pod"), QKeySequence(),
                      [this](bool on) { lanes_->setPodsExpanded(on); });
  pods->setCheckable(true);
  connect(lanes_, &views::LanesView::podsExpandedChanged, pods, &QAction::setChecked);
  add(view, "import-report", tr("&Import Report…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
      [this] { showImportReport(); });
  add(view, "sensitivity", tr("Sensitivity &Map"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
      [this] { showSensitivity(); });
  add(view, "tune", tr("&Tune…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
      [this] { showTune(); });
  add(view, "start-page", tr("&Start Page"), QKeySequence(), [this] { showPage(Page::start); });
  add(view, "workbench", tr("&Workbench"), QKeySequence(), [this] {
    if (session_->hasIncident()) showPage(Page::workbench);
  });
  view->addSeparator();
  for (QDockWidget* d : allDocks()) {
    QAction* toggle = d->toggleViewAction();
    toggle->setObjectName(d->objectName() + QStringLiteral("-toggle"));
    view->addAction(toggle);
  }
  add(view, "reset-layout", tr("&Reset Layout"), QKeySequence(), [this] {
    resetLayout();
    if (session_->hasIncident()) showPage(Page::workbench);
  });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  add(help, "shortcuts", tr("&Keyboard Shortcuts"), QKeySequence(Qt::Key_F1),
      [this] { showShortcuts(); });
  add(help, "about", tr("&About BreakerLab"), QKeySequence(), [this] { showAbout(); });
  updateIncidentActions();
}

// The actions that act on the open incident: off on the start page until one is open (the
// import report only for an imported one).
void MainWindow::updateIncidentActions() {
  static constexpr const char* kNeedAnIncident[] = {
      "reload",       "save-incident", "import-config", "export-lanes", "export-report",
      "copy-metrics", "reset",         "fit",           "workbench",    "swap-ab",
      "pin-b",        "sensitivity",   "tune"};
  const bool open = session_->hasIncident();
  for (const char* name : kNeedAnIncident) action(QString::fromLatin1(name))->setEnabled(open);
  action(QStringLiteral("import-report"))->setEnabled(open && session_->isImported());
  action(QStringLiteral("close-workspace"))->setEnabled(workspace_->isOpen());
  const bool writable = workspace_->isOpen() && !workspace_->workspace()->readOnly();
  for (const char* name : {"save-config", "save-run"})
    action(QString::fromLatin1(name))->setEnabled(open && writable);
  what_if_menu_->setEnabled(open && !session_->incident().what_ifs.empty());
  export_config_menu_->setEnabled(open);
  updateExportActions();
}

QAction* MainWindow::action(const QString& name) const {
  return findChild<QAction*>(name);
}

bool MainWindow::openIncident(const QString& path) {
  // The file is read and checked before the tuning is asked about: confirming, then getting a
  // parse error, asked the user to give up a tuning for nothing (issue #33).
  if (!loadIncident(path, stateTable(), [this] { return confirmDiscardTuning(); })) return false;
  addRecentFile(QFileInfo(path).absoluteFilePath());
  if (session_->isImported() && interactive_) showImportReport();
  return true;
}

bool MainWindow::loadIncident(const QString& path, const StateTable& table,
                              const std::function<bool()>& before_open) {
  ReplaySession::LoadOptions options;
  options.import.states = table;
  // Calibration replays the incident a few hundred times (a second on a long one), and the
  // first replay of a big incident takes as long: shown only when it takes that long; Stop
  // keeps the best fit so far, or, during the replay, the incident that was open.
  std::unique_ptr<QProgressDialog> progress;
  const QString name = QFileInfo(path).fileName();
  // Questions that came up while it loaded are asked once its progress dialog is gone.
  const bool outer = !loading_;
  loading_ = true;
  const auto finish = qScopeGuard([this, outer, &progress] {
    progress.reset();
    if (!outer) return;
    loading_ = false;
    std::vector<std::function<void()>> waiting = std::move(after_loading_);
    after_loading_.clear();
    for (auto& ask : waiting) QTimer::singleShot(0, this, std::move(ask));
  });
  // A dialog of its own for the reading and for the replay after the question on the tuning: a
  // QProgressDialog shows itself once its minimum duration is past, even hidden, and came up over
  // the question, which then waited under it while the dialog waited for it (issue #33).
  const auto newProgress = [this, &progress, &name] {
    progress = std::make_unique<QProgressDialog>(
        tr("Opening %1 (reading, calibrating against its recorded lanes)…").arg(name), tr("Stop"),
        0, 1000, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(500);
  };
  if (interactive_) {
    newProgress();
    options.import.progress = [&progress](double done) {
      progress->setValue(static_cast<int>(done * 1000));
      QCoreApplication::processEvents();
      return !progress->wasCanceled();
    };
    bool replaying = false;
    options.progress = [&progress, &replaying, name](const ReplayProgress& p) {
      if (!replaying) {
        replaying = true;
        progress->setLabelText(tr("Replaying %1…").arg(name));
      }
      progress->setValue(static_cast<int>(p.done * 1000));
      QCoreApplication::processEvents();
      return !progress->wasCanceled();
    };
    options.allow_large = [this, name](const std::string& problem) {
      return QMessageBox::question(
                 this, tr("Large replay"),
                 tr("%1 is a large replay: %2.\n\nIt may take minutes and a lot of memory. "
                    "Replay it anyway?")
                     .arg(name, QString::fromStdString(problem)),
                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
  }
  QString error;
  std::optional<ImportedIncident> imported = session_->read(path, &error, options);
  bool loaded = false;
  if (imported) {
    if (before_open) {
      const bool shown = progress != nullptr;
      progress.reset();  // the question is not part of the reading
      if (!before_open()) {
        status_->setText(tr("%1 not opened: the tuning was kept").arg(name));
        return false;
      }
      if (shown) newProgress();
    }
    loaded = session_->open(std::move(*imported), path, &error, options);
  }
  progress.reset();
  if (!loaded && (error.endsWith(QStringLiteral("import cancelled")) ||
                  error.endsWith(QStringLiteral("replay cancelled")))) {
    // The user's Stop on a big log or a long replay: nothing to report, the open incident stays.
    status_->setText(tr("Opening %1 stopped").arg(name));
  } else if (!loaded) {
    status_->setText(tr("Could not open %1").arg(name));
    report_error_(tr("Could not open incident"), error);
  }
  return loaded;
}

StateTable MainWindow::stateTable() const {
  const QString text = QSettings().value(settings::kStateTable).toString();
  if (text.isEmpty()) return StateTable::defaults();
  try {
    return parseStateTable(text.toStdString(), "settings");
  } catch (const LoadError&) {
    return StateTable::defaults();  // a table that no longer reads: the defaults, not a failure
  }
}

bool MainWindow::reimportWith(const StateTable& table) {
  if (!session_->hasIncident()) return false;
  const QString path = session_->path();
  if (!loadIncident(path, table)) return false;
  QSettings().setValue(settings::kStateTable, QString::fromStdString(stateTableToYaml(table)));
  if (import_dialog_ != nullptr) import_dialog_->setReport(session_->importReport());
  status_->setText(
      tr("Imported %1 again with the edited state table").arg(QFileInfo(path).fileName()));
  return true;
}

void MainWindow::showImportReport() {
  if (!session_->isImported()) return;
  if (import_dialog_ == nullptr) {
    import_dialog_ = new ImportReportDialog(this);
    connect(import_dialog_, &ImportReportDialog::reimportRequested, this,
            [this](const StateTable& table) { reimportWith(table); });
  }
  import_dialog_->setReport(session_->importReport());
  import_dialog_->setStateTable(stateTable());
  if (interactive_) {
    import_dialog_->show();
    import_dialog_->raise();
  }
}

bool MainWindow::saveIncidentTo(const QString& path) {
  if (!session_->hasIncident()) return false;
  try {
    std::vector<std::string> header;
    if (session_->isImported()) header = session_->importReport().lines();
    // What is on screen: the scenario's incident with the changes as toggled and moved.
    Incident shown = session_->incident();
    shown.changes = session_->changes();
    if (!session_->scenario().empty()) {
      const Scenario& sc = session_->scenario();
      header.push_back("Saved with a scenario: outage " + formatDuration(sc.outage_extend) +
                       " longer, traffic x" + formatNumber(sc.traffic_scale) + ", latency x" +
                       formatNumber(sc.latency_scale) + ", capacity x" +
                       formatNumber(sc.capacity_scale) + " (from " +
                       session_->path().toStdString() + ")");
    }
    writeOutputFile(path.toStdString(), incidentToYaml(shown, header));
  } catch (const std::exception& e) {
    report_error_(tr("Could not save the incident"), QString::fromStdString(e.what()));
    return false;
  }
  status_->setText(tr("Saved %1").arg(QFileInfo(path).fileName()));
  return true;
}

void MainWindow::saveIncidentDialog() {
  if (!session_->hasIncident()) return;
  const QFileInfo current(session_->path());
  // Beside the opened file only when that is the user's folder, not the bundled incidents'.
  const QString suggested =
      QDir(dialogFolder(FileKind::incident, DialogMode::save, session_->path()))
          .filePath(current.completeBaseName() + (session_->isImported()
                                                      ? QStringLiteral(".yaml")
                                                      : QStringLiteral("-copy.yaml")));
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Incident As"), suggested,
                                                    tr("BreakerLab incidents (*.yaml *.yml)"));
  if (path.isEmpty()) return;
  rememberDialogFolder(FileKind::incident, path);
  saveIncidentTo(path);
}

void MainWindow::showIncident() {
  const Incident& incident = session_->incident();
  undo_->clear();
  exported_since_tuning_ = false;
  // The lanes first: they still point at the incident and replay this one replaced, and the
  // panels below change the layout, which lays the lanes' labels out again (a read of the freed
  // incident, found by ASan when the time-to-trip bracket named the dependency).
  lanes_->setIncident(incident);
  knobs_->setFleetCallsPerSecond(fleetCallsPerSecond(incident));
  knobs_->setDeployed(incident.deployed);  // marks the knobs a tuning moves off it
  knobs_->setConfig(session_->config());
  // The knobs and metrics that name the dependency's answers say the incident's words.
  const DependencyWords words = dependencyWords(incident.dependency.name);
  knobs_->setDependencyWords(words);
  metrics_->setDependencyWords(words);
  changes_->setChanges(incident, session_->changes());
  scenario_->setScenario(session_->scenario());
  comparison_->clear();
  refreshComparisonBox();
  what_if_menu_->clear();
  for (const WhatIf& w : incident.what_ifs) {
    QAction* a = what_if_menu_->addAction(QString::fromStdString(w.name));
    a->setToolTip(QString::fromStdString(w.description));
    a->setStatusTip(QString::fromStdString(w.description));
    const Config target = w.config;
    const std::vector<TimedChange> target_changes = w.changes ? *w.changes : incident.changes;
    connect(a, &QAction::triggered, this, [this, target, target_changes, name = w.name] {
      undo_->beginMacro(tr("what-if %1").arg(QString::fromStdString(name)));
      if (!(session_->changes() == target_changes)) {
        undo_->push(
            new ChangesCommand(session_->changes(), target_changes,
                               [this](const std::vector<TimedChange>& c) { applyChanges(c); }));
        applyChanges(target_changes);
      }
      undo_->push(new KnobCommand(QString::fromStdString("what-if " + name), session_->config(),
                                  target, [this](const Config& c) { applyConfig(c); }));
      applyConfig(target);
      undo_->endMacro();
    });
  }
  updateIncidentActions();
  showPage(Page::workbench);
  updateTitle();
}

void MainWindow::showResult() {
  if (!session_->hasIncident()) return;
  const Result& result = session_->result();
  const bool tuned = session_->isTuned();
  const std::optional<Micros> partial = session_->partialUntil();
  lanes_->setBreakerLibrary(session_->config().breaker.library);
  const Result& b = comparisonBaseline();
  lanes_->setBaselineName(comparison_->result() ? comparison_->name() : tr("deployed"));
  lanes_->setResults(result, tuned || !comparison_->isDeployed() ? &b : nullptr);
  lanes_->setPendingFrom(partial ? std::optional<double>(toSeconds(*partial)) : std::nullopt);
  updateExportActions();
  // A progressive answer covers part of the window: its sums are not the run's, so the metrics
  // keep the last whole answer, greyed until this one is whole.
  if (!partial) {
    Checks checks = session_->checks();
    // The verdict on the goals is against B.
    if (comparison_->result())
      checks.baseline_goals =
          evaluate(session_->incident().goals, session_->incident(), *comparison_->result());
    metrics_->setBaselineName(comparison_->result() ? comparison_->name() : tr("deployed"));
    metrics_->setResults(result, b, checks);
  }
  metrics_->setEnabled(!partial);
  metrics_->setToolTip(partial ? tr("Updating: the replay of the whole window is still running")
                               : QString());
  chart_->setResult(result, toSeconds(session_->incident().start));
  resources_->setResult(result, toSeconds(session_->incident().start));
  showResourceChart(resources_->hasSeries());
  const WhatIf* what_if = session_->currentWhatIf();
  const QString which = what_if ? tr(" · what-if '%1'").arg(QString::fromStdString(what_if->name))
                                : (tuned ? tr(" · tuned") : tr(" · deployed config"));
  const QString file = QFileInfo(session_->path()).fileName();
  if (partial) {
    const Incident& inc = session_->incident();
    // "to 09:22 of 13:31" on a wall clock, "to 120 s of 600 s" without one.
    const auto at = [&inc](Micros t) {
      return inc.clock_start ? QString::fromStdString(formatClockTime(*inc.clock_start + t))
                             : tr("%1 s").arg(QString::fromStdString(formatSeconds(t)));
    };
    status_->setText(tr("%1 · replaying… shown to %2 of %3 (%4 ms)%5")
                         .arg(file, at(*partial), at(inc.end),
                              QString::number(session_->lastReplayMilliseconds(), 'f', 2), which));
  } else {
    status_->setText(
        tr("%1 · %2 requests replayed in %3 ms%4")
            .arg(file,
                 QLocale::system().toString(static_cast<qulonglong>(result.simulated_requests)),
                 QString::number(session_->lastReplayMilliseconds(), 'f', 2), which));
  }
  updateTitle();
}

void MainWindow::showResourceChart(bool show) {
  // Below the outcome chart, only for runs with bounded workers or pool, several pods, retries
  // or a dependency of limited capacity; the others look as they did without it.
  if (resources_->isHidden() != show) return;
  resources_->setVisible(show);
  if (!show) return;
  QList<int> sizes = charts_split_->sizes();
  if (sizes.size() == 2 && sizes[1] < 60) {
    // Hidden when the layout was saved, or never shown: as tall as the outcome chart.
    const int total = sizes[0] + sizes[1];
    charts_split_->setSizes({total / 2, total - total / 2});
  }
}

void MainWindow::applyConfig(const Config& config, bool knob_step) {
  exported_since_tuning_ = false;  // undo, reset and what-ifs change the config too
  knobs_->setConfig(config, knob_step);
  session_->setConfig(config);
}

void MainWindow::applyScenario(const Scenario& scenario) {
  if (!session_->setScenario(scenario)) return;
  scenario_->setScenario(scenario);
}

void MainWindow::applyChanges(const std::vector<TimedChange>& changes) {
  exported_since_tuning_ = false;
  changes_->setChanges(session_->incident(), changes);
  session_->setChanges(changes);
}

void MainWindow::onKnobEdited(const QString& id, const Config& before, const Config& after) {
  if (after.breaker.library != before.breaker.library) {
    switchLibrary(before, after);
    return;
  }
  undo_->push(
      new KnobCommand(id, before, after, [this](const Config& c) { applyConfig(c, true); }));
  exported_since_tuning_ = false;
  session_->setConfig(after);
}

// The panel has translated the breaker in force into the new library (translateToLibrary) and
// lists what it could not carry over. One undo step that never merges with the next switch: a
// switch through a third library loses what each step lost, and undo must give back exactly the
// library and settings before.
void MainWindow::switchLibrary(const Config& before, const Config& after) {
  const std::vector<NotCarriedOver> lost = knobs_->notCarriedOver();
  const BreakerLibrary target = after.breaker.library;
  undo_->push(
      new ValueCommand<Config>(tr("switch the breaker to %1").arg(qs(libraryInfo(target).title)),
                               before, after, [this, after, lost, target](const Config& c) {
                                 applyConfig(c);
                                 if (c == after)
                                   sayWhatWasCarriedOver(target, lost);  // a redo says it again
                               }));
  exported_since_tuning_ = false;
  session_->setConfig(after);
  sayWhatWasCarriedOver(target, lost);
}

void MainWindow::sayWhatWasCarriedOver(BreakerLibrary target,
                                       const std::vector<NotCarriedOver>& lost) {
  knobs_->showNotCarriedOver(target, lost);
  const QString title = qs(libraryInfo(target).title);
  if (lost.empty()) {
    status_->setText(tr("The same breaker under %1's rules").arg(title));
    return;
  }
  // The settings themselves are listed in the panel: a status bar label as long as the list
  // would widen the window.
  const QString settings =
      views::countText(static_cast<long long>(lost.size()), tr("1 setting"), tr("%1 settings"));
  status_->setText(tr("The same breaker under %1's rules · %2 not carried over, listed under "
                      "Breaker library")
                       .arg(title, settings));
}

QString MainWindow::statusText() const {
  return status_->text();
}

void MainWindow::updateTitle() {
  QString title = QStringLiteral("BreakerLab");
  if (session_->hasIncident()) {
    title = QStringLiteral("%1%2 — %3 — BreakerLab")
                .arg(session_->isTuned() ? QStringLiteral("*") : QString(),
                     QString::fromStdString(session_->incident().id),
                     QFileInfo(session_->path()).fileName());
  }
  setWindowTitle(title);
}

void MainWindow::browseForIncident() {
  const QString folder = dialogFolder(FileKind::incident, DialogMode::open, session_->path());
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Incident"), folder, incidentFilter());
  if (path.isEmpty()) return;
  // The folder the user chose, even when the file does not open: the next try starts there.
  rememberDialogFolder(FileKind::incident, path);
  openIncident(path);
}

void MainWindow::importFromPrometheusDialog() {
  PrometheusImportDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted || dialog.result() == nullptr) return;
  openPrometheusImport(*dialog.result());
}

bool MainWindow::openPrometheusImport(const PrometheusImport& imported) {
  const QString folder =
      QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/prometheus";
  const QString path =
      folder + "/" + QString::fromStdString(imported.imported.incident.id) + ".json";
  try {
    QDir().mkpath(folder);
    writeOutputFile(path.toStdString(), imported.responses);
  } catch (const std::exception& e) {
    report_error_(tr("Could not save the Prometheus answers"), QString::fromStdString(e.what()));
    return false;
  }
  return openIncident(path);
}

bool MainWindow::exportConfigTo(const QString& path, ExportTarget target,
                                std::vector<std::string>* not_expressible) {
  if (!session_->hasIncident()) return false;
  const ExportedConfig exported = exportConfig(session_->config(), target,
                                               session_->incident().dependency.name.empty()
                                                   ? std::string("dependency")
                                                   : session_->incident().dependency.name);
  try {
    writeOutputFile(path.toStdString(), exported.text);
  } catch (const std::exception& e) {
    report_error_(tr("Could not export the config"), QString::fromStdString(e.what()));
    return false;
  }
  exported_since_tuning_ = true;
  if (not_expressible) *not_expressible = exported.not_expressible;
  QString note = tr("Exported %1").arg(QFileInfo(path).fileName());
  if (!exported.not_expressible.empty())
    note += views::countText(
        static_cast<long long>(exported.not_expressible.size()),
        tr(" · 1 setting the target cannot express is listed at the top of the file"),
        tr(" · %1 settings the target cannot express are listed at the top of the file"));
  status_->setText(note);
  return true;
}

bool MainWindow::exportConfigDialog(ExportTarget target) {
  if (!session_->hasIncident()) return false;
  const QString folder = dialogFolder(FileKind::config, DialogMode::save, session_->path());
  const auto suffix = fileSuffix(target);
  const QString name = QString::fromStdString(session_->incident().id).toLower() +
                       QStringLiteral("-tuned") + qs(suffix);
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export Config"), QDir(folder).filePath(name));
  std::vector<std::string> not_expressible;
  if (path.isEmpty()) return false;
  rememberDialogFolder(FileKind::config, path);
  if (!exportConfigTo(path, target, &not_expressible)) return false;
  if (interactive_ && !not_expressible.empty()) {
    QStringList lines;
    for (const auto& l : not_expressible) lines << QStringLiteral("• ") + QString::fromStdString(l);
    QMessageBox::information(this, tr("Exported with limitations"),
                             tr("The target cannot express:\n\n%1\n\nThe file lists these in a "
                                "comment at the top.")
                                 .arg(lines.join('\n')));
  }
  return true;
}

// A library's breaker exports as that library (or BreakerLab YAML); the generic machine to any.
void MainWindow::updateExportActions() {
  // Every result comes through here: looking actions up by name each time cost more than the
  // metrics panel's update.
  const bool open = session_->hasIncident();
  const BreakerLibrary library = session_->config().breaker.library;
  for (const auto& [target, a] : export_actions_)
    a->setEnabled(open && (target == ExportTarget::breakerlab_yaml ||
                           library == BreakerLibrary::breakerlab || libraryOf(target) == library));
  export_library_action_->setEnabled(open && library != BreakerLibrary::breakerlab);
}

const Result& MainWindow::comparisonBaseline() const {
  // While B replays (a second on a long incident) the deployed config stands in.
  const Result* b = comparison_->result();
  return b ? *b : session_->baseline();
}

void MainWindow::compareWith(std::optional<ComparisonSlot::Choice> b) {
  if (!session_->hasIncident()) return;
  comparison_->set(std::move(b), session_->incident());
  if (comparison_->busy()) status_->setText(tr("Replaying B: %1…").arg(comparison_->name()));
  refreshComparisonBox();
  showResult();
}

std::vector<ComparisonSlot::Choice> MainWindow::comparisonChoices() const {
  std::vector<ComparisonSlot::Choice> choices;
  if (!session_->hasIncident()) return choices;
  const Incident& incident = session_->incident();
  for (const WhatIf& w : incident.what_ifs)
    choices.push_back({tr("what-if %1").arg(QString::fromStdString(w.name)), w.config,
                       w.changes ? *w.changes : incident.changes, w.name, false});
  // Then the workspace's named configs and runs of this incident.
  for (ComparisonSlot::Choice& c : workspace_->comparisonChoices()) choices.push_back(std::move(c));
  // The B list finds B by its name: two runs saved under one name (or a run called "deployed")
  // were two entries the same, of which only the first could be told apart (the second
  // walkthrough of issue #33).
  QStringList names;
  for (const ComparisonSlot::Choice& c : choices) names << c.name;
  names = distinctNames(names, {tr("deployed"), tr("config file…")});
  for (std::size_t i = 0; i < choices.size(); ++i) choices[i].name = names[static_cast<int>(i)];
  return choices;
}

void MainWindow::refreshComparisonBox() {
  const QSignalBlocker block(compare_box_);
  compare_box_->clear();
  compare_box_->addItem(tr("deployed"));
  int current = 0;
  for (const ComparisonSlot::Choice& c : comparisonChoices()) {
    compare_box_->addItem(c.name);
    if (!comparison_->isDeployed() && comparison_->name() == c.name)
      current = compare_box_->count() - 1;
  }
  // A pinned tuning or a config file is shown while it is B.
  if (!comparison_->isDeployed() && current == 0) {
    compare_box_->addItem(comparison_->name());
    current = compare_box_->count() - 1;
  }
  compare_box_->addItem(tr("config file…"));
  compare_box_->setCurrentIndex(current);
  compare_box_->setEnabled(session_->hasIncident());
}

bool MainWindow::compareWithConfigFile(const QString& path) {
  if (!session_->hasIncident()) return false;
  const std::string file = path.toStdString();
  Config config = session_->incident().deployed;
  try {
    const std::string text = readTextFile(file);
    if (text.find(kConfigFormat) != std::string::npos) {
      config = parseConfig(text, file);
    } else {
      applyNativeConfig(parseNativeConfig(text, file), config);
    }
  } catch (const std::exception& e) {
    report_error_(tr("Could not read the config to compare with"),
                  QString::fromStdString(e.what()));
    refreshComparisonBox();
    return false;
  }
  compareWith(ComparisonSlot::Choice{
      QFileInfo(path).fileName(), config, session_->incident().changes, {}, true});
  return true;
}

void MainWindow::swapAB() {
  // A takes B's config and changes (one undo step); B becomes what A was.
  if (!session_->hasIncident()) return;
  const Incident& incident = session_->incident();
  ComparisonSlot::Choice was_a{session_->isTuned() ? tr("previous tuning") : QString(),
                               session_->config(),
                               session_->changes(),
                               {},
                               !session_->changesEdited()};
  const Config b_config =
      comparison_->isDeployed() ? incident.deployed : comparison_->choice()->config;
  const std::vector<TimedChange> b_changes =
      comparison_->isDeployed() ? incident.changes : comparison_->choice()->changes;
  const QString b_name = comparison_->name();
  undo_->beginMacro(tr("swap A and B"));
  if (!(session_->changes() == b_changes)) {
    undo_->push(new ChangesCommand(session_->changes(), b_changes,
                                   [this](const std::vector<TimedChange>& c) { applyChanges(c); }));
    applyChanges(b_changes);
  }
  undo_->push(new KnobCommand(QStringLiteral("swap A and B"), session_->config(), b_config,
                              [this](const Config& c) { applyConfig(c); }));
  applyConfig(b_config);
  // The old A: deployed stays "deployed"; a what-if keeps its name; a tuning is "previous".
  const WhatIf* what_if = nullptr;
  for (const WhatIf& w : incident.what_ifs)
    if (w.config == was_a.config && (w.changes ? *w.changes : incident.changes) == was_a.changes)
      what_if = &w;
  std::optional<ComparisonSlot::Choice> new_b;
  if (!(was_a.config == incident.deployed && was_a.changes == incident.changes)) {
    if (what_if) {
      was_a.name = tr("what-if %1").arg(QString::fromStdString(what_if->name));
      was_a.what_if = what_if->name;
    }
    new_b = was_a;
  }
  // B is part of the swap's undo step: undoing it gives A and B back as they were.
  undo_->push(new ComparisonCommand(
      tr("compare with"), comparison_->choice(), new_b,
      [this](const std::optional<ComparisonSlot::Choice>& b) { compareWith(b); }));
  compareWith(new_b);
  undo_->endMacro();
  status_->setText(tr("A is now %1; B is %2").arg(b_name, comparison_->name()));
}

bool MainWindow::importConfigFrom(const QString& path, QStringList* notes) {
  if (!session_->hasIncident()) return false;
  const std::string file = path.toStdString();
  Config after = session_->config();
  QStringList found;
  try {
    const std::string text = readTextFile(file);
    if (text.find(kConfigFormat) != std::string::npos) {
      after = parseConfig(text, file);
    } else {
      const NativeConfig imported = parseNativeConfig(text, file);
      applyNativeConfig(imported, after);
      for (const ImportNote& n : imported.notes)
        found << QString::fromStdString(formatNote(QFileInfo(path).fileName().toStdString(), n));
    }
  } catch (const std::exception& e) {
    report_error_(tr("Could not import the config"), QString::fromStdString(e.what()));
    return false;
  }
  const Config before = session_->config();
  if (!(after == before)) {
    undo_->push(new KnobCommand(QStringLiteral("import"), before, after,
                                [this](const Config& c) { applyConfig(c); }));
    applyConfig(after);
  }
  if (notes) *notes = found;
  QString text = tr("Imported %1 · %2 breaker")
                     .arg(QFileInfo(path).fileName(), qs(libraryInfo(after.breaker.library).title));
  if (!found.isEmpty())
    text += views::countText(found.size(), tr(" · 1 note on what is not modelled"),
                             tr(" · %1 notes on what is not modelled"));
  status_->setText(text);
  return true;
}

void MainWindow::importConfigDialog() {
  if (!session_->hasIncident()) return;
  const QString folder = dialogFolder(FileKind::config, DialogMode::open, session_->path());
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Load Config"), folder,
      tr("Breaker configs (*.yml *.yaml *.properties *.go *.json);;All files (*)"));
  if (path.isEmpty()) return;
  rememberDialogFolder(FileKind::config, path);
  QStringList notes;
  if (!importConfigFrom(path, &notes)) return;
  if (interactive_ && !notes.isEmpty())
    QMessageBox::information(this, tr("Imported with notes"),
                             tr("BreakerLab does not model these parts of the file; the replay "
                                "goes on without them:\n\n%1")
                                 .arg(notes.join('\n')));
}

namespace {

// A knob's value as the panel writes it: a choice by name, a toggle on/off, a number with unit.
QString knobValueText(const KnobSpec& knob, double value) {
  using Kind = KnobSpec::Kind;
  if (knob.kind == Kind::toggle) return value != 0 ? QObject::tr("on") : QObject::tr("off");
  if (knob.kind == Kind::choice) {
    const auto i = static_cast<std::size_t>(value);
    return i < knob.choices.size() ? qs(knob.choices[i].name) : QString::number(value);
  }
  return QString::number(value, 'g', 6) + qs(knob.unit);
}

}  // namespace

QStringList MainWindow::configSummary() const {
  // What the exported config changes from the deployed one, knob by knob.
  const Config& deployed = session_->incident().deployed;
  const Config& config = session_->config();
  QStringList changed;
  for (const KnobSpec& knob : knobSpecs()) {
    if (!knob.editable() || !knobShown(knob, config)) continue;
    const double was = knob.get(deployed), now = knob.get(config);
    if (was == now) continue;
    changed << QStringLiteral("%1 %2 → %3")
                   .arg(qs(knob.label), knobValueText(knob, was), knobValueText(knob, now));
  }
  QStringList lines;
  const WhatIf* what_if = session_->currentWhatIf();
  if (changed.isEmpty())
    lines << tr("Config: as deployed");
  else
    lines << (what_if ? tr("Config: what-if %1 — ").arg(QString::fromStdString(what_if->name))
                      : tr("Config: tuned — ")) +
                 changed.join(QStringLiteral(" · "));
  if (session_->changesEdited()) lines << tr("The operators' timed changes were edited.");
  return lines;
}

bool MainWindow::exportLanesTo(const QString& path) {
  lanes_->replotNow();
  QString error;
  const Incident& incident = session_->incident();
  views::LanesView::ExportHeader header;
  header.title =
      QString::fromStdString(incident.id) +
      (incident.title.empty() ? QString()
                              : QStringLiteral(" · ") + QString::fromStdString(incident.title));
  header.lines = configSummary();
  const std::optional<QByteArray> image =
      lanes_->renderImage(QFileInfo(path).suffix(), &error, header);
  if (!image) {
    report_error_(tr("Could not export the lanes"), error);
    return false;
  }
  try {
    writeOutputFile(path.toStdString(), std::string_view(image->constData(), image->size()));
  } catch (const std::exception& e) {
    report_error_(tr("Could not export the lanes"), QString::fromStdString(e.what()));
    return false;
  }
  status_->setText(tr("Exported %1").arg(QFileInfo(path).fileName()));
  return true;
}

void MainWindow::exportLanesDialog() {
  if (!session_->hasIncident()) return;
  const QString folder = dialogFolder(FileKind::exported, DialogMode::save, session_->path());
  QString selected;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export Lanes"),
      QDir(folder).filePath(QString::fromStdString(session_->incident().id).toLower() + ".png"),
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &selected);
  if (path.isEmpty()) return;
  rememberDialogFolder(FileKind::exported, path);
  exportLanesTo(path);
}

void MainWindow::copyMetrics() {
  if (!session_->hasIncident()) return;
  QApplication::clipboard()->setText(metrics_->asText());
  status_->setText(tr("Metrics copied"));
}

void MainWindow::addRecentFile(const QString& path) {
  rememberRecent(settings::kRecentFiles, path);
  refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
  const QStringList files = QSettings().value(settings::kRecentFiles).toStringList();
  recent_menu_->clear();
  int n = 1;
  for (const QString& path : files) {
    QAction* a = recent_menu_->addAction(QStringLiteral("&%1 %2").arg(n++).arg(path));
    connect(a, &QAction::triggered, this, [this, path] { openIncident(path); });
  }
  recent_menu_->setEnabled(!files.isEmpty());
  start_->setRecentFiles(files);
}

void MainWindow::showShortcuts() {
  // Every menu command with a key, as the menus name it, then the keys of the lanes.
  struct Row {
    QString keys;
    QString what;
  };
  std::vector<Row> rows;
  for (QAction* a : findChildren<QAction*>()) {
    if (a->shortcut().isEmpty() || a->objectName().isEmpty()) continue;
    QString what = a->text();
    what.remove('&');
    what.remove(QStringLiteral("…"));
    rows.push_back({a->shortcut().toString(QKeySequence::NativeText), what});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.what < y.what; });
  for (const views::LaneKeyHelp& k : views::laneKeyHelp()) rows.push_back({k.keys, k.what});
  QString html = QStringLiteral("<table cellspacing=6>");
  for (const Row& r : rows)
    html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(r.keys, r.what);
  html += QStringLiteral("</table>");
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Keyboard Shortcuts"));
  auto* text = new QTextBrowser;
  text->setHtml(html);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(&dialog);
  layout->addWidget(text);
  layout->addWidget(buttons);
  dialog.resize(560, 420);
  dialog.exec();
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About BreakerLab"),
      tr("<h3>BreakerLab %1</h3><p>Replays production incidents and tunes circuit breakers, "
         "timeouts and fallback caches.</p><p>Licensed under the GNU General Public License, "
         "version 3 or later. Plots by QCustomPlot (GPLv3), built with Qt %2.</p>")
          .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::restoreSettings() {
  QSettings s;
  restoreGeometry(s.value(settings::kGeometry).toByteArray());
  // A layout saved by a build without docks, or not a layout at all, leaves the default one.
  if (restoreState(s.value(settings::kWindowState).toByteArray(), kLayoutVersion)) {
    for (QDockWidget* d : allDocks()) docks_shown_[d] = !d->isHidden();
    keepDocksUsable();
  } else {
    resetLayout();
    default_layout_pending_ = true;
  }
  charts_split_->restoreState(s.value(settings::kChartsSplitter).toByteArray());
  showPage(static_cast<Page>(pages_->currentIndex()));
  refreshRecentMenu();
}

void MainWindow::saveSettings() const {
  QSettings s;
  s.setValue(settings::kGeometry, saveGeometry());
  s.setValue(settings::kWindowState, layoutState());
  s.setValue(settings::kChartsSplitter, charts_split_->saveState());
}

QByteArray MainWindow::layoutState() const {
  // On the start page the docks are hidden for the page's sake, not the user's: save them as
  // the workbench has them.
  auto* self = const_cast<MainWindow*>(this);
  const bool on_start = pages_->currentIndex() == static_cast<int>(Page::start);
  if (on_start)
    for (QDockWidget* d : allDocks()) d->setVisible(docks_shown_.at(d));
  const QByteArray state = self->saveState(kLayoutVersion);
  if (on_start)
    for (QDockWidget* d : allDocks()) d->hide();
  return state;
}

bool MainWindow::tuningWouldBeLost() const {
  return session_->isTuned() && !exported_since_tuning_ && !workspace_->keepsCurrentTuning();
}

bool MainWindow::confirmDiscardTuning() {
  if (!tuningWouldBeLost() || (!interactive_ && !unsaved_tuning_prompt_)) return true;
  const bool in_workspace = workspace_->isOpen() && !workspace_->workspace()->readOnly();
  const QString text =
      tr("The knobs differ from the deployed config, and the tuned config was neither exported "
         "nor saved in the workspace.") +
      QStringLiteral("\n\n") +
      (in_workspace ? tr("Save keeps it as a run in the workspace; Discard goes on without it.")
                    : tr("Save exports it to a config file; Discard goes on without it."));
  UnsavedTuningChoice choice = UnsavedTuningChoice::cancel;
  if (unsaved_tuning_prompt_) {
    choice = unsaved_tuning_prompt_(text);
  } else {
    QMessageBox box(QMessageBox::Warning, tr("Save the tuned config?"), text,
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    const int answer = box.exec();
    choice = answer == QMessageBox::Save      ? UnsavedTuningChoice::save
             : answer == QMessageBox::Discard ? UnsavedTuningChoice::discard
                                              : UnsavedTuningChoice::cancel;
  }
  switch (choice) {
    case UnsavedTuningChoice::discard:
      return true;
    case UnsavedTuningChoice::save:
      return saveTuningBeforeLeaving();
    case UnsavedTuningChoice::cancel:
      break;
  }
  return false;
}

bool MainWindow::saveTuningBeforeLeaving() {
  // A failed or cancelled save keeps everything where it was, as Cancel does.
  if (workspace_->isOpen() && !workspace_->workspace()->readOnly())
    return workspace_->saveRun().has_value();
  return exportConfigDialog(exportTargetOf(session_->config().breaker.library));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmDiscardTuning()) {
    event->ignore();
    return;
  }
  saveSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openIncident(urls.front().toLocalFile());
}

}  // namespace breakerlab::app
