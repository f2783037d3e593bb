#pragma once
#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace breakerlab {

// Remembers where the lead-in left the simulation (the cache, the breaker's window, the calls
// in flight at t=0), so that replaying the same incident with a config that differs only in
// knobs the lead-in never exercised (open interval, backoff, early probe, half-open rules, cache
// TTL) starts at the window instead of replaying the lead-in again. Results are bit-identical
// with or without it. One cache serves one Incident object: clear() it when that changes.
class ReplayCache {
 public:
  ReplayCache();
  ~ReplayCache();
  ReplayCache(ReplayCache&&) noexcept;
  ReplayCache& operator=(ReplayCache&&) noexcept;
  void clear();
  std::uint64_t hits() const { return hits_; }
  // Hands back the records of a result that is no longer shown, so that the next replay reuses
  // their memory instead of faulting in fresh pages (about 2 ms for a million checkouts).
  void recycle(std::vector<CheckoutRecord>&& records) { spare_records_ = std::move(records); }
  // Whether a replay of `incident` with `config` and `changes` would resume from the cached
  // lead-in instead of replaying it.
  bool servesLeadIn(const Incident& incident, const Config& config,
                    const std::vector<TimedChange>& changes) const;
  // Takes `from`'s lead-in for replays of `to`, a copy of `from_incident` that differs only in
  // where its window ends (a preview of the window's beginning): their lead-ins are the same
  // run. Nothing is taken when `from` has none or the lead-in could differ (recorded arrivals,
  // whose lead-in rate is the window's mean).
  void shareLeadIn(const ReplayCache& from, const Incident& from_incident, const Incident& to);

  struct Snapshot;  // defined in the model's sources

 private:
  friend class Simulation;
  std::unique_ptr<Snapshot> snapshot_;
  std::uint64_t hits_ = 0;
  std::vector<CheckoutRecord> spare_records_;
};

// Every dependency call a replay made for the window's checkouts, for writing a request log
// (`breakerlab-cli replay --calls-out`). Lead-in calls and cache-first refreshes are left out.
struct TracedCall {
  Micros start = 0;          // when the attempt was sent (or began to wait for a connection)
  Micros duration = 0;       // until its answer, timeout or give-up
  Micros request_start = 0;  // the checkout's arrival
  std::uint32_t record = 0;  // the checkout: index into Result::checkouts
  std::uint32_t key = 0;
  std::uint16_t pod = 0;
  std::uint8_t attempt = 0;
  CallOutcome outcome = CallOutcome::success;
};
// An attempt of a checkout that its pod's breaker rejected: no call was made.
struct TracedRejection {
  Micros at = 0;             // when the breaker was asked
  Micros request_start = 0;  // the checkout's arrival
  std::uint32_t record = 0;
  std::uint32_t key = 0;
  std::uint16_t pod = 0;
  std::uint8_t attempt = 0;
};
struct CallTrace {
  std::vector<TracedCall> calls;            // in completion order
  std::vector<std::uint32_t> keys;          // per checkout (also those that made no call)
  std::vector<std::uint16_t> pods;          // per checkout: the pod that took it
  std::vector<TracedRejection> rejections;  // in time order
};

// Replays `incident` with `config`. Pure and deterministic: the same incident, config and
// incident seed give bit-identical results. Randomness is drawn per (seed, request, purpose),
// so a knob changes only what it touches. Requires validate(incident) and validate(config)
// to be empty.
Result simulate(const Incident& incident, const Config& config);
Result simulate(const Incident& incident, const Config& config, ReplayCache& cache);
// The same, also tracing every call (slower: for exports, not for the live view).
Result simulate(const Incident& incident, const Config& config, CallTrace& trace,
                const std::vector<TimedChange>* changes = nullptr);

// How far a replay has got.
struct ReplayProgress {
  double done = 0;           // share of the simulated time (lead-in and window) covered, 0..1
  std::uint64_t events = 0;  // arrivals, retries, timers and resource events handled so far
};

// Thrown by simulate() when the progress hook asks it to stop.
class ReplayCancelled : public std::runtime_error {
 public:
  ReplayCancelled() : std::runtime_error("replay cancelled") {}
};

// Thrown by simulate() when more checkouts failed than SimulateOptions allows: a tuner whose
// goal is "no more than N failed checkouts" learns at the first one too many that the config
// cannot meet it, without replaying the rest. The cache stays usable.
class ReplayGaveUp : public std::runtime_error {
 public:
  explicit ReplayGaveUp(Micros failed_at)
      : std::runtime_error("replay stopped: a checkout too many failed"), failed_at(failed_at) {}
  Micros failed_at;  // the arrival of the checkout whose failure was one too many
};

inline constexpr std::uint64_t kProgressEveryEvents = 65536;

struct SimulateOptions {
  ReplayCache* cache = nullptr;
  // Called every `progress_every_events` events, on the simulating thread; returning false stops
  // the replay, which then throws ReplayCancelled (the cache stays usable). Checking costs one
  // decrement per event, so the hook may be left empty.
  std::function<bool(const ReplayProgress&)> progress;
  // How often `progress` is called. A workbench that cancels superseded replays asks more often
  // than a progress bar needs, so that a stopped replay frees the worker within a millisecond.
  std::uint64_t progress_every_events = kProgressEveryEvents;
  // The timed changes to make instead of the incident's own (a what-if's, the workbench's
  // toggled and dragged ones); must outlive the call.
  const std::vector<TimedChange>* changes = nullptr;
  // Stop (ReplayGaveUp) as soon as more window checkouts than this have failed; the default
  // never stops. Checking costs a decrement per failed checkout.
  std::uint64_t give_up_after_failed_checkouts = ~std::uint64_t{0};
  // What the report is built from besides the outcomes and counters (metrics.h). A part left
  // out is not followed: the metrics that need it (MetricInfo::needs), its series and lanes are
  // left empty or at their defaults. A tune or a map asks for its metrics' parts only.
  ReportParts report = ReportParts::whole();
};

Result simulate(const Incident& incident, const Config& config, const SimulateOptions& options);

}  // namespace breakerlab
