#pragma once
// A sensitivity map computed off the UI thread: the sweep replays the incident once per cell on
// every core, all but one at idle priority (a knob's replay and the UI come first), coarse to
// fine, with a preview of the map so far every kPreviewIntervalMs. A newer request supersedes the
// one running, which stops within a cell; only the newest request's map is ever handed out (a
// generation number tells them apart), so a map of an incident that was closed meanwhile is never
// shown.
#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "breakerlab/core/config.h"
#include "breakerlab/core/incident.h"
#include "breakerlab/core/metrics.h"
#include "breakerlab/core/search_space.h"
#include "breakerlab/views/sensitivity_map.h"

namespace breakerlab::app {

struct SensitivityRequest {
  std::shared_ptr<const Incident> incident;  // with the timed changes as the workbench has them
  Config base;                               // the knobs' config; the map's knobs are set on it
  std::vector<KnobRange> knobs;              // one or two
  std::vector<std::size_t> points;           // per knob
  std::vector<const MetricInfo*> metrics;    // measured in every cell
  unsigned threads = 0;                      // 0: every core
};

class SensitivityJob : public QObject {
  Q_OBJECT
 public:
  // A map still computing after kFirstPreviewMs shows a preview then and every
  // kPreviewIntervalMs after: its shape in the first fraction of the time (a 50 x 50 map of 14 Aug
  // takes about a minute on one core). A map quicker than that (8 Sep's) shows none.
  static constexpr int kFirstPreviewMs = 500;
  static constexpr int kPreviewIntervalMs = 250;

  explicit SensitivityJob(QObject* parent = nullptr);
  ~SensitivityJob() override;  // stops the sweep and waits for it

  // Starts `request`; the one running, if any, is superseded.
  void start(SensitivityRequest request);
  // Stops the sweep running; nothing is handed out for it.
  void cancel();
  bool busy() const { return running_ != 0; }
  std::uint64_t generation() const { return generation_; }
  static unsigned defaultThreads();
  // Runs the calling thread, and the threads it starts from now on, only when a core has
  // nothing else to run (SCHED_IDLE on Linux). For a thread of the sweep's own: there is no
  // way back without privileges.
  static void yieldThisThreadToOthers();

 signals:
  // Cells done of the map being computed (the newest request's only).
  void progress(std::size_t done, std::size_t total);
  // The newest request's map so far (sensitivityPreviewOf), now and then while it computes.
  void preview(const breakerlab::views::SensitivityMap& map);
  // The newest request's map, and how long it took.
  void finished(const breakerlab::views::SensitivityMap& map, double seconds);
  // The sweep stopped on an error (out of memory: a config the model refuses is a cell of its
  // own).
  void failed(const QString& reason);

 private:
  QThreadPool pool_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::uint64_t generation_ = 0;
  int running_ = 0;  // requests whose sweep has not returned yet (superseded ones included)
};

}  // namespace breakerlab::app
