#include "replay_session.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab::app {

ReplaySession::ReplaySession(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<std::shared_ptr<Replay>>::finished, this, [this] {
    running_ = false;
    Replay& replay = *watcher_.result();
    if (queued_) {  // a newer config arrived meanwhile: its replay supersedes this one
      const Config next = *queued_;
      queued_.reset();
      startWorker(next);
      return;
    }
    if (!replay.cancelled && replay.config == config_ && replay.changes == changes_ &&
        replay.scenario == scenario_) {
      // The shown result's records become the next replay's buffer (the worker is idle now).
      cache_->recycle(std::move(result_.checkouts));
      result_ = std::move(replay.result);
      result_of_ = {replay.config, replay.changes, replay.scenario};
      partial_until_.reset();
      // The lead-in this config replayed serves the next preview too.
      if (preview_) preview_cache_->shareLeadIn(*cache_, *incident_, *preview_);
      last_replay_ms_ = replay.milliseconds;
      emit resultChanged();
    }
  });
}

bool ReplaySession::resultIsCurrent() const {
  return hasIncident() && !partial_until_ && result_of_.config == config_ &&
         result_of_.changes == changes_ && result_of_.scenario == scenario_;
}

ReplaySession::~ReplaySession() {
  watcher_.waitForFinished();
}

bool ReplaySession::load(const QString& path, QString* error, const LoadOptions& options) {
  std::optional<ImportedIncident> imported = read(path, error, options);
  return imported && open(std::move(*imported), path, error, options);
}

std::optional<ImportedIncident> ReplaySession::read(const QString& path, QString* error,
                                                    const LoadOptions& options) const {
  try {
    ImportedIncident imported = openIncidentFile(path.toStdString(), options.import);
    std::string which;
    const WorkEstimate work = largestWork(imported.incident, &which);
    if (const std::string problem = workLimitProblem(work, options.max_requests);
        !problem.empty()) {
      const std::string text = which + ": " + problem;
      if (!options.allow_large || !options.allow_large(text)) {
        if (error) *error = path + QStringLiteral(": ") + QString::fromStdString(text);
        return std::nullopt;
      }
    }
    return imported;
  } catch (const LoadError& e) {
    if (error) *error = QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    if (error) *error = path + QStringLiteral(": ") + QString::fromStdString(e.what());
  }
  return std::nullopt;
}

bool ReplaySession::open(ImportedIncident imported, const QString& path, QString* error,
                         const LoadOptions& options) {
  try {
    adopt(std::move(imported.incident), path, imported.source, std::move(imported.report),
          options.progress);
    return true;
  } catch (const std::exception& e) {
    // ReplayCancelled among them: "... replay cancelled".
    if (error) *error = path + QStringLiteral(": ") + QString::fromStdString(e.what());
  }
  return false;
}

void ReplaySession::adopt(Incident incident, const QString& path) {
  adopt(std::move(incident), path, IncidentSource::incident, {});
}

void ReplaySession::adopt(Incident incident, const QString& path, IncidentSource source,
                          ImportReport report,
                          const std::function<bool(const ReplayProgress&)>& progress) {
  queued_.reset();
  superseded_->store(true);
  watcher_.waitForFinished();
  // The baseline first, into a fresh cache: a cancelled replay leaves the open incident as it
  // was (its cache is only a shortcut and refills on its next replay).
  auto next = std::make_shared<const Incident>(std::move(incident));
  auto cache = std::make_shared<ReplayCache>();
  QElapsedTimer clock;
  clock.start();
  SimulateOptions simulate_options;
  simulate_options.cache = cache.get();
  simulate_options.progress = progress;
  Result baseline = simulate(*next, next->deployed, simulate_options);
  last_replay_ms_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  // Before incidentChanged(): its listeners ask what the incident was made from.
  source_ = source;
  import_report_ = std::move(report);
  incident_ = std::move(next);
  opened_ = incident_;
  scenario_ = Scenario{};
  cache_ = std::move(cache);
  path_ = path;
  config_ = incident_->deployed;
  changes_ = incident_->changes;
  baseline_ = std::move(baseline);
  result_ = baseline_;
  result_of_ = {config_, changes_, scenario_};
  calibration_ = evaluateCalibration(opened_->expect, *opened_, baseline_);
  baseline_goals_ = evaluate(incident_->goals, *incident_, baseline_);
  const Config& d = incident_->deployed;
  resources_ = d.load_balancer.pods > 1 || d.workers.per_pod > 0 || d.pool.size > 0 ||
               incident_->dependency.capacity.concurrency > 0;
  partial_until_.reset();
  makePreview();
  emit incidentChanged();
  emit resultChanged();
}

double ReplaySession::expectedRequests() const {
  return static_cast<double>(baseline_.simulated_requests);
}

void ReplaySession::makePreview() {
  preview_.reset();
  preview_cache_.reset();
  const double expected = expectedRequests();
  const double sync_limit = synchronousLimit();
  const double budget = previewBudget();
  const Incident& inc = *incident_;
  if (expected <= sync_limit || inc.end <= inc.start) return;
  // A recorded log's lead-in runs at the window's mean rate, so a shorter window would change
  // it: no preview is exact there.
  if (inc.traffic.arrivals == ArrivalProcess::recorded) return;
  // The budget goes to the window, in whole seconds so that the preview's per-second series line
  // up with the whole run's; its lead-in comes from the cache when it can (see replay()).
  const double checkouts = baseline_.metrics.checkouts;
  preview_lead_in_requests_ = std::max(0.0, expected - checkouts);
  const double per_second = checkouts / toSeconds(inc.end - inc.start);
  if (per_second <= 0) return;
  const double span_s = std::floor(budget / per_second);
  if (span_s < 1 || span_s * per_second > checkouts / 2) return;
  auto preview = std::make_shared<Incident>(inc);
  preview->end = inc.start + static_cast<Micros>(span_s) * kSecond;
  preview_ = std::move(preview);
  preview_cache_ = std::make_shared<ReplayCache>();
  preview_cache_->shareLeadIn(*cache_, inc, *preview_);
}

void ReplaySession::setConfig(const Config& config) {
  if (!hasIncident()) return;
  config_ = config;
  replay();
}

bool ReplaySession::setScenario(const Scenario& scenario, QString* error) {
  if (!hasIncident()) return false;
  if (scenario == scenario_) return true;
  if (const std::string problem = scenarioProblem(*opened_, scenario); !problem.empty()) {
    if (error) *error = QString::fromStdString(problem);
    return false;
  }
  auto next = scenario.empty()
                  ? opened_
                  : std::make_shared<const Incident>(applyScenario(*opened_, scenario));
  if (const std::string problem =
          workLimitProblem(largestWork(*next), kDefaultMaxSimulatedRequests);
      !problem.empty()) {
    if (error) *error = QString::fromStdString(problem);
    return false;
  }
  queued_.reset();
  superseded_->store(true);
  watcher_.waitForFinished();
  scenario_ = scenario;
  // The changes the user made keep their times: a stretched outage moves the incident's own.
  const bool edited = changesEdited();
  incident_ = std::move(next);
  if (!edited) changes_ = incident_->changes;
  cache_ = std::make_shared<ReplayCache>();
  baseline_ = simulate(*incident_, incident_->deployed, *cache_);
  baseline_goals_ = evaluate(incident_->goals, *incident_, baseline_);
  const Config& d = incident_->deployed;
  resources_ = d.load_balancer.pods > 1 || d.workers.per_pod > 0 || d.pool.size > 0 ||
               incident_->dependency.capacity.concurrency > 0;
  partial_until_.reset();
  makePreview();
  emit scenarioChanged();
  replay();
  return true;
}

void ReplaySession::setChanges(std::vector<TimedChange> changes) {
  if (!hasIncident()) return;
  changes_ = std::move(changes);
  replay();
}

void ReplaySession::replay() {
  const Config& config = config_;
  const double limit = synchronousLimit();
  if (expectedRequests() > limit) {
    // The worker first (on the other core, or told to stop the stale replay), then the preview
    // here. Without a preview the shown result stays what it was, still marked partial if it is.
    if (running_) {
      queued_ = config;
      superseded_->store(true);
    } else {
      startWorker(config);
    }
    // A preview that would replay a long lead-in first is no preview.
    if (preview_ && (preview_lead_in_requests_ <= previewBudget() / 4 ||
                     preview_cache_->servesLeadIn(*preview_, config, changes_)))
      answerWithPreview(config);
    return;
  }
  partial_until_.reset();
  QElapsedTimer clock;
  clock.start();
  SimulateOptions options;
  options.cache = cache_.get();
  options.changes = &changes_;
  result_ = config == incident_->deployed && !changesEdited()
                ? baseline_
                : simulate(*incident_, config, options);
  result_of_ = {config, changes_, scenario_};
  last_replay_ms_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  emit resultChanged();
}

void ReplaySession::startWorker(const Config& config) {
  running_ = true;
  std::shared_ptr<const Incident> incident = incident_;
  std::shared_ptr<ReplayCache> cache = cache_;
  // A fresh flag per replay: the finished one's flag may still be set.
  superseded_ = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> superseded = superseded_;
  watcher_.setFuture(QtConcurrent::run(
      [incident, cache, config, changes = changes_, scenario = scenario_, superseded] {
        QElapsedTimer clock;
        clock.start();
        SimulateOptions options;
        options.cache = cache.get();
        options.changes = &changes;
        options.progress = [&superseded](const ReplayProgress&) { return !superseded->load(); };
        options.progress_every_events = kSupersededCheckEvents;
        auto replay = std::make_shared<Replay>();
        replay->config = config;
        replay->changes = changes;
        replay->scenario = scenario;
        try {
          if (superseded->load()) throw ReplayCancelled();
          replay->result = simulate(*incident, config, options);
        } catch (const std::exception&) {  // cancelled, or refused: nothing to show
          replay->cancelled = true;
        }
        replay->milliseconds = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        return replay;
      }));
}

// The window's beginning, replayed here (a few milliseconds) while the worker replays the whole:
// exact as far as it goes, shown with the rest marked as replaying.
void ReplaySession::answerWithPreview(const Config& config) {
  QElapsedTimer clock;
  clock.start();
  // All the changes, as the whole replay has them: those after the preview's end are not made,
  // but what the run sets up from its start (RunShape) is the same.
  SimulateOptions options;
  options.cache = preview_cache_.get();
  options.changes = &changes_;
  Result preview;
  try {
    preview = simulate(*preview_, config, options);
  } catch (const std::exception&) {
    return;  // the whole-window replay says what is wrong
  }
  result_ = std::move(preview);
  result_of_ = {config, changes_, scenario_};
  partial_until_ = exactUntil(result_, incident_->start, preview_->end);
  // The seconds after it could still change (their requests ran past the cut, into no traffic):
  // they are not shown.
  const auto seconds = static_cast<std::size_t>((*partial_until_ - incident_->start) / kSecond);
  for (auto* series : result_.per_second.all())
    if (series->size() > seconds) series->resize(seconds);
  last_replay_ms_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  emit resultChanged();
}

Micros ReplaySession::exactUntil(const Result& preview, Micros start, Micros cut) {
  // A request that arrived before the cut and was answered before it met only the traffic the
  // whole replay has too; the first one still under way at the cut is where that ends. In whole
  // seconds, so that the per-second series stop at a second's end.
  Micros until = cut;
  for (const CheckoutRecord& r : preview.checkouts)
    if (r.arrival < until && r.arrival + r.latency_us >= cut) until = r.arrival;
  return start + (until - start) / kSecond * kSecond;
}

const WhatIf* ReplaySession::currentWhatIf() const {
  if (!hasIncident()) return nullptr;
  for (const auto& w : incident_->what_ifs)
    if (w.config == config_ && (w.changes ? *w.changes : incident_->changes) == changes_) return &w;
  return nullptr;
}

std::vector<ExpectationResult> ReplaySession::goals() const {
  if (!hasIncident()) return {};
  return evaluate(incident_->goals, *incident_, result_);
}

std::vector<ExpectationResult> ReplaySession::whatIfChecks() const {
  const WhatIf* what_if = currentWhatIf();
  if (what_if == nullptr) return {};
  return evaluate(what_if->expect, *incident_, result_);
}

Checks ReplaySession::checks() const {
  Checks c;
  if (!hasIncident()) return c;
  c.calibration = calibration_;
  c.goals = goals();
  c.baseline_goals = baseline_goals_;
  if (!c.goals.empty()) c.regressions = headlineRegressions(baseline().metrics, result_.metrics);
  if (const WhatIf* what_if = currentWhatIf(); what_if != nullptr && !what_if->expect.empty()) {
    c.checks = evaluate(what_if->expect, *incident_, result_);
    c.checks_of = "what-if '" + what_if->name + "'";
  }
  return c;
}

}  // namespace breakerlab::app
