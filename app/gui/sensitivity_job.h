#pragma once
// A sensitivity map computed off the UI thread: the sweep replays the incident once per cell on
// every core, all but one at the lowest priority (a knob's replay and the UI come first), coarse to
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

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/outcome/metrics.h"
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
  // The newest request is computing. A cancelled or superseded sweep may still be finishing its
  // cell (sweepsRunning), but it holds up nothing: a new request starts at once.
  bool busy() const { return computing_; }
  int sweepsRunning() const { return running_; }
  std::uint64_t generation() const { return generation_; }
  // One core is left to the UI and the replay a knob drag starts: on the 2-core CI machine a map
  // whose second thread ran at nice 19 beside the other tests held its end for the cell that
  // thread had (a cheap 8 Sep map over the half second of kAutoRecomputeSeconds, 5 Dec), and the
  // speed-up when nothing else runs was small (docs/sensitivity.md).
  static unsigned defaultThreads();
  // Lowers the priority of the calling thread, and of the threads it starts from now on, to the
  // lowest nice (19 on Linux; kExtraThreadsNiceness more, at most kMostNice). Beside a thread of
  // normal priority it then gets about 1.5% of the core (CFS weights 15 against 1024). The
  // sweep's threads beyond its first run so: a knob dragged while a map computes on every core
  // repainted as fast as beside a map on one (47 to 66 ms against 48 to 50, 5 Dec,
  // BM_KnobToRepaintWhileMapping); nice 10 cost it about 7 ms. SCHED_IDLE (weight 3) starves
  // the thread on a busy machine and the map's end waits for the cell it holds.
  // For the sweep's own threads: under the usual RLIMIT_NICE of 0 a thread cannot lower its
  // nice again.
  static void yieldThisThreadToOthers();
  static constexpr int kExtraThreadsNiceness = 19;
  static constexpr int kMostNice = 19;

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
  bool computing_ = false;
};

}  // namespace breakerlab::app
