#pragma once
// The workbench window: knobs on the left, lanes and the per-second charts in the middle (the
// resource chart only for runs with resource series), metrics on the right; menus, shortcuts,
// undo, recent files, drag and drop, exports.
#include <QMainWindow>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/data/config_export.h"
#include "breakerlab/data/prometheus_query.h"
#include "breakerlab/data/state_table.h"
#include "comparison_slot.h"

class QAction;
class QLabel;
class QMenu;
class QComboBox;
class QDockWidget;
class QSplitter;
class QStackedWidget;
class QUndoStack;

namespace breakerlab::views {
class KnobPanel;
class ChangesPanel;
class ScenarioPanel;
class LanesView;
class MetricsPanel;
class OutcomeChart;
class ResourceChart;
}  // namespace breakerlab::views

namespace breakerlab::app {

class ImportReportDialog;
class ReplaySession;
class SensitivityPanel;
class StartPage;
class TunePanel;
class WorkspaceController;
class WorkspacePanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // Whether the workspace used last reopens with the window: not for `--grab`, a picture of an
  // incident that has no business saving into the user's workspace (the third walkthrough of
  // issue #33: each --grab added its incident to the workspace a workbench had open).
  enum class LastWorkspace { reopen, leave };
  explicit MainWindow(QWidget* parent = nullptr, LastWorkspace last = LastWorkspace::reopen);
  ~MainWindow() override;

  // Opens an incident. A broken file reports file, line, column and what was expected, and
  // leaves the open incident as it was.
  bool openIncident(const QString& path);
  // Opens what File ▸ Import from Prometheus fetched: its answers, saved under the app's data
  // folder as <incident id>.json, opened as that file is.
  bool openPrometheusImport(const PrometheusImport& imported);
  // Writes the tuned config for `target`; `not_expressible` receives what the target cannot say.
  bool exportConfigTo(const QString& path, ExportTarget target,
                      std::vector<std::string>* not_expressible = nullptr);
  // The lanes as an image, titled with the incident and what the config changes, with legend.
  bool exportLanesTo(const QString& path);
  // "Config: tuned — Open interval 20s → 5s · ...": the current config against the deployed.
  QStringList configSummary() const;
  // The A/B comparison: B (nullopt: the deployed config); the choices the B box offers (the
  // what-ifs); B from a config file (BreakerLab's or a library's own); A and B swapped.
  void compareWith(std::optional<ComparisonSlot::Choice> b);
  std::vector<ComparisonSlot::Choice> comparisonChoices() const;
  bool compareWithConfigFile(const QString& path);
  void swapAB();
  ComparisonSlot& comparison() const { return *comparison_; }
  // B's replay (the deployed one while B replays).
  const Result& comparisonBaseline() const;
  // Writes the open incident as breakerlab/1 YAML (atomically), with the import report as
  // comments when it was imported.
  bool saveIncidentTo(const QString& path);
  // Reads the open document again with `table` (and remembers the table for later imports).
  bool reimportWith(const StateTable& table);
  ImportReportDialog* importReportDialog() const { return import_dialog_; }
  // Takes a breaker config: a library's own file (its breaker replaces the current one) or a
  // breakerlab-config/1 file (the whole config). One undo step; `notes` receives what the file
  // holds that BreakerLab does not model, as FILE:LINE:COL lines.
  bool importConfigFrom(const QString& path, QStringList* notes = nullptr);

  // Where errors and notices go: a dialog by default; tests capture them instead.
  using Reporter = std::function<void(const QString& title, const QString& text)>;
  void setErrorReporter(Reporter reporter) { report_error_ = std::move(reporter); }
  // Whether opening another incident or closing would lose a tuning: A differs from the
  // deployed config and was neither exported nor saved in the workspace (as a run or a config).
  bool tuningWouldBeLost() const;
  // Without prompts (tests, --grab): closing never asks about an unsaved tuned config.
  void setInteractive(bool interactive) { interactive_ = interactive; }
  // What the user answers when opening or closing would lose a tuning (tuningWouldBeLost): keep
  // it first (saved as a run in the open workspace, else exported to a file), go on without it,
  // or stay. A test answers with its own prompt, asked even when not interactive.
  enum class UnsavedTuningChoice { save, discard, cancel };
  using UnsavedTuningPrompt = std::function<UnsavedTuningChoice(const QString& text)>;
  void setUnsavedTuningPrompt(UnsavedTuningPrompt prompt) {
    unsaved_tuning_prompt_ = std::move(prompt);
  }

  ReplaySession& session() const { return *session_; }
  // The open workspace (File ▸ New/Open Workspace) and its dock.
  WorkspaceController& workspace() const { return *workspace_; }
  WorkspacePanel* workspacePanel() const { return workspace_panel_; }
  QDockWidget* workspaceDock() const { return workspace_dock_; }
  // The Sensitivity dock (View ▸ Sensitivity Map): shown, in front, placed beside the lanes.
  SensitivityPanel* sensitivityPanel() const { return sensitivity_; }
  QDockWidget* sensitivityDock() const { return sensitivity_dock_; }
  void showSensitivity();
  // The Tune dock (View ▸ Tune): shown, in front, placed as the Sensitivity dock is.
  TunePanel* tunePanel() const { return tune_; }
  QDockWidget* tuneDock() const { return tune_dock_; }
  void showTune();
  // A (the knobs) as `config` with `changes` and `scenario`, one undo step named `what`: a
  // named config or a run from the workspace. False (A as it was) when the scenario cannot apply.
  bool applyTuning(const QString& what, const Config& config,
                   const std::vector<TimedChange>& changes, const Scenario& scenario);
  // Opens an incident that is not a file of its own (restored from the workspace), named
  // `path`; asks first, as opening a file does, when the tuning would be lost.
  bool openRestoredIncident(Incident incident, const QString& path);
  views::KnobPanel* knobs() const { return knobs_; }
  views::ChangesPanel* changesPanel() const { return changes_; }
  views::ScenarioPanel* scenarioPanel() const { return scenario_; }
  views::LanesView* lanes() const { return lanes_; }
  views::MetricsPanel* metrics() const { return metrics_; }
  views::OutcomeChart* chart() const { return chart_; }
  views::ResourceChart* resources() const { return resources_; }
  QDockWidget* chartsDock() const { return charts_dock_; }
  QUndoStack* undoStack() const { return undo_; }
  // The status bar's message (what the last action said, or the replay's count).
  QString statusText() const;
  QAction* action(const QString& name) const;
  // The knobs, metrics and charts docks.
  std::vector<QDockWidget*> docks() const;
  // Every dock back in its default place, shown (View ▸ Reset Layout).
  void resetLayout();
  // The saveState() layout version: a layout from a build without these docks is not restored.
  static constexpr int kLayoutVersion = 5;
  static constexpr int kDockMinimumWidth = 200;
  static constexpr int kDockMinimumHeight = 110;
  // A per-second chart's least height: its legend (one or two rows), x labels and 55 to 75 px
  // of plot.
  static constexpr int kChartMinimumHeight = 130;
  // Narrower windows get the metrics under the lanes, beside the charts (resetLayout()).
  static constexpr int kSideBySideWidth = 1440;

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildWidgets();
  void buildMenus();
  void showResult();
  void showIncident();
  void showResourceChart(bool show);
  // The config in force, from an undo step, a what-if, B, a tune's result. `knob_step`: the undo
  // or redo of a knob edit, which keeps the note of a library switch before it.
  void applyConfig(const Config& config, bool knob_step = false);
  void onKnobEdited(const QString& id, const Config& before, const Config& after);
  void switchLibrary(const Config& before, const Config& after);
  void sayWhatWasCarriedOver(BreakerLibrary target, const std::vector<NotCarriedOver>& lost);
  void addRecentFile(const QString& path);
  void refreshRecentMenu();
  void updateTitle();
  void browseForIncident();
  void importFromPrometheusDialog();
  // Whether a file was written.
  bool exportConfigDialog(ExportTarget target);
  void importConfigDialog();
  void updateExportActions();
  void updateIncidentActions();
  void exportLanesDialog();
  void saveIncidentDialog();
  void showImportReport();
  // Reads `path`, then (when it opens) asks `before_open` whether to go on, then replays it.
  bool loadIncident(const QString& path, const StateTable& table,
                    const std::function<bool()>& before_open = {});
  StateTable stateTable() const;
  void copyMetrics();
  void showShortcuts();
  void showAbout();
  enum class Page { start = 0, workbench = 1 };
  void showPage(Page page);
  // The docks' sizes, and where the metrics go, for the window's width.
  void arrangeDocks();
  void keepLanesHalfTheWidth();
  void keepDocksUsable();
  QByteArray layoutState() const;
  // docks() and the workspace dock, which is tabbed behind the knobs.
  std::vector<QDockWidget*> allDocks() const;
  void newWorkspaceDialog();
  void openWorkspaceDialog();
  void saveConfigAsDialog();
  void saveRunDialog();
  void refreshRecentWorkspaces();
  // The Sensitivity dock (main_window_sensitivity.cpp): its hooks, its place in the default
  // layout (hidden until asked for), and a cell applied to the knobs as one undo step.
  void connectSensitivity();
  void placeSensitivityDock();
  // A side dock (the map, Tune) in the right-hand column under the metrics, 3/5 of the height.
  void stackUnderMetrics(QDockWidget* dock);
  void applyFromSensitivity(const QString& what, const Config& after);
  // The Tune dock (main_window_tune.cpp): its hooks and place, B following the search, and a
  // config found made A as one undo step.
  void connectTune();
  void placeTuneDock();
  void placeSideDock(QDockWidget* dock);
  void applyFromTune(const QString& what, const Config& config);
  void restoreSettings();
  void saveSettings() const;
  // True when nothing would be lost or the user saved it or chose to discard it.
  bool confirmDiscardTuning();
  // The prompt's Save: the tuning as a run of the open workspace, else exported to a file.
  bool saveTuningBeforeLeaving();

  ReplaySession* session_ = nullptr;
  WorkspaceController* workspace_ = nullptr;
  WorkspacePanel* workspace_panel_ = nullptr;
  QDockWidget* workspace_dock_ = nullptr;
  SensitivityPanel* sensitivity_ = nullptr;
  QDockWidget* sensitivity_dock_ = nullptr;
  TunePanel* tune_ = nullptr;
  QDockWidget* tune_dock_ = nullptr;
  // B when the last search started: Apply gives it back, as A takes the config found.
  std::optional<ComparisonSlot::Choice> b_before_tune_;
  QString tune_b_name_;  // the name B has while a search's config is B
  QUndoStack* undo_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  StartPage* start_ = nullptr;
  QSplitter* charts_split_ = nullptr;
  ComparisonSlot* comparison_ = nullptr;
  QComboBox* compare_box_ = nullptr;
  void refreshComparisonBox();
  QDockWidget* knobs_dock_ = nullptr;
  QDockWidget* metrics_dock_ = nullptr;
  QDockWidget* charts_dock_ = nullptr;
  // Whether each dock shows on the workbench (the start page hides them all).
  std::map<const QDockWidget*, bool> docks_shown_;
  bool default_layout_pending_ = false;  // no saved layout: made on the first show
  views::KnobPanel* knobs_ = nullptr;
  views::ChangesPanel* changes_ = nullptr;
  views::ScenarioPanel* scenario_ = nullptr;
  void applyScenario(const Scenario& scenario);
  void applyChanges(const std::vector<TimedChange>& changes);
  views::LanesView* lanes_ = nullptr;
  views::MetricsPanel* metrics_ = nullptr;
  views::OutcomeChart* chart_ = nullptr;
  views::ResourceChart* resources_ = nullptr;
  QLabel* status_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  std::vector<std::pair<ExportTarget, QAction*>> export_actions_;
  QAction* export_library_action_ = nullptr;
  QMenu* export_config_menu_ = nullptr;
  QMenu* what_if_menu_ = nullptr;
  ImportReportDialog* import_dialog_ = nullptr;
  Reporter report_error_;
  UnsavedTuningPrompt unsaved_tuning_prompt_;
  bool interactive_ = true;
  // An incident being read or replayed under its progress dialog (loadIncident): a question that
  // comes up meanwhile (the autosave's Restore) waits for it to end, or the progress dialog
  // would come up over it (the second walkthrough of issue #33).
  bool loading_ = false;
  std::vector<std::function<void()>> after_loading_;
  void whenNotLoading(std::function<void()> ask);
  void askToRestoreAutosave(const QString& summary);
  bool exported_since_tuning_ = false;
};

}  // namespace breakerlab::app
