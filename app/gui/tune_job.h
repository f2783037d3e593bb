#pragma once
// A search of the knobs (breakerlab::tune, the engine of `breakerlab-cli tune`) run off the UI
// thread on every core but one, as the sensitivity map is. Progress, with the best config so far,
// reaches the UI thread a step at a time; Stop ends the search and keeps what it found, which is
// then reported as the command reports it (reportedConfigs) and, when asked, replayed as the
// runs the workspace keeps. A newer search or a new incident (discard) supersedes the one
// running: only the newest search's answers are handed out (a generation number tells them apart).
#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/tuning/tune.h"
#include "breakerlab/data/workspace.h"

namespace breakerlab::app {

struct TuneRequest {
  // What A replays on: the scenario's incident with A's timed changes.
  std::shared_ptr<const Incident> incident;
  Config base;  // A's config; the search's knobs are set on it, under `library`
  BreakerLibrary library = BreakerLibrary::breakerlab;
  std::vector<KnobRange> knobs;
  std::vector<Expectation> goals;  // beside the incident's own (with incident_goals)
  bool incident_goals = true;
  std::vector<const MetricInfo*> minimize;  // one, or two for a Pareto front
  std::size_t budget = 2000;
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: every core but one
  // With `run_inputs`, each config found is also replayed as a workspace run: the incident as
  // opened and A's inputs (seed, changes, scenario), whose config each found one replaces.
  std::shared_ptr<const Incident> opened;
  std::optional<RunInputs> run_inputs;
};

// The best config so far, while the search runs.
struct TuneStep {
  std::size_t evaluated = 0;
  std::size_t budget = 0;
  bool have_feasible = false;
  double best_objective = 0;
  std::optional<Config> best;  // A's config with the best values so far set
};

struct TuneOutcome {
  TuneResult result;                  // the engine's, with its statistics
  std::vector<TunedConfig> reported;  // as `tune` reports them
  std::vector<Config> configs;        // each reported one as the config A would take
  // Each replayed as the workspace keeps a run (with run_inputs only), for the incident and name
  // the workspace gives it. Made on the worker: a replay's checks point into its incident.
  std::vector<NewRun> runs;
  double seconds = 0;
};

class TuneJob : public QObject {
  Q_OBJECT
 public:
  explicit TuneJob(QObject* parent = nullptr);
  ~TuneJob() override;  // stops the search and waits for it

  void start(TuneRequest request);
  // Ends the search: what it has found is reported (finished), as Ctrl+C does on the CLI.
  void stop();
  // Ends the search and hands out nothing of it (a new incident).
  void discard();
  bool busy() const { return computing_; }
  // Searches whose worker has not returned yet (discarded ones included).
  int searchesRunning() const { return running_; }

 signals:
  void progress(const breakerlab::app::TuneStep& step);
  void finished(const breakerlab::app::TuneOutcome& outcome);
  void failed(const QString& reason);

 private:
  QThreadPool pool_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::uint64_t generation_ = 0;
  int running_ = 0;
  bool computing_ = false;
};

}  // namespace breakerlab::app
