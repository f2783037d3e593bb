#include "tune_job.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "breakerlab/core/tuning/tune_setup.h"
#include "breakerlab/data/workspace_run.h"
#include "sensitivity_job.h"

namespace breakerlab::app {

TuneJob::TuneJob(QObject* parent) : QObject(parent) {
  // A discarded search may still be finishing its replay while the next one starts.
  pool_.setMaxThreadCount(2);
}

TuneJob::~TuneJob() {
  if (cancel_) cancel_->store(true);
  pool_.waitForDone();
}

void TuneJob::stop() {
  if (cancel_) cancel_->store(true);
}

void TuneJob::discard() {
  stop();
  cancel_.reset();
  computing_ = false;
  ++generation_;  // whatever the stopped search returns is not handed out
}

void TuneJob::start(TuneRequest request) {
  discard();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  const std::uint64_t generation = generation_;
  ++running_;
  computing_ = true;
  auto cancel = cancel_;
  // `this` outlives the work: the destructor waits for the pool, and Qt drops the events still
  // queued for a destroyed object.
  (void)QtConcurrent::run(&pool_, [this, request = std::move(request), cancel, generation] {
    QElapsedTimer clock;
    clock.start();
    auto outcome = std::make_shared<TuneOutcome>();
    QString error;
    try {
      const Evaluator evaluator({tuneCaseFor(*request.incident, request.base, request.library,
                                             request.goals, request.incident_goals)},
                                request.minimize);
      const Config& base = evaluator.cases()[0].base;
      TuneOptions options;
      options.budget = request.budget;
      options.seed = request.seed;
      options.threads = request.threads != 0 ? request.threads : SensitivityJob::defaultThreads();
      options.cancel = cancel.get();
      // The engine calls this under its lock, never two at once; the best config so far goes
      // to the UI thread only when it is a new one.
      std::vector<double> sent_values;
      options.progress = [&](const TuneProgress& p) {
        TuneStep step{p.evaluated, p.budget, p.have_feasible, p.best_objective, std::nullopt};
        if (!p.best_values.empty() && p.best_values != sent_values) {
          sent_values = p.best_values;
          step.best = configWith(base, request.knobs, p.best_values);
        }
        QMetaObject::invokeMethod(
            this,
            [this, step = std::move(step), generation] {
              if (generation == generation_) emit progress(step);
            },
            Qt::QueuedConnection);
      };
      outcome->result = tune(evaluator, request.knobs, options);
      outcome->reported = reportedConfigs(evaluator, request.knobs, outcome->result);
      for (const TunedConfig& t : outcome->reported) {
        outcome->configs.push_back(configWith(base, request.knobs, t.values));
        if (request.run_inputs && request.opened) {
          RunInputs inputs = *request.run_inputs;
          inputs.config = outcome->configs.back();
          outcome->runs.push_back(newRunOf(0, inputs, replayRun(*request.opened, inputs)));
        }
      }
    } catch (const std::exception& e) {
      // A config the model refuses is an invalid evaluation, not an exception: this is out of
      // memory, a run too large to replay, or a bug.
      error = QString::fromUtf8(e.what());
    }
    outcome->seconds = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
    QMetaObject::invokeMethod(
        this,
        [this, outcome, generation, error] {
          --running_;
          if (generation != generation_) return;  // discarded
          computing_ = false;
          if (!error.isEmpty())
            emit failed(error);
          else
            emit finished(*outcome);
        },
        Qt::QueuedConnection);
  });
}

}  // namespace breakerlab::app
