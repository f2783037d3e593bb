#include "sensitivity_job.h"

#include <QElapsedTimer>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#endif

#include "breakerlab/core/tuning/sweep.h"
#include "breakerlab/core/tuning/tuning_objective.h"

namespace breakerlab::app {

SensitivityJob::SensitivityJob(QObject* parent) : QObject(parent) {
  // A superseded sweep may still be finishing its cell while the next one starts.
  pool_.setMaxThreadCount(2);
}

SensitivityJob::~SensitivityJob() {
  if (cancel_) cancel_->store(true);
  pool_.waitForDone();
}

unsigned SensitivityJob::defaultThreads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 1 ? cores - 1 : 1u;
}

void SensitivityJob::yieldThisThreadToOthers() {
#ifdef __linux__
  // On Linux the nice value is each thread's own, and the threads it starts inherit it.
  const auto thread = static_cast<id_t>(gettid());
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, thread);
  if (errno == 0)
    setpriority(PRIO_PROCESS, thread, std::min(kMostNice, nice + kExtraThreadsNiceness));
#else
  QThread::currentThread()->setPriority(QThread::LowestPriority);
#endif
}

void SensitivityJob::cancel() {
  if (cancel_) cancel_->store(true);
  cancel_.reset();
  computing_ = false;
  ++generation_;  // whatever the stopped sweep returns is not handed out
}

void SensitivityJob::start(SensitivityRequest request) {
  cancel();
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
    TuneCase c{request.incident.get(), request.incident->goals, request.base};
    const Evaluator evaluator({c}, request.metrics);
    SweepOptions options;
    options.threads = request.threads != 0 ? request.threads : defaultThreads();
    options.cancel = cancel.get();
    // This thread keeps its priority, so the map always has a core; the others it starts give
    // way to a knob's replay, the UI and the rest of the machine.
    options.extra_thread_started = &SensitivityJob::yieldThisThreadToOthers;
    // Progress in steps a bar can show, not one event per cell of a big map.
    std::size_t shown = 0;
    options.progress = [&](std::size_t done, std::size_t total) {
      if (done != total && (done - shown) * 200 < total) return;
      shown = done;
      QMetaObject::invokeMethod(
          this,
          [this, done, total, generation] {
            if (generation == generation_) emit progress(done, total);
          },
          Qt::QueuedConnection);
    };
    // The cells so far, handed to the UI thread (which fills in the rest) now and then.
    auto partial = std::make_shared<SweepResult>();
    partial->axes = sweepAxes(request.knobs, request.points);
    QElapsedTimer since_preview;
    since_preview.start();
    int wait_ms = kFirstPreviewMs;
    options.coarse_first = true;
    options.cell_done = [&](const SweepCell& cell) {
      partial->cells.push_back(cell);
      if (since_preview.elapsed() < wait_ms) return;
      since_preview.restart();
      wait_ms = kPreviewIntervalMs;
      auto cells = std::make_shared<const SweepResult>(*partial);
      QMetaObject::invokeMethod(
          this,
          [this, cells, generation, knobs = request.knobs, metrics = request.metrics,
           incident = request.incident] {
            if (generation != generation_) return;
            emit preview(views::sensitivityPreviewOf(*cells, knobs, metrics, incident->goals));
          },
          Qt::QueuedConnection);
    };
    SweepResult result;
    QString error;
    try {
      result = sweep(evaluator, request.knobs, request.points, options);
    } catch (const std::exception& e) {
      // An invalid config is a cell of its own, not an exception: this is out of memory or a bug.
      error = QString::fromUtf8(e.what());
    }
    const double seconds = static_cast<double>(clock.nsecsElapsed()) * 1e-9;
    auto map = std::make_shared<views::SensitivityMap>();
    const bool whole = error.isEmpty() && !result.cancelled;
    if (whole)
      *map =
          views::sensitivityMapOf(result, request.knobs, request.metrics, request.incident->goals);
    QMetaObject::invokeMethod(
        this,
        [this, map, seconds, generation, whole, error] {
          --running_;
          if (generation != generation_) return;  // superseded or cancelled
          computing_ = false;
          if (!error.isEmpty()) {
            emit failed(error);
          } else if (whole) {
            emit finished(*map, seconds);
          }
        },
        Qt::QueuedConnection);
  });
}

}  // namespace breakerlab::app
