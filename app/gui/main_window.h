#pragma once
// The workbench window: knobs on the left, lanes and the per-second charts in the middle (the
// resource chart only for runs with resource series), metrics on the right; menus, shortcuts,
// undo, recent files, drag and drop, exports.
#include <QMainWindow>
#include <functional>
#include <utility>
#include <vector>

#include "breakerlab/core/scenario.h"
#include "breakerlab/data/config_export.h"
#include "breakerlab/data/state_table.h"

class QAction;
class QLabel;
class QMenu;
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
class StartPage;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens an incident. A broken file reports file, line, column and what was expected, and
  // leaves the open incident as it was.
  bool openIncident(const QString& path);
  // Writes the tuned config for `target`; `not_expressible` receives what the target cannot say.
  bool exportConfigTo(const QString& path, ExportTarget target,
                      std::vector<std::string>* not_expressible = nullptr);
  bool exportLanesTo(const QString& path);
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
  // Without prompts (tests, --grab): closing never asks about an unsaved tuned config.
  void setInteractive(bool interactive) { interactive_ = interactive; }

  ReplaySession& session() const { return *session_; }
  views::KnobPanel* knobs() const { return knobs_; }
  views::ChangesPanel* changesPanel() const { return changes_; }
  views::ScenarioPanel* scenarioPanel() const { return scenario_; }
  views::LanesView* lanes() const { return lanes_; }
  views::MetricsPanel* metrics() const { return metrics_; }
  views::OutcomeChart* chart() const { return chart_; }
  views::ResourceChart* resources() const { return resources_; }
  QUndoStack* undoStack() const { return undo_; }
  QAction* action(const QString& name) const;

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildWidgets();
  void buildMenus();
  void showResult();
  void showIncident();
  void showResourceChart(bool show);
  void applyConfig(const Config& config);
  void onKnobEdited(const QString& id, const Config& before, const Config& after);
  void addRecentFile(const QString& path);
  void refreshRecentMenu();
  void updateTitle();
  void browseForIncident();
  void exportConfigDialog(ExportTarget target);
  void importConfigDialog();
  void updateExportActions();
  void updateIncidentActions();
  void exportLanesDialog();
  void saveIncidentDialog();
  void showImportReport();
  bool loadIncident(const QString& path, const StateTable& table);
  StateTable stateTable() const;
  void copyMetrics();
  void showShortcuts();
  void showAbout();
  void restoreSettings();
  void saveSettings() const;
  bool confirmDiscardTuning();

  ReplaySession* session_ = nullptr;
  QUndoStack* undo_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  StartPage* start_ = nullptr;
  QSplitter* main_split_ = nullptr;
  QSplitter* center_split_ = nullptr;
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
  bool interactive_ = true;
  bool exported_since_tuning_ = false;
};

}  // namespace breakerlab::app
