#pragma once
// The Tune dock: a search of the knobs against the goals (docs/tuning.md, "Tuning in the
// workbench"), the workbench's face of `breakerlab-cli tune`. The knobs to search, each over a
// range (by default the chosen library's open time and probe count, as the docs tune 8 Sep), the
// incident's goals and any more, one or two metrics to minimise, the budget and the search's
// seed. The search runs on every core but one (TuneJob); its best config so far is offered as B
// while it runs (bestSoFar), Stop keeps what it found, and each config found is offered as B
// when chosen in the list and made A with Apply. Nothing is computed here: the engine and the
// command's set-up (tune_setup.h) do it.
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/knobs/search_space.h"
#include "tune_job.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
class QToolButton;

namespace breakerlab::views {
class KnobSpinBox;
}

namespace breakerlab::app {

class ReplaySession;
class WorkspaceController;

class TunePanel : public QWidget {
  Q_OBJECT
 public:
  // The budget a search starts with: the command's default (8 Sep's 2,000 configs took 1 to 2 s
  // on one core of the shared 2-core machine, 7 Dec).
  static constexpr int kDefaultBudget = 2000;
  static constexpr int kMaxBudget = 1'000'000;
  // The best config so far is offered as B at most this often (each offer replays B).
  static constexpr int kBestSoFarIntervalMs = 300;

  TunePanel(ReplaySession* session, WorkspaceController* workspace, QWidget* parent = nullptr);
  ~TunePanel() override;

  // The library whose breaker is tuned; its default knobs replace the list.
  bool chooseLibrary(BreakerLibrary library);
  // The knobs searched, each over its range (replacing the list); false when one is not a knob
  // of the chosen library or of every library.
  bool setKnobs(const std::vector<KnobRange>& knobs);
  std::vector<KnobRange> knobs() const;
  // A knob added over its whole range, on the panel's scale (wholeRange).
  bool addKnob(const QString& id);
  // The library the search is in (its knobs, and the settings of what it finds).
  BreakerLibrary library() const;
  // "METRIC OP VALUE" goals beside the incident's own, separated by ';'.
  void setExtraGoals(const QString& goals);
  void setIncidentGoals(bool on);
  // The metrics minimised: `second` empty for one.
  bool chooseObjectives(const QString& first, const QString& second = {});
  void setBudget(int budget);
  void setSeed(int seed);
  // Threads the search uses (0: every core but one).
  void setThreads(unsigned threads) { threads_ = threads; }

  // Starts the search with the controls as they are (a search running is replaced).
  void start();
  // Ends the search running; what it found is kept and reported.
  void stop();
  bool busy() const { return job_->busy(); }
  TuneJob& job() const { return *job_; }

  // The last search's outcome (none before one ends).
  const std::optional<TuneOutcome>& outcome() const { return outcome_; }
  // The config of the result chosen in the list (the first by default).
  std::optional<Config> chosenConfig() const;
  // Makes the chosen result A (applyRequested).
  void apply();

  QPushButton* startButton() const { return start_; }
  QPushButton* applyButton() const { return apply_; }
  QProgressBar* progressBar() const { return progress_; }
  QListWidget* resultList() const { return results_; }
  QString statusText() const;
  // What the last search was warned of (a knob without effect), or empty.
  QString notice() const;

 signals:
  // A search started: B is about to follow it.
  void started();
  // The best config so far, to show as B while the search runs.
  void bestSoFar(const QString& name, const breakerlab::Config& config);
  // A result chosen in the list, to show as B (the first when a search ends).
  void resultChosen(const QString& name, const breakerlab::Config& config);
  // Make `config` A, as one undo step; `what` names the result ("tuned: Timeout 500ms, …").
  void applyRequested(const QString& what, const breakerlab::Config& config);
  // The search ended (finished, stopped or failed); its runs are saved by then.
  void searchEnded();

 private:
  struct KnobRow {
    const KnobSpec* knob = nullptr;
    QLabel* name = nullptr;
    views::KnobSpinBox* low = nullptr;
    views::KnobSpinBox* high = nullptr;
    QCheckBox* log = nullptr;
    QToolButton* remove = nullptr;
  };
  void onIncidentChanged();
  void followLibraryOfA();
  void onLibraryChosen();
  void fillLibraries();
  void fillAddKnob();
  void fillObjectives();
  void clearKnobRows();
  void addKnobRow(const KnobRange& range);
  void removeKnobRow(const KnobSpec* knob);
  void layOutKnobRows();
  void updateGoals();
  void updateButtons();
  bool searchable(const KnobSpec& knob) const;
  std::vector<const MetricInfo*> objectives() const;
  void onProgress(const TuneStep& step);
  void onFinished(const TuneOutcome& outcome);
  void saveRuns(const TuneOutcome& outcome);
  // Names the knobs searched that cannot move the metrics (IdleKnob), or hides the notice.
  void showIdleKnobs(const TuneCase& searched, const std::vector<KnobRange>& knobs);
  QString resultText(std::size_t index) const;
  // "tuned: Timeout 500 ms, MaxRequests 2", as a run and an undo step are named.
  QString resultName(std::size_t index) const;
  // "tuned", "tuned 2 of 4": B's name, short enough for the metrics' column.
  QString shortName(std::size_t index) const;

  ReplaySession* session_;
  WorkspaceController* workspace_;
  TuneJob* job_;
  QComboBox* library_ = nullptr;
  QGridLayout* knob_grid_ = nullptr;
  std::vector<KnobRow> rows_;
  QComboBox* add_knob_ = nullptr;
  QCheckBox* incident_goals_ = nullptr;
  QLabel* incident_goals_list_ = nullptr;
  QLineEdit* extra_goals_ = nullptr;
  QComboBox* objective_ = nullptr;
  QComboBox* second_objective_ = nullptr;
  QSpinBox* budget_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* apply_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QListWidget* results_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* notice_ = nullptr;
  unsigned threads_ = 0;
  // What the running search asks (to name its results), and when B last followed it.
  std::vector<KnobRange> searching_;
  std::vector<const MetricInfo*> minimising_;
  QTimer* best_timer_ = nullptr;  // offers the newest best config once the interval is over
  std::optional<Config> best_pending_;
  std::optional<TuneOutcome> outcome_;
  // A's library when the dock last followed it: the dock's library follows A's when A's changes
  // (a library chosen, a config loaded), and otherwise keeps what the user chose in the dock.
  std::optional<BreakerLibrary> followed_library_;
  std::vector<KnobRange> outcome_knobs_;
  std::vector<const MetricInfo*> outcome_metrics_;
};

}  // namespace breakerlab::app
