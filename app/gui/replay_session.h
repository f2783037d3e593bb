#pragma once
// The open incident, the config being tuned and the replays of both it and the deployed
// baseline. Small incidents are replayed on the UI thread (well inside a frame); large ones on a
// worker with latest-wins coalescing, so dragging a slider never queues up stale replays.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_import.h"

namespace breakerlab::app {

class ReplaySession : public QObject {
  Q_OBJECT
 public:
  // Incidents expected to simulate more requests than this replay on a worker thread, so that
  // a slider never blocks the UI. Pods, pools, workers and a capped dependency cost about
  // three times as much per request (tests/bench/model_bench.cpp), so their limit is lower.
  // (A count, not a measured time: the same incident must take the same path on any machine.)
  static constexpr double kSynchronousRequests = 400'000;
  static constexpr double kSynchronousRequestsWithResources = 100'000;
  // A worker replay is preceded by the window's beginning, replayed on the UI thread and exact as
  // far as it goes, sized to replay within a few milliseconds (at the model_bench rates), so that
  // a knob change repaints within a frame; the whole window follows from the worker. The veil
  // over the rest says it is still replaying.
  static constexpr double kPreviewRequests = 30'000;
  static constexpr double kPreviewRequestsWithResources = 10'000;
  // How often a worker replay checks whether a newer one superseded it (events; a few hundred
  // microseconds of simulation at the model_bench rates).
  static constexpr std::uint64_t kSupersededCheckEvents = 4096;

  explicit ReplaySession(QObject* parent = nullptr);
  ~ReplaySession() override;

  // How a load treats a big incident. A file can ask for a week at 1e8 requests per second:
  // its work is estimated before anything replays, and above `max_requests` (its deployed
  // config or any what-if) `allow_large` decides (no callback: refused). The first replay runs
  // on the calling thread, calling `progress` (false stops it: the load fails, nothing changes).
  struct LoadOptions {
    ImportOptions import;
    double max_requests = kDefaultMaxSimulatedRequests;
    std::function<bool(const std::string& problem)> allow_large;
    std::function<bool(const ReplayProgress&)> progress;
  };
  // Loads and replays `path`: any document BreakerLab opens (an incident, a postmortem, ...),
  // told by its content. On failure nothing changes and `error` says what was wrong
  // (file:line:column: message, or "... replay cancelled").
  bool load(const QString& path, QString* error, const LoadOptions& options);
  bool load(const QString& path, QString* error) { return load(path, error, LoadOptions{}); }
  // load() in its two halves, so that the window can ask about the tuning between them: once the
  // file is known to open, never before a parse error (issue #33). read() reads and checks
  // `path` and changes nothing (nullopt and `error` on failure); open() adopts what it read and
  // replays it, false (nothing changed) when the replay is cancelled.
  std::optional<ImportedIncident> read(const QString& path, QString* error,
                                       const LoadOptions& options) const;
  bool open(ImportedIncident imported, const QString& path, QString* error,
            const LoadOptions& options);
  // Adopts an already parsed incident (tests, benchmarks).
  void adopt(Incident incident, const QString& path);

  bool hasIncident() const { return incident_ != nullptr; }
  const Incident& incident() const { return *incident_; }
  const QString& path() const { return path_; }
  // What the open incident was made from, and the import's report (for a breakerlab/1 file
  // the report is empty).
  IncidentSource source() const { return source_; }
  const ImportReport& importReport() const { return import_report_; }
  bool isImported() const { return hasIncident() && source_ != IncidentSource::incident; }

  const Config& config() const { return config_; }
  // Replays with `config`; resultChanged() follows (at once, or when the worker is done).
  void setConfig(const Config& config);
  bool isTuned() const {
    return hasIncident() && (!(config_ == incident_->deployed) || changesEdited());
  }
  // The timed changes replayed with the config: the incident's own until the user toggles or
  // moves one. setChanges replays like setConfig.
  const std::vector<TimedChange>& changes() const { return changes_; }
  void setChanges(std::vector<TimedChange> changes);
  bool changesEdited() const { return hasIncident() && !(changes_ == incident_->changes); }
  // The incident as the scenario has it (a longer outage, more traffic): incident() is then the
  // changed one, the baseline the deployed config on it. False (and nothing changes) when the
  // scenario cannot apply; `error` says why.
  const Scenario& scenario() const { return scenario_; }
  bool setScenario(const Scenario& scenario, QString* error = nullptr);
  // The incident as opened, before any scenario.
  const Incident& openedIncident() const { return *opened_; }
  // The what-if whose config is the current one, if any.
  const WhatIf* currentWhatIf() const;

  const Result& result() const { return result_; }
  // Whether result() is the whole replay of the current config, changes and scenario (not a
  // preview, nor an earlier replay still shown while the current one runs).
  bool resultIsCurrent() const;
  // Set while result() is a progressive answer: it covers the window up to this time only and
  // the whole-window replay is still running (busy()).
  std::optional<Micros> partialUntil() const { return partial_until_; }
  const Result& baseline() const { return baseline_; }
  // Calibration: the incident's `expect:` on the deployed config's replay of the incident as
  // opened (before any scenario). It does not change while the config is tuned.
  const std::vector<ExpectationResult>& calibration() const { return calibration_; }
  // The incident's goals on the current result.
  std::vector<ExpectationResult> goals() const;
  // The incident's goals on the baseline (the deployed config on incident()).
  const std::vector<ExpectationResult>& baselineGoals() const { return baseline_goals_; }
  // The current what-if's own `expect:` on the current result (empty without a what-if).
  std::vector<ExpectationResult> whatIfChecks() const;
  // How many goals the current config meets against the deployed one.
  GoalComparison goalComparison() const { return compareGoals(goals(), baseline_goals_); }
  // All of them, as the metrics panel shows them.
  Checks checks() const;
  double lastReplayMilliseconds() const { return last_replay_ms_; }
  bool busy() const { return running_; }

 signals:
  void incidentChanged();
  void resultChanged();
  // The scenario replaced incident() (its segments, window, changes) but it is the same
  // incident: views that hold on to it must take the new one before the next resultChanged().
  void scenarioChanged();

 private:
  void adopt(Incident incident, const QString& path, IncidentSource source, ImportReport report,
             const std::function<bool(const ReplayProgress&)>& progress = {});
  void startWorker(const Config& config);
  void answerWithPreview(const Config& config);
  // Where a preview (the window cut short at `cut`) stops being the whole replay's beginning.
  static Micros exactUntil(const Result& preview, Micros start, Micros cut);
  void replay();
  double expectedRequests() const;
  double synchronousLimit() const {
    return resources_ ? kSynchronousRequestsWithResources : kSynchronousRequests;
  }
  double previewBudget() const {
    return resources_ ? kPreviewRequestsWithResources : kPreviewRequests;
  }
  void makePreview();

  std::shared_ptr<const Incident> incident_;
  std::shared_ptr<const Incident> opened_;  // incident_ before the scenario
  Scenario scenario_;
  // Lets knob changes that the lead-in never exercises skip replaying it. Used by one replay at
  // a time: on this thread for small incidents, by the (single, sequential) worker for large.
  std::shared_ptr<ReplayCache> cache_ = std::make_shared<ReplayCache>();
  QString path_;
  IncidentSource source_ = IncidentSource::incident;
  ImportReport import_report_;
  Config config_;
  std::vector<TimedChange> changes_;
  Result result_;
  // What result_ is the replay of.
  struct ReplayOf {
    Config config;
    std::vector<TimedChange> changes;
    Scenario scenario;
  };
  ReplayOf result_of_;
  std::optional<Micros> partial_until_;
  // The window's beginning (see kPreviewRequests), with its own cache; null: no preview.
  std::shared_ptr<const Incident> preview_;
  std::shared_ptr<ReplayCache> preview_cache_;
  double preview_lead_in_requests_ = 0;
  Result baseline_;
  // Evaluated once per baseline: the result they were made from does not change while tuning.
  std::vector<ExpectationResult> calibration_;
  std::vector<ExpectationResult> baseline_goals_;
  double last_replay_ms_ = 0;
  bool resources_ = false;  // the deployed config has pods, pools, workers or a capped dependency
  bool running_ = false;
  std::optional<Config> queued_;  // the newest config asked for while the worker ran
  // Set when a newer config supersedes the running replay: the worker stops at its next
  // progress check instead of finishing a replay nobody will see.
  std::shared_ptr<std::atomic<bool>> superseded_ = std::make_shared<std::atomic<bool>>(false);
  struct Replay {
    Config config;
    std::vector<TimedChange> changes;
    Scenario scenario;
    Result result;
    double milliseconds = 0;
    bool cancelled = false;
  };
  // The replay travels behind a shared_ptr: QFuture hands results out by copy, and a copy of
  // a million-checkout Result costs milliseconds.
  QFutureWatcher<std::shared_ptr<Replay>> watcher_;
};

}  // namespace breakerlab::app
