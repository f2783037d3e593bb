// Runs that stand for others: a run kept for the worker limits under which it would go the same,
// and the quiet seconds at which a run may join the tail of an earlier one.
#include <algorithm>

#include "replay/simulation.h"

namespace breakerlab {

// Whether runs under other worker limits may stand for one another: a limit (0 is none, another
// mode), no timed changes (the run's decisions are compared only for the config's own), every
// failure allowed (a run that would stop early returns no report to reuse), nothing traced.
bool Simulation::workerLimitRunsShared() const {
  return workers_limit_ > 0 && changes_.empty() && !may_give_up_ && trace_ == nullptr;
}

const WorkerLimitRun* Simulation::sameRunUnderWorkerLimit(const ReplayCache* cache) const {
  if (cache == nullptr || cache->snapshot_ == nullptr || !workerLimitRunsShared()) return nullptr;
  const WorkerLimitRun* run = cache->snapshot_->worker_limit_run.get();
  return run != nullptr && run->serves(incident_, deployed_, parts_) ? run : nullptr;
}

// Keeps this run for the worker limits its comparisons allow besides its own.
void Simulation::keepForOtherWorkerLimits(ReplayCache* cache) {
  if (cache == nullptr || cache->snapshot_ == nullptr || !workerLimitRunsShared()) return;
  if (workers_lo_ == workers_limit_ && workers_hi_ == workers_limit_) return;
  cache->snapshot_->worker_limit_run = std::make_shared<const WorkerLimitRun>(WorkerLimitRun{
      &incident_, incident_.seed, incident_.traffic.lead_in, WorkerLimitRun::keyOf(deployed_),
      workers_lo_, workers_hi_, parts_, facts_, result_});
}

// Whether this run may join a TailRun or keep its own for others (see TailRun for why these).
// Of the report, only the parts built from the records alone: a joined run has no levels or
// series over time of its own, and a part added later is left out until it is listed here.
bool Simulation::tailsShared() const {
  constexpr ReportParts kFromRecords{ReportPart::latency, ReportPart::lanes_and_events,
                                     ReportPart::checkouts_per_second};
  if (!kFromRecords.contains(parts_)) return false;
  const Config& c = deployed_;
  return workerLimitRunsShared() && !retry_modes_.anyBackground() && !c.breaker.enabled &&
         !shape_.breaker_switches && !c.cache.enabled && c.pool.size == 0 && !call_threads_ &&
         c.retry.budget.ratio == 0 && c.retry.token_bucket.capacity == 0 &&
         c.retry.throttling.max_tokens == 0 && c.retry.concurrency_budget.budget_percent == 0 &&
         c.client_throttling.k == 0;
}

// Sets up the checkpoints of a run that shares its tail: the reference it may join, and its
// own for the runs after it.
void Simulation::beginTail(ReplayCache* cache) {
  if (cache == nullptr || cache->snapshot_ == nullptr || !tailsShared() ||
      !WindowArrivals::applies(incident_))
    return;
  const std::shared_ptr<const TailRun>& kept = cache->snapshot_->tail_run;
  if (kept != nullptr && kept->serves(incident_, deployed_, parts_)) reference_ = kept;
  const std::size_t seconds = windowSeconds();
  tail_ = std::make_unique<TailRun>(TailRun{&incident_,
                                            incident_.seed,
                                            incident_.traffic.lead_in,
                                            WorkerLimitRun::keyOf(deployed_),
                                            parts_,
                                            std::vector<TailRun::Checkpoint>(seconds),
                                            {},
                                            {},
                                            0});
  if (seconds > 0) next_checkpoint_ = incident_.start;
}

// Stops at each second of the window up to t, before the arrival at t: notes the run's state
// where it is quiet, and joins the reference run where it may. Returns whether it joined.
bool Simulation::checkpointsThrough(Micros t, std::uint32_t arrived) {
  while (next_checkpoint_ <= t) {
    const Micros at = next_checkpoint_;
    const auto second = static_cast<std::size_t>((at - incident_.start) / kSecond);
    next_checkpoint_ = second + 1 < tail_->seconds.size() ? at + kSecond : kNever;
    drain(at - 1);  // everything due before the second; what is due at it comes after
    if (!quietAt(at)) continue;
    TailRun::Checkpoint& mine = tail_->seconds[second];
    mine.quiet = true;
    mine.records = arrived;
    mine.counters = countersOf(facts_);
    mine.next_check_at = pods_.nextCheckAt();
    mine.checks_done = pods_.checksDone();
    mine.admissions = in_flight_.admissions();
    closeInterval(second);
    if (reference_ != nullptr && join(*reference_, mine, second)) return true;
  }
  return false;
}

// No request under way (none holds a worker, so none waits for one either), every pod in
// rotation, the dependency idle. The pods' counts of passed and failed checks may differ
// between two quiet runs: a run joins only where no check fails in the rest of the other
// (TailRun::Checkpoint::joinable), so every pod's next check resets them alike.
bool Simulation::quietAt(Micros t) const {
  return pods_.idle() && client_.calls_in_flight == 0 && in_flight_.empty() && retries_.empty() &&
         held_.size() == free_held_.size() && client_.servers.idleAt(t);
}

// The comparisons with the worker limit since the last quiet second belong to its stretch;
// a new one begins at `second` (kNoSecond: the run is over).
void Simulation::closeInterval(std::size_t second) {
  if (last_quiet_ != kNoSecond) {
    TailRun::Checkpoint& last = tail_->seconds[last_quiet_];
    last.busy_peak = interval_peak_;
    last.joinable = !interval_full_;
  }
  interval_peak_ = 0;
  interval_full_ = false;
  last_quiet_ = second;
}

// Joins `reference` at `second`, where both runs are quiet, when they go on alike from there
// (see TailRun): this run's records and counters so far, the reference's from there on.
bool Simulation::join(const TailRun& reference, const TailRun::Checkpoint& mine,
                      std::size_t second) {
  if (second >= reference.seconds.size()) return false;
  const TailRun::Checkpoint& theirs = reference.seconds[second];
  // busy_peak is the most workers a pod had busy after taking one. Every arrival finds a
  // worker under a limit that high; a check on the shared pool passes only below it, and the
  // round robin may have put the busiest pod where the reference's checks did not look.
  const HealthCheckConfig& checks = config_.load_balancer.health_check;
  const bool checks_take_workers = health_checks_ && checks.pool != HealthCheckPool::separate;
  const std::uint32_t least_limit = theirs.busy_peak + (checks_take_workers ? 1 : 0);
  if (!theirs.quiet || !theirs.joinable || workers_limit_ < least_limit) return false;
  // Defensive: without timed changes two runs of one incident and config arrive alike and
  // check their pods on the same schedule.
  if (theirs.records != mine.records || theirs.next_check_at != mine.next_check_at ||
      theirs.checks_done != mine.checks_done || reference.records.size() < mine.records)
    return false;
  // Calls completing at the same time go in admission order modulo 2^24: the same order in
  // both runs only while neither count wraps.
  const std::uint64_t admitted_after = reference.admissions - theirs.admissions;
  if (reference.admissions >= InFlight::kAdmissionWrap ||
      mine.admissions + admitted_after >= InFlight::kAdmissionWrap)
    return false;
  result_.checkouts.insert(result_.checkouts.end(), reference.records.begin() + mine.records,
                           reference.records.end());
  addCounterGains(facts_, reference.counters, theirs.counters);
  // The rest of the run is the same under any limit from least_limit on.
  workers_lo_ = std::max(workers_lo_, least_limit);
  joined_ = true;
  ++tailJoins();
  return true;
}

// Keeps this run, when it ran to its end, for the runs after it to join: each quiet second with
// what the run did from there to the end.
void Simulation::keepTail(ReplayCache* cache) {
  if (tail_ == nullptr || joined_ || cache == nullptr || cache->snapshot_ == nullptr) return;
  closeInterval(kNoSecond);
  std::uint32_t peak = 0;
  bool unlike = false;
  for (std::size_t k = tail_->seconds.size(); k-- > 0;) {
    TailRun::Checkpoint& c = tail_->seconds[k];
    if (!c.quiet) continue;
    peak = std::max(peak, c.busy_peak);
    unlike = unlike || !c.joinable;
    c.busy_peak = peak;
    c.joinable = !unlike;
  }
  tail_->records = result_.checkouts;
  tail_->counters = countersOf(facts_);
  tail_->admissions = in_flight_.admissions();
  cache->snapshot_->tail_run = std::move(tail_);
}

}  // namespace breakerlab
