#include "breakerlab/core/simulate.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <vector>

#include "breakerlab/core/breaker_model.h"
#include "breakerlab/core/timed_change.h"
#include "client_state.h"
#include "dependency_model.h"
#include "health_timeline.h"
#include "held_call.h"
#include "in_flight.h"
#include "price_cache.h"
#include "random.h"
#include "recorder.h"
#include "replay_cache.h"
#include "retry_loop.h"
#include "run_facts.h"
#include "run_shape.h"
#include "traffic_model.h"

namespace breakerlab {

class Simulation {
 public:
  Simulation(const Incident& incident, const Config& config,
             const std::function<bool(const ReplayProgress&)>* progress,
             const std::vector<TimedChange>& changes)
      : incident_(incident),
        deployed_(config),
        config_(config),
        changes_(orderedChanges(changes)),
        shape_(RunShape::of(config, changes_)),
        rng_(incident.seed),
        health_(incident.dependency.health),
        breaker_(config.breaker, config.native, &health_,
                 incident.start - incident.traffic.lead_in),
        timeout_(effectiveTimeout(config)),
        dependency_(incident.dependency, firstWindowArrival(incident)),
        keys_(incident.traffic.keys),
        prices_(keys_.count()),
        in_flight_(incident.start - incident.traffic.lead_in, shape_.longest_timeout),
        retries_(config.retry),
        client_(config.load_balancer.pods, keys_.count(), incident.dependency.capacity),
        workers_limit_(config.workers.per_pod),
        pool_limit_(poolLimit(config)),
        health_checks_(config.load_balancer.health_check.enabled),
        retry_modes_(config, changes_),
        fifo_timeout_(timeout_.attempt),
        cache_first_(config.pricing.mode == PricingMode::cache_first && config.cache.enabled),
        call_threads_(config.workers.call_threads && config.workers.per_pod > 0),
        holds_calls_(config.breaker.enabled && breaker_.holdsCalls()),
        connects_(config.breaker.library == BreakerLibrary::envoy &&
                  (config.breaker.enabled || shape_.breaker_switches)),
        progress_(progress),
        // Without a hook the countdown never reaches zero (2^64 events).
        until_progress_(progress != nullptr ? kProgressEveryEvents : ~std::uint64_t{0}) {
    resources_ = shape_.resources || client_.servers.limited();
    next_change_at_ = changes_.empty() ? kNever : changes_.front().at;
    if (!config.breaker.enabled) {
      breaker_since_ = kNever;
      breaker_off_since_ = incident.start - incident.traffic.lead_in;
    }
    if (health_checks_) {
      client_.checks_origin = incident.start - incident.traffic.lead_in;
      client_.next_check_at = client_.checks_origin;
    }
  }

  // Connections per pod; "unlimited" is a limit never reached, so that a run whose pool a
  // change limits counts connections from the start.
  static std::uint32_t poolLimit(const Config& c) {
    return c.pool.size == 0 ? UINT32_MAX : c.pool.size;
  }

  // The index in the recorded arrivals of the window's first checkout (request 0).
  static std::size_t firstWindowArrival(const Incident& incident) {
    const std::vector<Micros>& times = incident.traffic.recorded;
    return static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), incident.start) -
                                    times.begin());
  }

  void progressEvery(std::uint64_t events) {
    progress_every_ = std::max<std::uint64_t>(1, events);
    if (progress_ != nullptr) until_progress_ = progress_every_;
  }

  // A background retry rewrites its checkout's record after the first attempt answered: a
  // failed checkout may yet turn fresh, so such runs are never cut short.
  void giveUpAfterFailedCheckouts(std::uint64_t allowed) {
    if (allowed == ~std::uint64_t{0} || retry_modes_.anyBackground()) return;
    failures_allowed_ = allowed + 1;
    may_give_up_ = true;
  }

  void reportOnly(ReportParts parts) {
    parts_ = parts;
    calls_per_second_ = parts.has(ReportPart::calls_per_second);
  }

  void traceInto(CallTrace* trace) {
    trace_ = trace;
    if (trace_ != nullptr) {
      trace_->calls.clear();
      trace_->keys.clear();
      trace_->pods.clear();
    }
  }

  // The stages of a replay, in order: the lead-in (or its snapshot), the window's arrivals, the
  // tail in which requests still under way at the end run to completion, and the collection of
  // the report.
  Result run(ReplayCache* cache) {
    if (const WorkerLimitRun* same = sameRunUnderWorkerLimit(cache)) {
      // The run this config makes is that one: only the capacity the report reads differs.
      ++workerLimitReuses();
      result_ = same->result;
      facts_ = same->facts;
      facts_.worker_capacity = workers_limit_ * shape_.max_pods;
      return report();
    }
    const std::size_t seconds = windowSeconds();
    if (parts_.has(ReportPart::calls_per_second)) {
      // Left empty otherwise: countAt() counts nothing past a series' end.
      result_.per_second.dependency_calls.assign(seconds, 0);
      result_.per_second.dependency_failures.assign(seconds, 0);
    }
    const std::uint64_t lead_in_requests = leadIn(cache);
    beginTracking();
    beginTail(cache);
    const std::uint64_t window_requests = window(cache);
    finishTracking();
    if (!joined_) dispatch<true, true>(kNever);  // the tail
    result_.simulated_requests = lead_in_requests + window_requests;
    return collect(cache);
  }

 private:
  // Replays the lead-in, or restores it from the cache's snapshot when that serves this config;
  // returns the lead-in's requests.
  std::uint64_t leadIn(ReplayCache* cache) {
    const Traffic& traffic = incident_.traffic;
    const Micros start = incident_.start;
    const ReplayCache::Snapshot* snapshot = cache ? cache->snapshot_.get() : nullptr;
    if (snapshot != nullptr && snapshot->serves(incident_, config_, shape_)) {
      breaker_ = snapshot->breaker;
      breaker_.rebind(config_.breaker, &health_);
      dependency_ = snapshot->dependency;
      prices_ = snapshot->prices;
      in_flight_ = snapshot->in_flight;
      retries_ = snapshot->retries;
      client_ = snapshot->client;
      held_ = snapshot->held;
      free_held_ = snapshot->free_held;
      lead_in_times_ = snapshot->times;
      workers_lo_ = snapshot->workers_lo;
      workers_hi_ = snapshot->workers_hi;
      if (snapshot->shape.longest_timeout != shape_.longest_timeout)
        in_flight_.respan(start - 1, shape_.longest_timeout);
      ++cache->hits_;
      return snapshot->lead_in_requests;
    }
    const ArrivalProcess lead_process =
        traffic.arrivals == ArrivalProcess::recorded ? ArrivalProcess::uniform : traffic.arrivals;
    ArrivalStream lead_in(lead_process, leadInRate(traffic, start, incident_.end),
                          start - traffic.lead_in, start, rng_, Stream::lead_in);
    for (Micros t = lead_in.next(); t != kNever; t = lead_in.next()) {
      arrive(t, Stream::lead_in, lead_in.produced() - 1, kLeadInRecord);
    }
    // Events due exactly at the window start belong to the window.
    if (start > start - traffic.lead_in) drain(start - 1);
    const std::uint64_t requests = lead_in.produced();
    if (cache != nullptr) {
      std::shared_ptr<const WindowArrivals> arrivals =
          cache->snapshot_ != nullptr ? std::move(cache->snapshot_->arrivals) : nullptr;
      std::shared_ptr<const WorkerLimitRun> worker_limit_run =
          cache->snapshot_ != nullptr ? std::move(cache->snapshot_->worker_limit_run) : nullptr;
      std::shared_ptr<const TailRun> tail_run =
          cache->snapshot_ != nullptr ? std::move(cache->snapshot_->tail_run) : nullptr;
      cache->snapshot_ = std::make_unique<ReplayCache::Snapshot>(ReplayCache::Snapshot{
          &incident_, incident_.seed, traffic.lead_in, config_, shape_,
          !breaker_.transitions().empty(), lead_in_times_, breaker_, dependency_, prices_,
          in_flight_, retries_, client_, held_, free_held_, requests, std::move(arrivals)});
      cache->snapshot_->workers_lo = workers_lo_;
      cache->snapshot_->workers_hi = workers_hi_;
      cache->snapshot_->worker_limit_run = std::move(worker_limit_run);
      cache->snapshot_->tail_run = std::move(tail_run);
    }
    return requests;
  }

  // Every checkout of the window arrives, with the timed changes made as their times come and
  // everything due by the window's end run; returns the checkouts.
  std::uint64_t window(ReplayCache* cache) {
    const Traffic& traffic = incident_.traffic;
    const Micros start = incident_.start;
    const Micros end = incident_.end;
    if (const WindowArrivals* drawn = drawnArrivals(cache)) {
      const std::size_t n = drawn->times.size();
      if (cache->spare_records_.capacity() >= n) {
        result_.checkouts = std::move(cache->spare_records_);
        result_.checkouts.clear();
      }
      result_.checkouts.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        const Micros t = drawn->times[i];
        const auto index = static_cast<std::uint32_t>(i);
        if (t >= next_checkpoint_ && checkpointsThrough(t, index)) [[unlikely]]
          return n;
        result_.checkouts.push_back(
            CheckoutRecord{t, 0, CheckoutOutcome::fresh, FailReason::none, true, 0});
        arriveWithKey(t, index, index, drawn->keys[i]);
      }
      if (next_change_at_ <= end) applyChangesThrough(end);
      drain(end);
      return n;
    }
    ArrivalStream arrivals =
        traffic.arrivals == ArrivalProcess::recorded
            ? ArrivalStream(traffic.recorded, start, end)
            : ArrivalStream(traffic.arrivals, traffic.rate, start, end, rng_, Stream::window);
    if (cache != nullptr && cache->spare_records_.capacity() >= expectedArrivals()) {
      result_.checkouts = std::move(cache->spare_records_);
      result_.checkouts.clear();
    }
    result_.checkouts.reserve(expectedArrivals());
    for (Micros t = arrivals.next(); t != kNever; t = arrivals.next()) {
      const auto index = static_cast<std::uint32_t>(result_.checkouts.size());
      result_.checkouts.push_back(
          CheckoutRecord{t, 0, CheckoutOutcome::fresh, FailReason::none, true, 0});
      arrive(t, Stream::window, index, index);
    }
    if (next_change_at_ <= end) applyChangesThrough(end);
    drain(end);
    return arrivals.produced();
  }

  // The window's arrivals as the cache keeps them (drawn now if it has none for this incident),
  // or nullptr: no cache, or traffic that is read rather than drawn.
  const WindowArrivals* drawnArrivals(ReplayCache* cache) {
    if (cache == nullptr || cache->snapshot_ == nullptr || !WindowArrivals::applies(incident_))
      return nullptr;
    std::shared_ptr<const WindowArrivals>& drawn = cache->snapshot_->arrivals;
    if (drawn == nullptr || !drawn->drawnFor(incident_)) drawn = WindowArrivals::draw(incident_);
    return drawn.get();
  }

  // The report: lanes, metrics and events from what the run recorded.
  Result collect(ReplayCache* cache) {
    facts_.transitions = std::move(earlier_transitions_);
    facts_.transitions.insert(facts_.transitions.end(), breaker_.transitions().begin(),
                              breaker_.transitions().end());
    facts_.probes = std::move(earlier_probes_);
    facts_.probes.insert(facts_.probes.end(), breaker_.probeResults().begin(),
                         breaker_.probeResults().end());
    if (client_.servers.limited()) facts_.dependency_utilization = client_.servers.utilization();
    keepForOtherWorkerLimits(cache);
    keepTail(cache);
    return report();
  }

  // Whether runs under other worker limits may stand for one another: a limit (0 is none, another
  // mode), no timed changes (the run's decisions are compared only for the config's own), every
  // failure allowed (a run that would stop early returns no report to reuse), nothing traced.
  bool workerLimitRunsShared() const {
    return workers_limit_ > 0 && changes_.empty() && !may_give_up_ && trace_ == nullptr;
  }

  const WorkerLimitRun* sameRunUnderWorkerLimit(const ReplayCache* cache) const {
    if (cache == nullptr || cache->snapshot_ == nullptr || !workerLimitRunsShared()) return nullptr;
    const WorkerLimitRun* run = cache->snapshot_->worker_limit_run.get();
    return run != nullptr && run->serves(incident_, deployed_, parts_) ? run : nullptr;
  }

  // Keeps this run for the worker limits its comparisons allow besides its own.
  void keepForOtherWorkerLimits(ReplayCache* cache) {
    if (cache == nullptr || cache->snapshot_ == nullptr || !workerLimitRunsShared()) return;
    if (workers_lo_ == workers_limit_ && workers_hi_ == workers_limit_) return;
    cache->snapshot_->worker_limit_run = std::make_shared<const WorkerLimitRun>(WorkerLimitRun{
        &incident_, incident_.seed, incident_.traffic.lead_in, WorkerLimitRun::keyOf(deployed_),
        workers_lo_, workers_hi_, parts_, facts_, result_});
  }

  // Lanes, metrics and events from the facts and records.
  Result report() {
    buildReport(incident_, deployed_, health_, facts_, result_, parts_);
    if (!changes_.empty()) reportChanges();
    if (!deployed_.breaker.enabled && !shape_.breaker_switches) {
      // Off for the whole run: a lane that says so, not one "closed" bar (the metrics above
      // were taken from the machine's lane, which never moved).
      Lane off{result_.breaker.name, {}};
      off.append(kBreakerDisabled, incident_.start, incident_.end);
      result_.breaker = std::move(off);
    }
    return std::move(result_);
  }

  // The window's seconds, the last one partial.
  std::size_t windowSeconds() const {
    return static_cast<std::size_t>((incident_.end - incident_.start + kSecond - 1) / kSecond);
  }

  std::size_t expectedArrivals() const {
    const Traffic& traffic = incident_.traffic;
    if (traffic.arrivals == ArrivalProcess::recorded) return traffic.recorded.size();
    double total = 0;
    for (const auto& p : traffic.rate) {
      const Micros from = std::max(p.from, incident_.start);
      const Micros to = std::min(p.to, incident_.end);
      if (to > from) total += 0.5 * (p.rps_from + p.rps_to) * toSeconds(to - from);
    }
    return static_cast<std::size_t>(total * 1.05 + 16);
  }

  // --- Joining another run's tail (TailRun) ---------------------------------------------

  // Whether this run may join a TailRun or keep its own for others (see TailRun for why these).
  // Of the report, only the parts built from the records alone: a joined run has no levels or
  // series over time of its own, and a part added later is left out until it is listed here.
  bool tailsShared() const {
    constexpr ReportParts kFromRecords{ReportPart::latency, ReportPart::lanes_and_events,
                                       ReportPart::checkouts_per_second};
    if (!kFromRecords.contains(parts_)) return false;
    const Config& c = deployed_;
    return workerLimitRunsShared() && !retry_modes_.anyBackground() && !c.breaker.enabled &&
           !shape_.breaker_switches && !c.cache.enabled && c.pool.size == 0 && !call_threads_ &&
           c.retry.budget.ratio == 0 && c.retry.token_bucket.capacity == 0;
  }

  // Sets up the checkpoints of a run that shares its tail: the reference it may join, and its
  // own for the runs after it.
  void beginTail(ReplayCache* cache) {
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
  [[gnu::noinline]] bool checkpointsThrough(Micros t, std::uint32_t arrived) {
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
      mine.next_check_at = client_.next_check_at;
      mine.checks_done = client_.checks_done;
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
  bool quietAt(Micros t) const {
    return client_.workers_busy == 0 && client_.pool_busy == 0 && client_.calls_in_flight == 0 &&
           in_flight_.empty() && retries_.empty() && client_.give_ups.empty() &&
           client_.thread_releases.empty() && held_.size() == free_held_.size() &&
           client_.in_rotation == client_.pods.size() && client_.servers.idleAt(t);
  }

  // The comparisons with the worker limit since the last quiet second belong to its stretch;
  // a new one begins at `second` (kNoSecond: the run is over).
  void closeInterval(std::size_t second) {
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
  bool join(const TailRun& reference, const TailRun::Checkpoint& mine, std::size_t second) {
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
  void keepTail(ReplayCache* cache) {
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

  // --- Resource levels over the window ---------------------------------------------------

  void beginTracking() {
    const Micros start = incident_.start, end = incident_.end;
    // A level not begun is not followed (report parts left out).
    if (resources_) {
      if (workers_limit_ > 0 && parts_.has(ReportPart::worker_levels))
        levels_.workers.begin(start, end, client_.workers_busy);
      if (shape_.pool_tracked && parts_.has(ReportPart::pool_levels))
        levels_.pool.begin(start, end, client_.pool_busy);
      if ((health_checks_ || shape_.max_pods != config_.load_balancer.pods) &&
          parts_.has(ReportPart::pods_in_rotation))
        levels_.ejected.begin(start, end, shape_.max_pods - client_.in_rotation);
      if (parts_.has(ReportPart::calls_in_flight))
        levels_.load.begin(start, end, client_.calls_in_flight);
    }
    if (shape_.retries && parts_.has(ReportPart::pending_retries))
      levels_.pending.begin(start, end, static_cast<std::uint32_t>(retries_.waiting()));
    facts_.pods = config_.load_balancer.pods;
    facts_.pods_in_rotation_at_start = client_.in_rotation;
    facts_.health_checks = health_checks_;
    // With pods scaled during the run, the capacities are the largest it reaches.
    facts_.worker_capacity = workers_limit_ * shape_.max_pods;
    facts_.pool_capacity = shape_.max_pool_capacity;
    facts_.dependency_limited = client_.servers.limited();
    if (client_.servers.limited() && parts_.has(ReportPart::dependency_use))
      client_.servers.recordUsage(start, end);
  }

  void finishTracking() { levels_.collect(result_.per_second, facts_, shape_.max_pods); }

  // --- The event loop ------------------------------------------------------------------

  // Counts one event; every progress_every_ of them the progress hook hears how far the
  // run is and may cancel it. A decrement and a branch that is never taken in between.
  void tick(Micros now) {
    if (--until_progress_ != 0) [[likely]]
      return;
    reportProgress(now);
  }

  [[gnu::noinline]] void reportProgress(Micros now) {
    until_progress_ = progress_every_;
    progress_events_ += progress_every_;
    const Micros run_start = incident_.start - incident_.traffic.lead_in;
    const double span = static_cast<double>(incident_.end - run_start);
    const double done = span > 0 ? static_cast<double>(now - run_start) / span : 1.0;
    if (!(*progress_)(ReplayProgress{std::clamp(done, 0.0, 1.0), progress_events_}))
      throw ReplayCancelled();
  }

  // The least of a few times, as a chain of two-way minimums: std::min of an initializer list
  // loops over a copy of it, at every event.
  static Micros earliest(Micros a, Micros b) { return std::min(a, b); }
  template <typename... Rest>
  static Micros earliest(Micros a, Micros b, Rest... rest) {
    return std::min(a, earliest(b, rest...));
  }

  Micros nextEventAt() {
    Micros t = earliest(in_flight_.nextAt(), breakerTimer(), retries_.nextAt());
    if (resources_)
      t = earliest(t, client_.nextGiveUp(), client_.next_check_at, client_.nextThreadRelease());
    return t;
  }

  // Runs everything due at or before t (the stage `window`), in this order at equal times: call
  // completions, call threads coming free, breaker timers, connection waits running out,
  // attempts whose backoff ended, health checks; then the arrival that called this.
  void drain(Micros t) {
    if (resources_)
      drainWithResources(t);
    else
      dispatch<false, false>(t);  // inlined into arrive(): the small loop runs once per arrival
  }
  [[gnu::noinline]] void drainWithResources(Micros t) { dispatch<true, false>(t); }

  // The one event loop. Without client resources (kResources false) only completions, timers and
  // retries exist and the loop stays small; in the tail (kTail) requests still in their retry
  // loop, or waiting for a connection, run to completion, with the breaker's timers running as
  // long as they matter to them, and health checks no longer do.
  template <bool kResources, bool kTail>
  [[gnu::always_inline]] void dispatch(Micros until) {
    for (;;) {
      const Micros completion = in_flight_.nextAt();
      const Micros timer = breakerTimer();
      const Micros retry = retries_.nextAt();
      const Micros give_up = kResources ? client_.nextGiveUp() : kNever;
      const Micros thread = kResources ? client_.nextThreadRelease() : kNever;
      const Micros check = kResources && !kTail ? client_.next_check_at : kNever;
      Micros next;
      if constexpr (kResources) {
        const Micros other = earliest(completion, retry, give_up, thread, check);
        if (kTail && other == kNever) return;  // timers only while something else is due
        next = std::min(other, timer);
      } else {
        next = earliest(completion, timer, retry);
      }
      if (next > until) return;
      if (completion == next) {
        // Completions are not counted on the small loop: each belongs to an arrival or a
        // retry, which are.
        if constexpr (kResources) tick(next);
        complete(in_flight_.pop());
        if (holds_calls_) serveReleased(next);
        continue;
      }
      tick(next);
      if (kResources && thread == next) {
        releaseCallThread();
      } else if (timer == next) {
        if (breaker_.skipIdleTimers(
                earliest(until, completion - 1, thread - 1, retry, give_up, check)))
          continue;
        breaker_.fireTimer();
      } else if (kResources && give_up == next) {
        giveUp();
      } else if (retry == next) {
        startRetry(retries_.pop());
        if constexpr (!kResources) continue;  // a started retry releases nothing the breaker holds
      } else {
        healthCheck();
      }
      if (holds_calls_) serveReleased(next);
    }
  }

  // --- Timed changes ---------------------------------------------------------------------

  Micros breakerTimer() const { return config_.breaker.enabled ? breaker_.nextTimer() : kNever; }

  // Whether a request that arrived at `request_start` runs its retries in the background: the
  // mode in force when it arrived.
  bool backgroundFor(Micros request_start) const {
    return retry_modes_.backgroundFor(request_start);
  }

  // Everything due before each change runs first; a change applies before anything else due
  // at its time.
  [[gnu::noinline]] void applyChangesThrough(Micros t) {
    while (next_change_at_ <= t) {
      const TimedChange& change = changes_[next_change_];
      drain(change.at - 1);
      applyTimedChange(change);
      ++next_change_;
      next_change_at_ = next_change_ < changes_.size() ? changes_[next_change_].at : kNever;
    }
  }

  void applyTimedChange(const TimedChange& change) {
    const Micros t = change.at;
    const Config before = config_;
    applyChange(config_, change);
    timeout_ = effectiveTimeout(config_);
    cache_first_ = config_.pricing.mode == PricingMode::cache_first && config_.cache.enabled;
    pool_limit_ = poolLimit(config_);
    if (config_.pool.size > before.pool.size || (before.pool.size > 0 && config_.pool.size == 0))
      for (std::size_t pod = 0; pod < client_.pods.size(); ++pod)
        while (client_.pods[pod].pool_busy < pool_limit_ &&
               serveNextWaiter(static_cast<std::uint16_t>(pod), t)) {
          ++client_.pods[pod].pool_busy;
          levels_.pool.set(t, ++client_.pool_busy);
        }
    if (config_.load_balancer.pods != before.load_balancer.pods) scalePods(t, before);
    if (config_.breaker.enabled != before.breaker.enabled) switchBreaker(t);
  }

  void scalePods(Micros t, const Config& before) {
    const std::uint32_t pods = config_.load_balancer.pods;
    if (client_.pods.size() < pods) {
      // New pods join below, counted as they do.
      const std::size_t old_size = client_.pods.size();
      client_.pods.resize(pods);
      for (std::size_t i = old_size; i < pods; ++i) client_.pods[i].in_rotation = false;
    }
    for (std::uint32_t i = 0; i < client_.pods.size(); ++i) {
      Pod& p = client_.pods[i];
      const bool serving = i < pods;
      if (serving && i >= before.load_balancer.pods) {
        // Added (or added back): in rotation, its health counters fresh.
        p.failed_checks = p.passed_checks = 0;
        if (!p.in_rotation) {
          p.in_rotation = true;
          ++client_.in_rotation;
        }
      } else if (!serving && p.in_rotation) {
        p.in_rotation = false;
        --client_.in_rotation;
      }
    }
    levels_.ejected.set(t, shape_.max_pods - client_.in_rotation);
    if (client_.round_robin >= pods) client_.round_robin = 0;
    if (health_checks_) {
      client_.checks_origin = std::max(t, client_.next_check_at);
      client_.checks_done = 0;
      client_.next_check_at = client_.checks_origin;
    }
  }

  void switchBreaker(Micros t) {
    if (config_.breaker.enabled) {
      // A new breaker, closed and empty, that sees the calls from now on.
      earlier_transitions_.insert(earlier_transitions_.end(), breaker_.transitions().begin(),
                                  breaker_.transitions().end());
      earlier_probes_.insert(earlier_probes_.end(), breaker_.probeResults().begin(),
                             breaker_.probeResults().end());
      breaker_ = Breaker(config_.breaker, config_.native, &health_, t);
      breaker_since_ = t;
      if (breaker_off_since_ != kNever) breaker_off_.push_back({breaker_off_since_, t});
      breaker_off_since_ = kNever;
    } else {
      breaker_off_since_ = t;
    }
  }

  // The changes as events, and the breaker lane "disabled" where a change had switched it off.
  void reportChanges() {
    std::vector<Event> changes;
    for (const TimedChange& c : changes_) {
      std::string text;
      for (const ConfigEdit& e : c.edits) {
        if (!text.empty()) text += ", ";
        text += std::string(timedKeyInfo(e.key).name);
      }
      changes.push_back({c.at, EventKind::change, "changes", c.label.empty() ? text : c.label});
    }
    std::vector<Event> merged;
    merged.reserve(result_.events.size() + changes.size());
    std::merge(result_.events.begin(), result_.events.end(), changes.begin(), changes.end(),
               std::back_inserter(merged),
               [](const Event& a, const Event& b) { return a.at < b.at; });
    result_.events = std::move(merged);
    if (!shape_.breaker_switches) return;
    std::vector<std::pair<Micros, Micros>> off = breaker_off_;
    if (breaker_off_since_ != kNever) off.push_back({breaker_off_since_, incident_.end});
    const Micros start = incident_.start, end = incident_.end;
    Lane lane{result_.breaker.name, {}};
    auto offAt = [&](Micros t) {
      for (const auto& [a, b] : off)
        if (t >= a && t < b) return true;
      return false;
    };
    // Cut the lane at every off-spell boundary and rename what falls inside.
    std::vector<Micros> cuts;
    for (const auto& i : result_.breaker.intervals) cuts.push_back(i.from);
    for (const auto& [a, b] : off) {
      cuts.push_back(std::clamp(a, start, end));
      cuts.push_back(std::clamp(b, start, end));
    }
    cuts.push_back(end);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const Micros a = cuts[k], b = cuts[k + 1];
      if (b <= a) continue;
      lane.append(offAt(a) ? kBreakerDisabled : result_.breaker.stateAt(a), a, b);
    }
    result_.breaker = std::move(lane);
  }

  // Envoy is a proxy: every attempt is a request to one of its hosts, wherever the app retries.
  bool breakerOutside() const {
    return config_.breaker.enabled &&
           config_.breaker.placement == BreakerPlacement::outside_retry && !connects_;
  }
  bool breakerInside() const {
    return config_.breaker.enabled &&
           (config_.breaker.placement == BreakerPlacement::inside_retry || connects_);
  }
  static Stream streamOf(std::uint32_t record) {
    if (record == kLeadInRecord) return Stream::lead_in;
    return record == kRefreshRecord ? Stream::refresh : Stream::window;
  }

  void arrive(Micros t, Stream stream, std::uint64_t request, std::uint32_t record) {
    const bool counted = record != kLeadInRecord;
    const std::uint32_t key = counted && !recorded_keys_.empty()
                                  ? recorded_keys_[first_arrival_ + request]
                                  : keys_.sample(rng_.uniform(stream, request, 0, Purpose::key));
    arriveWithKey(t, request, record, key);
  }

  // An arrival whose key is known (a pure function of the request: drawing it first changes
  // nothing).
  void arriveWithKey(Micros t, std::uint64_t request, std::uint32_t record, std::uint32_t key) {
    tick(t);
    if (t >= next_change_at_) [[unlikely]]
      applyChangesThrough(t);
    // With client resources most arrivals find something due, and the loop's first look at the
    // next event is the same look: no separate one first.
    if (resources_ || t >= nextEventAt()) drain(t);
    const bool counted = record != kLeadInRecord;
    if (trace_ != nullptr && counted) [[unlikely]] {
      trace_->keys.push_back(key);
      trace_->pods.push_back(static_cast<std::uint16_t>(
          resources_ && client_.in_rotation > 0 ? client_.round_robin : 0));
    }
    if (counted && config_.breaker.enabled)
      result_.checkouts[record].breaker_closed = breaker_.state() == BreakerState::closed;
    const auto id = static_cast<std::uint32_t>(request);
    if (!resources_) {
      beginRequest(t, t, 0, key, record, id);
      return;
    }
    arriveAtPod(t, key, record, id);
  }

  // The load balancer picks a pod in rotation, round robin; the pod gives a worker or queues.
  [[gnu::noinline]] void arriveAtPod(Micros t, std::uint32_t key, std::uint32_t record,
                                     std::uint32_t request) {
    const bool counted = record != kLeadInRecord;
    const std::uint32_t pods = config_.load_balancer.pods;
    if (client_.in_rotation == 0) {
      if (counted) {
        ++facts_.no_pod_rejections;
        finish(record, CheckoutOutcome::failed, FailReason::no_pod, 0);
      }
      return;
    }
    std::uint32_t pod;
    do {
      pod = client_.round_robin;
      client_.round_robin = client_.round_robin + 1 == pods ? 0 : client_.round_robin + 1;
    } while (!client_.pods[pod].in_rotation);
    Pod& p = client_.pods[pod];
    if (workers_limit_ > 0) {
      if (p.workers_busy >= workers_limit_) {
        noteWorkersFull(p.workers_busy);
        if (p.worker_queue.size() < config_.workers.queue) {
          p.worker_queue.push_back({t, key, record, request});
        } else if (counted) {
          ++facts_.worker_rejections;
          finish(record, CheckoutOutcome::failed, FailReason::no_worker, 0);
        }
        return;
      }
      noteWorkersFree(p.workers_busy);
      ++p.workers_busy;
      levels_.workers.set(t, ++client_.workers_busy);
    }
    if (!beginRequest(t, t, static_cast<std::uint16_t>(pod), key, record, request))
      releaseWorker(static_cast<std::uint16_t>(pod), t);
  }

  // A request with its worker. Returns whether it still holds the worker (false: it was
  // answered at once).
  [[gnu::always_inline]] bool beginRequest(Micros t, Micros arrival, std::uint16_t pod,
                                           std::uint32_t key, std::uint32_t record,
                                           std::uint32_t request) {
    const bool counted = record != kLeadInRecord;
    if (cache_first_) {
      const Micros fetched = prices_.fetchedAt(key);
      if (const auto age = prices_.servableAge(key, t, config_.cache.ttl)) {
        if (counted) {
          facts_.oldest_cached_age = std::max(facts_.oldest_cached_age, *age);
          finish(record, CheckoutOutcome::cached, FailReason::none, t - arrival);
        }
        // One refresh per key in flight, and at most one per refresh_after: a failing
        // dependency is not asked again on every checkout.
        const Micros last = client_.refreshed_at[key];
        const Micros every = config_.pricing.refresh_after;
        if (t - fetched >= every && !client_.refreshing[key] &&
            (last == kNever || t - last >= every))
          startRefresh(t, pod, key);
        return false;
      }
    }
    return admitOutside(t, arrival, pod, key, record, request);
  }

  // The outside breaker, then the first attempt. Returns whether the request still holds its
  // worker (it is under way, or held by the breaker until it decides).
  bool admitOutside(Micros t, Micros arrival, std::uint16_t pod, std::uint32_t key,
                    std::uint32_t record, std::uint32_t request) {
    BreakerPermit permit = CircuitBreaker::admitted(0);
    if (breakerOutside()) {
      permit = acquireAt(t, HeldCall::Kind::request, arrival, key, record, request, 0, pod);
      if (permit.waiting) return true;
      if (!permit.permitted) {
        lead_in_times_.failures = true;
        if (record != kLeadInRecord) {
          ++facts_.rejected_calls;
          fallBack(record, key, t, t - arrival);
        }
        return false;
      }
    }
    return startAttempt(t, arrival, key, record, request, permit, 0, pod);
  }

  void startRefresh(Micros t, std::uint16_t pod, std::uint32_t key) {
    BreakerPermit permit = CircuitBreaker::admitted(0);
    if (breakerOutside()) {
      permit = acquireAt(t, HeldCall::Kind::refresh, t, key, kRefreshRecord, 0, 0, pod);
      if (!permit.permitted) return;  // rejected, or held until the breaker decides
    }
    client_.refreshing[key] = 1;
    client_.refreshed_at[key] = t;
    if (!startAttempt(t, t, key, kRefreshRecord, client_.refreshes++, permit, 0, pod))
      client_.refreshing[key] = 0;
  }

  // --- Calls the breaker holds until it decides (cockatiel's half-open waiters) -----------

  // Asks the breaker; a call it holds is kept under a token until it is released.
  BreakerPermit acquireAt(Micros t, HeldCall::Kind kind, Micros request_start, std::uint32_t key,
                          std::uint32_t record, std::uint32_t request, std::uint8_t attempt,
                          std::uint16_t pod) {
    if (!holds_calls_) return breaker_.acquire(t);
    std::uint32_t token;
    const HeldCall held{kind, request_start, key, record, request, attempt, pod};
    if (!free_held_.empty()) {
      token = free_held_.back();
      free_held_.pop_back();
      held_[token] = held;
    } else {
      token = static_cast<std::uint32_t>(held_.size());
      held_.push_back(held);
    }
    const BreakerPermit permit = breaker_.acquire(t, token);
    if (!permit.waiting) free_held_.push_back(token);
    return permit;
  }

  // The breaker decided: every call it released asks again, in the order it was held, and goes
  // on as it would have (or lets go of its worker when it is rejected now).
  void serveReleased(Micros t) {
    // A released call that asks again may release others (its result decides the half-open
    // state); they are served after it, until the breaker holds nothing it has answered.
    std::vector<std::uint32_t> tokens;
    for (;;) {
      std::vector<std::uint32_t>& released = breaker_.released();
      if (released.empty()) return;
      tokens.clear();
      tokens.swap(released);
      serveTokens(t, tokens);
    }
  }

  void serveTokens(Micros t, const std::vector<std::uint32_t>& tokens) {
    for (const std::uint32_t token : tokens) {
      const HeldCall h = held_[token];
      free_held_.push_back(token);
      switch (h.kind) {
        case HeldCall::Kind::request:
          if (!admitOutside(t, h.request_start, h.pod, h.key, h.record, h.request))
            releaseWorker(h.pod, t);
          break;
        case HeldCall::Kind::refresh:
          if (!client_.refreshing[h.key]) startRefresh(t, h.pod, h.key);
          break;
        case HeldCall::Kind::attempt:
          if (!startAttempt(t, h.request_start, h.key, h.record, h.request,
                            CircuitBreaker::admitted(0), h.attempt, h.pod) &&
              h.record != kRefreshRecord && (h.attempt == 0 || !backgroundFor(h.request_start)))
            releaseWorker(h.pod, t);
          break;
      }
    }
  }

  // Attempt `attempt` of a request at time t: the inside breaker, then a connection. Returns
  // whether the attempt is under way (false: the breaker rejected it and the request is over).
  [[gnu::always_inline]] bool startAttempt(Micros t, Micros request_start, std::uint32_t key,
                                           std::uint32_t record, std::uint32_t request,
                                           BreakerPermit permit, std::uint8_t attempt,
                                           std::uint16_t pod) {
    if (breakerInside()) {
      permit =
          acquireAt(t, HeldCall::Kind::attempt, request_start, key, record, request, attempt, pod);
      if (permit.waiting) return true;
      if (!permit.permitted) {
        lead_in_times_.failures = true;
        // Rejected: the first attempt falls back at once; a retry ends the loop with the
        // failure it was retrying. With retries in the background the attempt is retried later
        // like a failed one (the breaker said "not now").
        if (backgroundFor(request_start) && isCheckout(record)) {
          const PendingCall rejected{t,      request_start,        key,     record, request, 0,
                                     permit, CallOutcome::refused, attempt, pod};
          if (retryAfter(rejected, true)) {
            ++facts_.rejected_calls;
            if (attempt == 0) {
              result_.checkouts[record].latency_us =
                  static_cast<std::int32_t>(std::min<Micros>(t - request_start, INT32_MAX));
            }
            return false;
          }
        }
        if (record == kRefreshRecord) {
          client_.refreshing[key] = 0;
        } else if (record != kLeadInRecord) {
          ++facts_.rejected_calls;
          fallBack(record, key, t, requestLatency(record, attempt, t - request_start));
        }
        return false;
      }
    }
    const PendingCall call{t,      request_start,        key,     record, request, 0,
                           permit, CallOutcome::success, attempt, pod};
    if (call_threads_ && !takeCallThread(call)) return true;
    if (shape_.pool_tracked && !takeConnection(call)) return true;
    send(call, t);
    return true;
  }

  // A comparison of a pod's busy workers with the limit: it finds a worker free, which any limit
  // above `busy` would; or none, as any limit up to `busy` would.
  void noteWorkersFree(std::uint32_t busy) {
    workers_lo_ = std::max(workers_lo_, busy + 1);
    interval_peak_ = std::max(interval_peak_, busy + 1);
  }
  void noteWorkersFull(std::uint32_t busy) {
    workers_hi_ = std::min(workers_hi_, busy);
    interval_full_ = true;
  }

  // A worker of the call's pod to make the call on; without one the attempt fails at once.
  [[gnu::noinline]] bool takeCallThread(const PendingCall& call) {
    Pod& p = client_.pods[call.pod];
    if (p.workers_busy < workers_limit_) {
      noteWorkersFree(p.workers_busy);
      ++p.workers_busy;
      levels_.workers.set(call.at, ++client_.workers_busy);
      return true;
    }
    noteWorkersFull(p.workers_busy);
    PendingCall failed = call;
    failed.outcome = CallOutcome::pool_exhausted;
    if (isCheckout(call.record)) ++facts_.pool_exhausted;
    lead_in_times_.failures = true;
    complete(failed);
    return false;
  }

  // The call's worker stays with it until the dependency answers, even after the request gave
  // up on it; a call that never answers frees it at the attempt timeout.
  void holdCallThread(Micros t, std::uint16_t pod, Micros true_latency, Micros duration) {
    const Micros busy = true_latency == kNever ? duration : std::max(duration, true_latency);
    client_.thread_releases.push_back({t + busy, pod});
    std::push_heap(client_.thread_releases.begin(), client_.thread_releases.end(),
                   std::greater<>{});
  }

  void releaseCallThread() {
    std::pop_heap(client_.thread_releases.begin(), client_.thread_releases.end(), std::greater<>{});
    const ClientState::ThreadRelease r = client_.thread_releases.back();
    client_.thread_releases.pop_back();
    releaseWorker(r.pod, r.at);
  }

  // Takes a connection of the call's pod, or queues the call for one. Returns whether it got one.
  [[gnu::noinline]] bool takeConnection(const PendingCall& call) {
    Pod& p = client_.pods[call.pod];
    if (p.pool_busy < pool_limit_) {
      ++p.pool_busy;
      levels_.pool.set(call.at, ++client_.pool_busy);
      if (call.at >= incident_.start) ++facts_.pool_acquisitions;
      return true;
    }
    const Micros max_wait = config_.pool.max_wait;
    const Micros give_up_at = max_wait > 0 ? call.at + max_wait : kNever;
    const std::uint32_t w = client_.addWaiter(call, give_up_at);
    p.pool_queue.push_back(w);
    if (max_wait > 0) client_.addGiveUp({w, client_.pool_waiters[w].generation, give_up_at});
    return false;
  }

  // Sends the call (which holds its connection, if there is a pool) to the dependency at t.
  [[gnu::always_inline]] void send(const PendingCall& c, Micros t) {
    const bool counted =
        isCheckout(c.record) || (c.record == kRefreshRecord && t >= incident_.start);
    if (c.attempt == 0 && c.record != kRefreshRecord) retries_.onRequest(t);
    Micros timeout = timeout_.attempt;
    if (timeout_.total > 0)
      timeout = std::max<Micros>(0, std::min(timeout, c.request_start + timeout_.total - t));
    DependencyAnswer answer = dependency_.answer(t, rng_, streamOf(c.record), c.request, c.attempt);
    if (connects_ && config_.breaker.enabled && answer.outcome != CallOutcome::refused &&
        c.start() >= breaker_since_)
      breaker_.connected(t, c.permit);
    if (client_.servers.limited() && answer.outcome != CallOutcome::refused)
      queueAtDependency(t, timeout, answer);
    // The second of the window that holds t, for the calls and the failures per second.
    std::size_t second = 0;
    if (counted) {
      ++facts_.dependency_calls;
      facts_.retries += c.attempt > 0 ? 1 : 0;
      if (calls_per_second_) {
        second = secondOf(incident_.start, t);
        countAt(result_.per_second.dependency_calls, second);
      }
    }
    const bool hung = answer.latency >= timeout;
    const Micros duration = hung ? timeout : answer.latency;
    if (!counted) noteAttempt(t, c.request_start, hung, answer);  // a lead-in call
    if (call_threads_) holdCallThread(t, c.pod, answer.latency, duration);
    const CallOutcome outcome = hung ? CallOutcome::timeout : answer.outcome;
    if (counted) facts_.call_duration_sum += static_cast<std::uint64_t>(duration);
    PendingCall call = c;
    call.at = t + duration;
    call.duration = static_cast<std::int32_t>(duration);
    call.outcome = outcome;
    // Only full-length timeouts of the run's first timeout complete in start order; a
    // deadline-shortened one, or one sent after a timeout change, does not.
    if (hung && timeout == fifo_timeout_) {
      in_flight_.pushTimeout(call);
    } else {
      in_flight_.push(call);
    }
    if (resources_) levels_.load.set(t, ++client_.calls_in_flight);
    if (counted && config_.breaker.failures.contains(outcome)) {
      ++facts_.dependency_failures;
      if (calls_per_second_) countAt(result_.per_second.dependency_failures, second);
    }
  }

  // What a lead-in call asked of the timeouts.
  [[gnu::always_inline]] void noteAttempt(Micros t, Micros request_start, bool hung,
                                          const DependencyAnswer& answer) {
    if (hung || (answer.outcome != CallOutcome::success &&
                 answer.outcome != CallOutcome::client_error)) [[unlikely]] {
      lead_in_times_.failures = true;
      return;
    }
    lead_in_times_.longest_attempt = std::max(lead_in_times_.longest_attempt, answer.latency);
    lead_in_times_.longest_request =
        std::max(lead_in_times_.longest_request, t + answer.latency - request_start);
  }

  [[gnu::noinline]] void queueAtDependency(Micros t, Micros patience, DependencyAnswer& answer) {
    const auto admission = client_.servers.admit(t, answer.latency, patience);
    if (admission.queue_full) {
      answer = {CallOutcome::server_error, incident_.dependency.capacity.queue_timeout};
    } else if (answer.latency != kNever) {
      answer.latency += admission.wait;
    }
  }

  void startRetry(const PendingCall& c) {
    levels_.pending.set(c.at, static_cast<std::uint32_t>(retries_.waiting()));
    if (c.attempt >= config_.retry.max_attempts) [[unlikely]] {
      // A change lowered the limit after this retry was scheduled: the request ends with the
      // failure it was retrying.
      requestOver(c);
      return;
    }
    const bool holds_worker = !backgroundFor(c.request_start);
    if (!startAttempt(c.at, c.request_start, c.key, c.record, c.request, c.permit, c.attempt,
                      c.pod) &&
        holds_worker)
      releaseWorker(c.pod, c.at);
  }

  // A waiter's max wait ran out: the attempt fails with pool_exhausted.
  void giveUp() {
    const ClientState::GiveUp g = client_.give_ups.front();
    client_.give_ups.pop_front();
    PoolWaiter& w = client_.pool_waiters[g.waiter];
    if (w.generation != g.generation || w.done) return;
    w.done = true;  // the pod's queue frees it when it reaches it
    PendingCall call = w.call;
    call.at = g.at;
    call.duration = static_cast<std::int32_t>(g.at - w.call.at);
    call.outcome = CallOutcome::pool_exhausted;
    if (isCheckout(call.record)) ++facts_.pool_exhausted;
    lead_in_times_.failures = true;
    complete(call);
  }

  // The call's connection goes to the pod's next waiter, or back to the pool.
  [[gnu::noinline]] void releaseConnection(std::uint16_t pod, Micros t) {
    Pod& p = client_.pods[pod];
    // A pool shrunk below what it had in use closes connections as they come back.
    if (p.pool_busy > pool_limit_ || p.pool_queue.empty() || !serveNextWaiter(pod, t)) {
      --p.pool_busy;
      levels_.pool.set(t, --client_.pool_busy);
    }
  }

  // Hands a connection that is free (a given-back one, or a new one of a grown pool) to the
  // pod's first live waiter. Whether there was one.
  bool serveNextWaiter(std::uint16_t pod, Micros t) {
    Pod& p = client_.pods[pod];
    while (!p.pool_queue.empty()) {
      const std::uint32_t i = p.pool_queue.front();
      p.pool_queue.pop_front();
      PoolWaiter& w = client_.pool_waiters[i];
      const bool waiting = !w.done;
      const PendingCall call = w.call;
      client_.freeWaiter(i);
      if (!waiting) continue;
      if (t >= incident_.start) {
        ++facts_.pool_acquisitions;
        ++facts_.pool_waits;
        facts_.pool_wait_sum += static_cast<std::uint64_t>(t - call.at);
      }
      send(call, t);
      return true;
    }
    return false;
  }

  // The request's worker goes to the pod's next queued checkout, or becomes free.
  [[gnu::noinline]] void releaseWorker(std::uint16_t pod, Micros t) {
    if (workers_limit_ == 0) return;
    Pod& p = client_.pods[pod];
    while (!p.worker_queue.empty()) {
      const WorkerWaiter w = p.worker_queue.front();
      p.worker_queue.pop_front();
      if (beginRequest(t, w.arrival, pod, w.key, w.record, w.request)) return;
    }
    --p.workers_busy;
    levels_.workers.set(t, --client_.workers_busy);
  }

  [[gnu::noinline]] void healthCheck() {
    const Micros t = client_.next_check_at;
    const HealthCheckConfig& hc = config_.load_balancer.health_check;
    const std::uint32_t pods = config_.load_balancer.pods;  // the pods in service now
    const auto index = static_cast<std::uint32_t>(client_.checks_done % pods);
    ++client_.checks_done;
    // Pods are checked in turn, spread evenly over the interval.
    client_.next_check_at =
        client_.checks_origin + static_cast<Micros>(client_.checks_done) * hc.interval / pods;
    Pod& p = client_.pods[index];
    bool passes = true;
    if (hc.pool != HealthCheckPool::separate && workers_limit_ != 0) {
      passes = p.workers_busy < workers_limit_;
      if (passes) {
        noteWorkersFree(p.workers_busy);
      } else {
        noteWorkersFull(p.workers_busy);
      }
    }
    if (passes) {
      p.failed_checks = 0;
      ++p.passed_checks;
      if (!p.in_rotation && p.passed_checks >= hc.healthy_after) setRotation(t, index, true);
    } else {
      p.passed_checks = 0;
      ++p.failed_checks;
      if (p.in_rotation && p.failed_checks >= hc.unhealthy_after) setRotation(t, index, false);
    }
  }

  void setRotation(Micros t, std::uint32_t pod, bool in) {
    client_.pods[pod].in_rotation = in;
    client_.in_rotation += in ? 1 : -1;
    levels_.ejected.set(t, shape_.max_pods - client_.in_rotation);
    if (t >= incident_.start && t <= incident_.end)
      facts_.pod_events.push_back({t, pod, !in, client_.in_rotation});
  }

  void complete(const PendingCall& call) {
    if (trace_ != nullptr && isCheckout(call.record)) [[unlikely]]
      trace_->calls.push_back({call.at - call.duration, call.duration, call.request_start,
                               call.record, call.key, call.pod, call.attempt, call.outcome});
    if (call.outcome != CallOutcome::pool_exhausted) {
      if (resources_) {
        levels_.load.set(call.at, --client_.calls_in_flight);
        if (shape_.pool_tracked) releaseConnection(call.pod, call.at);
      }
    }
    if (breakerInside() && call.start() >= breaker_since_)
      recordAtBreaker(call.at, call.permit, call.outcome, call.duration);
    if (call.outcome == CallOutcome::success) {
      prices_.store(call.key, call.at);
      if (call.attempt == 0) retries_.onFirstAttemptSuccess();
    }
    if (call.record == kRefreshRecord) {
      client_.refreshing[call.key] = 0;
      if (breakerOutside() && call.request_start >= breaker_since_)
        recordAtBreaker(call.at, call.permit, call.outcome, call.at - call.request_start);
      return;
    }
    const bool failed =
        call.outcome != CallOutcome::success && call.outcome != CallOutcome::client_error;
    if (failed && config_.retry.max_attempts > 1 && retryAfter(call)) {
      if (call.attempt == 0 && backgroundFor(call.request_start)) {
        // The checkout answers now; its retries go on off the request path.
        if (isCheckout(call.record)) {
          result_.checkouts[call.record].latency_us =
              static_cast<std::int32_t>(std::min<Micros>(call.at - call.request_start, INT32_MAX));
        }
        releaseWorker(call.pod, call.at);
      }
      return;
    }
    requestOver(call);
  }

  // The request's last attempt is done (or a retry it had scheduled will not be made).
  void requestOver(const PendingCall& call) {
    // The outside breaker sees it once, for the whole loop.
    const Micros total = call.at - call.request_start;
    if (breakerOutside() && call.request_start >= breaker_since_)
      recordAtBreaker(call.at, call.permit, call.outcome, total);
    if (isCheckout(call.record)) {
      const Micros latency = requestLatency(call.record, call.attempt, total);
      switch (call.outcome) {
        case CallOutcome::success:
          finish(call.record, CheckoutOutcome::fresh, FailReason::none, latency);
          break;
        case CallOutcome::client_error:
          finish(call.record, CheckoutOutcome::failed, FailReason::client_error, latency);
          break;
        default:
          fallBack(call.record, call.key, call.at, latency);
      }
      if (result_.checkouts[call.record].outcome == CheckoutOutcome::failed) {
        facts_.failed_checkout_attempts += call.attempt + 1u;
        ++facts_.failed_checkouts_with_attempts;
      }
    }
    if (call.attempt == 0 || !backgroundFor(call.request_start)) releaseWorker(call.pod, call.at);
  }

  // What the checkout's client waited: the whole loop, or with background retries only the
  // first attempt (already written to the record).
  Micros requestLatency(std::uint32_t record, std::uint8_t attempt, Micros total) const {
    if (attempt > 0 && isCheckout(record) && backgroundFor(result_.checkouts[record].arrival))
      return result_.checkouts[record].latency_us;
    return total;
  }

  void recordAtBreaker(Micros t, const BreakerPermit& permit, CallOutcome outcome,
                       Micros duration) {
    breaker_.record(t, permit, outcome, duration);
    if (!facts_.first_trip && t >= incident_.start && t <= incident_.end &&
        breaker_.state() == BreakerState::open) {
      const BreakerTransition& last = breaker_.transitions().back();
      if (last.at == t && last.from == BreakerState::closed) facts_.first_trip = t;
    }
  }

  // Schedules the next attempt of a failed call when the retry policy allows it.
  [[gnu::noinline]] bool retryAfter(const PendingCall& call, bool rejected = false) {
    const Stream stream = streamOf(call.record);
    const RetryLoop::Verdict verdict = retries_.retryAfter(
        call, rejected, config_.retry, timeout_,
        [&](std::uint32_t n) { return rng_.uniform(stream, call.request, n, Purpose::backoff); });
    if (verdict == RetryLoop::Verdict::refused_by_budget)
      facts_.retries_refused += call.record != kLeadInRecord ? 1 : 0;
    if (verdict != RetryLoop::Verdict::scheduled) return false;
    levels_.pending.set(call.at, static_cast<std::uint32_t>(retries_.waiting()));
    return true;
  }

  void fallBack(std::uint32_t record, std::uint32_t key, Micros now, Micros waited) {
    const auto age =
        config_.cache.enabled ? prices_.servableAge(key, now, config_.cache.ttl) : std::nullopt;
    if (age) {
      facts_.oldest_cached_age = std::max(facts_.oldest_cached_age, *age);
      finish(record, CheckoutOutcome::cached, FailReason::none, waited);
    } else {
      finish(record, CheckoutOutcome::failed, FailReason::cache_miss, waited);
    }
  }

  void finish(std::uint32_t record, CheckoutOutcome outcome, FailReason reason, Micros latency) {
    CheckoutRecord& r = result_.checkouts[record];
    const bool newly_failed = outcome == CheckoutOutcome::failed && r.outcome != outcome;
    r.outcome = outcome;
    r.reason = reason;
    r.latency_us = static_cast<std::int32_t>(std::min<Micros>(latency, INT32_MAX));
    if (newly_failed && --failures_allowed_ == 0) [[unlikely]]
      throw ReplayGaveUp(r.arrival);
  }

  const Incident& incident_;
  const Config& deployed_;  // the config the replay starts with
  Config config_;           // the config in force: the deployed one with the changes made so far
  std::vector<TimedChange> changes_;  // enabled, in time order
  RunShape shape_;
  CounterRng rng_;
  HealthTimeline health_;
  Breaker breaker_;
  TimeoutConfig timeout_;  // the config's, or shorter where the breaker times calls (opossum)
  DependencyModel dependency_;
  KeySampler keys_;
  PriceCache prices_;
  InFlight in_flight_;
  RetryLoop retries_;
  ClientState client_;
  std::uint32_t workers_limit_;
  // The worker limits per pod under which every comparison with the limit so far (the lead-in's
  // included) would have come out as it did: see WorkerLimitRun. Whatever decides something by
  // workers_limit_ must note how it came out (noteWorkersFree / noteWorkersFull), or a run would
  // stand for limits under which it goes otherwise; besides those, only the report's capacity
  // reads the limit, and it is set again when a run is reused.
  std::uint32_t workers_lo_ = 1;
  std::uint32_t workers_hi_ = UINT32_MAX;
  // Tail sharing (TailRun): this run's quiet seconds, the run it may join, the next second to
  // stop at, and since the last quiet second the most workers a pod had busy after a comparison
  // (one more than it had, for a check) and whether one found a pod full (only a failed check
  // takes a pod out of rotation).
  static constexpr std::size_t kNoSecond = ~std::size_t{0};
  std::unique_ptr<TailRun> tail_;
  std::shared_ptr<const TailRun> reference_;
  bool joined_ = false;
  Micros next_checkpoint_ = kNever;
  std::size_t last_quiet_ = kNoSecond;
  std::uint32_t interval_peak_ = 0;
  bool interval_full_ = false;
  std::uint32_t pool_limit_;
  bool health_checks_;
  RetryModes retry_modes_;
  Micros fifo_timeout_;  // the calls-in-flight FIFO holds timeouts of this length only
  bool cache_first_;
  bool call_threads_;
  bool holds_calls_;  // the breaker may hold calls until it decides (cockatiel's half-open)
  bool connects_;     // the breaker wants to know when a call got through (Envoy)
  bool resources_ = false;
  ResourceLevels levels_;
  RunFacts facts_;
  LeadInTimes lead_in_times_;
  Result result_;
  std::vector<HeldCall> held_;
  std::vector<std::uint32_t> free_held_;
  const std::function<bool(const ReplayProgress&)>* progress_;
  std::uint64_t until_progress_;
  std::uint64_t progress_events_ = 0;
  std::uint64_t progress_every_ = kProgressEveryEvents;
  CallTrace* trace_ = nullptr;
  // One more than the failed checkouts the caller allows; the failure that uses it up ends the
  // replay (never, for 2^64).
  std::uint64_t failures_allowed_ = ~std::uint64_t{0};
  bool may_give_up_ = false;                  // a count of failures allowed was set
  ReportParts parts_ = ReportParts::whole();  // what the report is built from
  bool calls_per_second_ = true;
  // Timed changes: the next to apply, requests' retry modes over time, and the breaker's
  // spells (which calls it sees, when it was off, what its earlier spells reported).
  std::size_t next_change_ = 0;
  Micros next_change_at_ = kNever;
  Micros breaker_since_ = std::numeric_limits<Micros>::min();
  Micros breaker_off_since_ = kNever;
  std::vector<std::pair<Micros, Micros>> breaker_off_;
  std::vector<BreakerTransition> earlier_transitions_;
  std::vector<ProbeResult> earlier_probes_;
  // A request log's keys, per recorded arrival (the window's first at first_arrival_).
  const std::vector<std::uint32_t>& recorded_keys_ = incident_.traffic.recorded_keys;
  std::size_t first_arrival_ = firstWindowArrival(incident_);
};

Result simulate(const Incident& incident, const Config& config) {
  return Simulation(incident, config, nullptr, incident.changes).run(nullptr);
}

Result simulate(const Incident& incident, const Config& config, ReplayCache& cache) {
  return Simulation(incident, config, nullptr, incident.changes).run(&cache);
}

Result simulate(const Incident& incident, const Config& config, CallTrace& trace,
                const std::vector<TimedChange>* changes) {
  Simulation simulation(incident, config, nullptr, changes ? *changes : incident.changes);
  simulation.traceInto(&trace);
  return simulation.run(nullptr);
}

Result simulate(const Incident& incident, const Config& config, const SimulateOptions& options) {
  const auto* progress = options.progress ? &options.progress : nullptr;
  Simulation simulation(incident, config, progress,
                        options.changes ? *options.changes : incident.changes);
  simulation.progressEvery(options.progress_every_events);
  simulation.giveUpAfterFailedCheckouts(options.give_up_after_failed_checkouts);
  simulation.reportOnly(options.report);
  return simulation.run(options.cache);
}

const Lane* Result::lane(std::string_view name) const {
  for (const Lane* l : {&breaker, &dependency, &health, &checkout, &pods})
    if (l->name == name) return l;
  return nullptr;
}

}  // namespace breakerlab
