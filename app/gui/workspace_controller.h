#pragma once
// The open workspace (*.breakerlab) and what the workbench does with it: the incidents it opens
// are added, named configs and runs are saved and opened again exactly, two of them go into the
// A/B comparison, and the tuning is autosaved after every change so that a crash loses at most
// the last one. Every workspace failure is reported (what happened, and that nothing saved
// before was lost) and never ends the workbench.
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>
#include <vector>

#include "breakerlab/data/workspace.h"
#include "comparison_slot.h"
#include "workspace_model.h"

namespace breakerlab::app {

class MainWindow;

// The incident a workspace was last used on: the autosaved tuning's (`autosaved`, when the
// workspace still holds it), else the one with the newest run, or added last when it has no
// run (ISO 8601 times in UTC, so the later string is the later time); nullopt for none.
std::optional<std::int64_t> lastUsedIncident(const std::vector<IncidentSummary>& incidents,
                                             std::optional<std::int64_t> autosaved);

class WorkspaceController : public QObject {
  Q_OBJECT
 public:
  // Edits are coalesced this long before they are autosaved: a slider drag writes once.
  static constexpr int kAutosaveDelayMs = 150;

  explicit WorkspaceController(MainWindow* window);
  ~WorkspaceController() override;

  // Creates a new workspace at `path` (an existing file there is replaced) and opens it.
  bool create(const QString& path);
  // Opens `path`; on failure the workspace that was open stays open.
  bool open(const QString& path);
  void close();
  // The workspace open when the workbench last closed, if it still exists.
  void reopenLast();
  // Opens the incident the workspace was last used on (lastUsedIncident), unless one is open
  // on the workbench already: a workspace opened from the start page opens onto its work. False
  // when nothing was opened (the workspace holds no incident, or it could not be read).
  bool openLastIncident();

  bool isOpen() const { return workspace_ != nullptr; }
  Workspace* workspace() const { return workspace_.get(); }
  QString path() const;
  // The open incident's id in the workspace (none without a workspace or an incident).
  std::optional<std::int64_t> currentIncident() const { return incident_id_; }

  // The replay inputs of A as the session has them.
  RunInputs currentInputs() const;

  // Whether A as it is now (config, changes, scenario, seed) was saved in the workspace, as a
  // run or a named config: opening another file or closing loses nothing then.
  bool keepsCurrentTuning() const;

  // Saves A's config under `name` for the open incident; its id.
  std::optional<std::int64_t> saveConfigAs(const QString& name);
  // Stores the whole replay of A as a run (waiting for it when it is still running); its id.
  std::optional<std::int64_t> saveRun(const QString& name = {});
  // Stores a run replayed elsewhere (a config the Tune dock found, replayed on its worker from
  // A's inputs) as a run of the open incident named `name`; its id.
  std::optional<std::int64_t> saveReplayedRun(const QString& name, NewRun run);
  // Replays a stored run exactly: its incident from the workspace, its config, seed, changes
  // and scenario.
  bool openRun(std::int64_t run_id);
  // Applies a named config to A on the open incident (one undo step).
  bool openConfig(std::int64_t config_id);
  bool openItem(const WorkspaceItem& item);
  // B is the config or run `item` (of the open incident).
  bool compareWithCurrent(const WorkspaceItem& item);
  // The open incident's named configs and runs, as the toolbar's B list offers them.
  std::vector<ComparisonSlot::Choice> comparisonChoices() const;
  // `a` opens as A, `b` becomes B (both of one incident).
  bool compareTwo(const WorkspaceItem& a, const WorkspaceItem& b);

  // The tuning autosaved last, restored (its incident from the workspace).
  bool restoreAutosave();
  // Writes a pending autosave now.
  void flushAutosave();

  std::string note(const NoteTarget& target) const;
  bool setNote(const NoteTarget& target, const QString& text);

 signals:
  // The workspace was opened, closed or written: the panel reads it again.
  void changed();
  void failed(const QString& title, const QString& text);
  void notice(const QString& text);
  // A workspace with an autosaved tuning was opened: `summary` says what and when.
  void autosaveFound(const QString& summary);

 private:
  void onIncidentChanged();
  void onResultChanged();
  void writeAutosave();
  // `item` (a config or a run) as B; nullopt for another kind. Throws WorkspaceError.
  std::optional<ComparisonSlot::Choice> choiceOf(const WorkspaceItem& item) const;
  void adopt(std::unique_ptr<Workspace> workspace);
  void addOpenIncident();
  // Opens the stored incident with `seed` unless it is open with it already.
  bool showStoredIncident(std::int64_t incident_id, std::optional<std::uint64_t> seed);
  bool applyInputs(const QString& what, const RunInputs& inputs);
  // Writes a run of the open incident, naming the kept config it replays if any (throws
  // WorkspaceError); its id.
  std::int64_t storeRun(NewRun run);
  void reportError(const QString& doing, const std::exception& error);
  void rememberRecent(const QString& path);
  bool waitForWholeReplay();

  MainWindow* window_;
  std::unique_ptr<Workspace> workspace_;
  std::optional<std::int64_t> incident_id_;
  // Set while the workspace itself replaces the open incident: it is in the workspace already.
  std::optional<std::int64_t> restoring_;
  // What the workspace holds as the autosave (incident, inputs), to skip writes that change
  // nothing; and the newest tuning waiting for the timer.
  std::optional<Autosave> autosaved_;
  // What was last saved as a run or a named config (the autosave is not a save).
  std::optional<Autosave> kept_;
  // The runs Tune saved since the workspace was opened: applying one keeps a tuning that is
  // saved (the third walkthrough of issue #33: "neither exported nor saved" after Apply).
  std::vector<Autosave> tuned_runs_;
  std::optional<Autosave> pending_;
  bool pending_deployed_ = false;  // pending_ is the deployed config: the autosave is cleared
  QTimer autosave_timer_;
};

}  // namespace breakerlab::app
