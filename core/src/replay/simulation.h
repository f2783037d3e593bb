#pragma once
// One replay: the class that runs it, declared once. Its work is in files by concern, all in
// core/src/replay/:
//   simulation_stages.cpp  set-up and the stages (lead-in, window, tail, report), in order;
//   request_life.cpp       a request from arrival to its answer: breaker, attempts, retries,
//                          fallback;
//   client_pods.cpp        the client's pods as the replay drives them: ClientPods
//                          (parts/client_pods.h) owns their state and transitions, this file
//                          records what they did and goes on with the request;
//   timed_changes.cpp      the operators' changes made as their times come;
//   run_reuse.cpp          standing in for runs under other worker limits, and joining tails.
// The event loop (dispatch) and the hot path of a call (beginRequest, startAttempt, send) stay
// here, inline: dispatch alone orders events due at the same time, and the files above are
// compiled as one unit (core/CMakeLists.txt, UNITY_GROUP) so that the compiler inlines across
// them as it did when they were one file.
#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <vector>

#include "breakerlab/core/breakers/breaker_model.h"
#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/core/replay/simulate.h"
#include "dependency/dependency_model.h"
#include "dependency/health_timeline.h"
#include "dependency/random.h"
#include "dependency/traffic_model.h"
#include "outcome/run_facts.h"
#include "replay/parts/breaker_fleet.h"
#include "replay/parts/client_pods.h"
#include "replay/parts/client_state.h"
#include "replay/parts/held_call.h"
#include "replay/parts/in_flight.h"
#include "replay/parts/price_cache.h"
#include "replay/parts/retry_loop.h"
#include "replay/recorder.h"
#include "replay/replay_cache.h"
#include "replay/run_shape.h"

namespace breakerlab {

class Simulation {
 public:
  Simulation(const Incident& incident, const Config& config,
             const std::function<bool(const ReplayProgress&)>* progress,
             const std::vector<TimedChange>& changes);

  // How many of a stateful part the run keeps: one per pod the fleet ever has, or one.
  std::uint32_t instances(StateScope scope) const {
    return scope == StateScope::per_pod ? shape_.max_pods : 1;
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
      trace_->rejections.clear();
    }
  }

  // The stages of a replay, in order: the lead-in (or its snapshot), the window's arrivals, the
  // tail in which requests still under way at the end run to completion, and the collection of
  // the report.
  Result run(ReplayCache* cache);

 private:
  // Replays the lead-in, or restores it from the cache's snapshot when that serves this config;
  // returns the lead-in's requests.
  std::uint64_t leadIn(ReplayCache* cache);

  // Every checkout of the window arrives, with the timed changes made as their times come and
  // everything due by the window's end run; returns the checkouts.
  std::uint64_t window(ReplayCache* cache);

  // The window's arrivals as the cache keeps them (drawn now if it has none for this incident),
  // or nullptr: no cache, or traffic that is read rather than drawn.
  const WindowArrivals* drawnArrivals(ReplayCache* cache);

  // The report: lanes, metrics and events from what the run recorded.
  Result collect(ReplayCache* cache);

  // Whether runs under other worker limits may stand for one another: a limit (0 is none, another
  // mode), no timed changes (the run's decisions are compared only for the config's own), every
  // failure allowed (a run that would stop early returns no report to reuse), nothing traced.
  bool workerLimitRunsShared() const;

  const WorkerLimitRun* sameRunUnderWorkerLimit(const ReplayCache* cache) const;

  // Keeps this run for the worker limits its comparisons allow besides its own.
  void keepForOtherWorkerLimits(ReplayCache* cache);

  // Lanes, metrics and events from the facts and records.
  Result report();

  // The window's seconds, the last one partial.
  std::size_t windowSeconds() const;

  std::size_t expectedArrivals() const;

  // --- Joining another run's tail (TailRun) ---------------------------------------------

  // Whether this run may join a TailRun or keep its own for others (see TailRun for why these).
  // Of the report, only the parts built from the records alone: a joined run has no levels or
  // series over time of its own, and a part added later is left out until it is listed here.
  bool tailsShared() const;

  // Sets up the checkpoints of a run that shares its tail: the reference it may join, and its
  // own for the runs after it.
  void beginTail(ReplayCache* cache);

  // Stops at each second of the window up to t, before the arrival at t: notes the run's state
  // where it is quiet, and joins the reference run where it may. Returns whether it joined.
  [[gnu::noinline]] bool checkpointsThrough(Micros t, std::uint32_t arrived);

  // No request under way (none holds a worker, so none waits for one either), every pod in
  // rotation, the dependency idle. The pods' counts of passed and failed checks may differ
  // between two quiet runs: a run joins only where no check fails in the rest of the other
  // (TailRun::Checkpoint::joinable), so every pod's next check resets them alike.
  bool quietAt(Micros t) const;

  // The comparisons with the worker limit since the last quiet second belong to its stretch;
  // a new one begins at `second` (kNoSecond: the run is over).
  void closeInterval(std::size_t second);

  // Joins `reference` at `second`, where both runs are quiet, when they go on alike from there
  // (see TailRun): this run's records and counters so far, the reference's from there on.
  bool join(const TailRun& reference, const TailRun::Checkpoint& mine, std::size_t second);

  // Keeps this run, when it ran to its end, for the runs after it to join: each quiet second with
  // what the run did from there to the end.
  void keepTail(ReplayCache* cache);

  // --- Resource levels over the window ---------------------------------------------------

  void beginTracking();

  void finishTracking() { levels_.collect(result_.per_second, facts_, shape_.max_pods); }

  // --- The event loop ------------------------------------------------------------------

  // Counts one event; every progress_every_ of them the progress hook hears how far the
  // run is and may cancel it. A decrement and a branch that is never taken in between.
  void tick(Micros now) {
    if (--until_progress_ != 0) [[likely]]
      return;
    reportProgress(now);
  }

  [[gnu::noinline]] void reportProgress(Micros now);

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
      t = earliest(t, pods_.nextGiveUp(), pods_.nextCheckAt(), pods_.nextThreadRelease());
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
      const Micros give_up = kResources ? pods_.nextGiveUp() : kNever;
      const Micros thread = kResources ? pods_.nextThreadRelease() : kNever;
      const Micros check = kResources && !kTail ? pods_.nextCheckAt() : kNever;
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
        if (breakers_.skipIdleTimers(
                earliest(until, completion - 1, thread - 1, retry, give_up, check)))
          continue;
        breakers_.fireTimer();
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

  Micros breakerTimer() const { return config_.breaker.enabled ? breakers_.nextTimer() : kNever; }

  // Whether a request that arrived at `request_start` runs its retries in the background: the
  // mode in force when it arrived.
  bool backgroundFor(Micros request_start) const {
    return retry_modes_.backgroundFor(request_start);
  }

  // Everything due before each change runs first; a change applies before anything else due
  // at its time.
  [[gnu::noinline]] void applyChangesThrough(Micros t);

  void applyTimedChange(const TimedChange& change);

  void scalePods(Micros t, const Config& before);

  void switchBreaker(Micros t);

  // The changes as events, and the breaker lane "disabled" where a change had switched it off.
  void reportChanges();

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

  void arrive(Micros t, Stream stream, std::uint64_t request, std::uint32_t record);

  // An arrival whose key is known (a pure function of the request: drawing it first changes
  // nothing).
  void arriveWithKey(Micros t, std::uint64_t request, std::uint32_t record, std::uint32_t key);

  // The load balancer picks a pod in rotation, round robin; the pod gives a worker or queues.
  [[gnu::noinline]] void arriveAtPod(Micros t, std::uint32_t key, std::uint32_t record,
                                     std::uint32_t request);

  // A request with its worker. Returns whether it still holds the worker (false: it was
  // answered at once).
  [[gnu::always_inline]] bool beginRequest(Micros t, Micros arrival, std::uint16_t pod,
                                           std::uint32_t key, std::uint32_t record,
                                           std::uint32_t request) {
    const bool counted = record != kLeadInRecord;
    if (cache_first_) {
      const PriceCache& prices = cacheOf(pod);
      const Micros fetched = prices.fetchedAt(key);
      if (const auto age = prices.servableAge(key, t, config_.cache.ttl)) {
        if (counted) {
          facts_.oldest_cached_age = std::max(facts_.oldest_cached_age, *age);
          finish(record, CheckoutOutcome::cached, FailReason::none, t - arrival);
        }
        // One refresh per key in flight, and at most one per refresh_after: a failing
        // dependency is not asked again on every checkout.
        const std::uint32_t slot = cacheSlot(pod, key);
        const Micros last = client_.refreshed_at[slot];
        const Micros every = config_.pricing.refresh_after;
        if (t - fetched >= every && !client_.refreshing[slot] &&
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
                    std::uint32_t record, std::uint32_t request);

  void startRefresh(Micros t, std::uint16_t pod, std::uint32_t key);

  // --- Calls the breaker holds until it decides (cockatiel's half-open waiters) -----------

  // Asks the breaker; a call it holds is kept under a token until it is released.
  BreakerPermit acquireAt(Micros t, HeldCall::Kind kind, Micros request_start, std::uint32_t key,
                          std::uint32_t record, std::uint32_t request, std::uint8_t attempt,
                          std::uint16_t pod);

  // The breaker decided: every call it released asks again, in the order it was held, and goes
  // on as it would have (or lets go of its worker when it is rejected now).
  void serveReleased(Micros t);

  void serveTokens(Micros t, const std::vector<std::uint32_t>& tokens);

  // A checkout's attempt the breaker rejected, for the request log a traced replay writes.
  [[gnu::cold]] void traceRejection(Micros t, Micros request_start, std::uint32_t key,
                                    std::uint32_t record, std::uint8_t attempt, std::uint16_t pod) {
    trace_->rejections.push_back({t, request_start, record, key, pod, attempt});
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
        if (controls_ && attempt > 0) retries_.releaseRetryPlace(pod);
        if (trace_ != nullptr && isCheckout(record)) [[unlikely]]
          traceRejection(t, request_start, key, record, attempt, pod);
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
          client_.refreshing[cacheSlot(pod, key)] = 0;
        } else if (record != kLeadInRecord) {
          ++facts_.rejected_calls;
          fallBack(record, pod, key, t, requestLatency(record, attempt, t - request_start));
        }
        return false;
      }
    }
    const PendingCall call{t,      request_start,        key,     record, request, 0,
                           permit, CallOutcome::success, attempt, pod};
    if (controls_) [[unlikely]] {
      if (!client_.throttles.empty() && clientThrottles(t, record, request, attempt, pod)) {
        // Refused by the client itself: the attempt fails at once, as the library wrapping the
        // client sees it (its breaker records it, its retry policy may retry it).
        PendingCall refused = call;
        refused.outcome = CallOutcome::refused;
        lead_in_times_.failures = true;
        completeUnderControls(refused, false);
        return true;
      }
      retries_.onAttemptActive(pod);
    }
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

  // What the pods read of the config in force, for ClientPods: built at each call from the
  // config, so that a timed change is seen at once.
  PodLimits podLimits() const {
    return {workers_limit_, config_.workers.queue, pool_limit_, config_.pool.max_wait};
  }

  // A worker of the call's pod to make the call on; without one the attempt fails at once.
  [[gnu::noinline]] bool takeCallThread(const PendingCall& call);

  // The call's worker stays with it until the dependency answers, even after the request gave
  // up on it; a call that never answers frees it at the attempt timeout.
  void holdCallThread(Micros t, std::uint16_t pod, Micros true_latency, Micros duration);

  void releaseCallThread();

  // Takes a connection of the call's pod, or queues the call for one. Returns whether it got one.
  [[gnu::noinline]] bool takeConnection(const PendingCall& call);

  // Sends the call (which holds its connection, if there is a pool) to the dependency at t.
  [[gnu::always_inline]] void send(const PendingCall& c, Micros t) {
    const bool counted =
        isCheckout(c.record) || (c.record == kRefreshRecord && t >= incident_.start);
    if (c.attempt == 0 && c.record != kRefreshRecord) retries_.onRequest(c.pod, t);
    Micros timeout = timeout_.attempt;
    if (timeout_.total > 0)
      timeout = std::max<Micros>(0, std::min(timeout, c.request_start + timeout_.total - t));
    DependencyAnswer answer = dependency_.answer(t, rng_, streamOf(c.record), c.request, c.attempt);
    if (connects_ && config_.breaker.enabled && answer.outcome != CallOutcome::refused &&
        c.start() >= breakers_.bornAt(c.pod))
      breakers_.connected(c.pod, t, c.permit);
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

  [[gnu::noinline]] void queueAtDependency(Micros t, Micros patience, DependencyAnswer& answer);

  void startRetry(const PendingCall& c);

  // A waiter's max wait ran out: the attempt fails with pool_exhausted.
  void giveUp();

  // The call's connection goes to the pod's next waiter, or back to the pool.
  [[gnu::noinline]] void releaseConnection(std::uint16_t pod, Micros t);

  // A connection that is free (a given-back one, or a new one of a grown pool) goes at t to a
  // call that waited for it (ClientPods::nextConnectionWaiter), which is sent.
  void serveWaiter(const PendingCall& waiter, Micros t);

  // The request's worker goes to the pod's next queued checkout, or becomes free.
  [[gnu::noinline]] void releaseWorker(std::uint16_t pod, Micros t);

  [[gnu::noinline]] void healthCheck();

  void setRotation(Micros t, std::uint32_t pod, bool in);

  // The attempt `call` is over: it went to the dependency (or waited for a connection to).
  void complete(const PendingCall& call);
  // complete() with the overload controls' bookkeeping (gRPC's retry throttling, Envoy's retry
  // budget, client throttling) around it: `sent` false for an attempt the client's throttling
  // refused, which held nothing to give back.
  [[gnu::noinline]] void completeUnderControls(const PendingCall& call, bool sent);
  // What every attempt's end does.
  template <bool kSent>
  [[gnu::always_inline]] inline void settle(const PendingCall& call);

  // Whether the pod's adaptive throttling refuses the attempt (counted as made either way).
  [[gnu::noinline]] bool clientThrottles(Micros t, std::uint32_t record, std::uint32_t request,
                                         std::uint8_t attempt, std::uint16_t pod);

  // The request's last attempt is done (or a retry it had scheduled will not be made), after
  // `attempts_made` attempts: the call's own and those before it unless a retry is refused.
  void requestOver(const PendingCall& call, std::uint32_t attempts_made);
  void requestOver(const PendingCall& call) { requestOver(call, call.attempt + 1u); }

  // What the checkout's client waited: the whole loop, or with background retries only the
  // first attempt (already written to the record).
  Micros requestLatency(std::uint32_t record, std::uint8_t attempt, Micros total) const;

  void recordAtBreaker(Micros t, std::uint16_t pod, const BreakerPermit& permit,
                       CallOutcome outcome, Micros duration);

  // --- The fleet's per-pod state (breaker.scope, fallback.cache.scope) -------------------

  // The fallback cache `pod` reads and fills: its own, or the fleet's.
  PriceCache& cacheOf(std::uint16_t pod) { return caches_[caches_.size() == 1 ? 0 : pod]; }
  // A key's refresh bookkeeping (ClientState::refreshing, refreshed_at) in `pod`'s cache.
  std::uint32_t cacheSlot(std::uint16_t pod, std::uint32_t key) const {
    return caches_.size() == 1 ? key : pod * keys_.count() + key;
  }
  // The pod's breaker, cache and retry accounts start afresh (a pod added by a scale-out).
  void renewPod(Micros t, std::uint16_t pod);
  // The breaker of `index` is replaced or the run ends: what it did goes to the report.
  void retireBreaker(std::uint32_t index, const Breaker& breaker);

  // Schedules the next attempt of a failed call when the retry policy allows it.
  [[gnu::noinline]] bool retryAfter(const PendingCall& call, bool rejected = false);

  void fallBack(std::uint32_t record, std::uint16_t pod, std::uint32_t key, Micros now,
                Micros waited);

  void finish(std::uint32_t record, CheckoutOutcome outcome, FailReason reason, Micros latency);

  const Incident& incident_;
  const Config& deployed_;  // the config the replay starts with
  Config config_;           // the config in force: the deployed one with the changes made so far
  // The dependency's factors in force (the changes' dependency keys), held by dependency_ (its
  // latency) and client_.servers (its ceiling).
  DependencyScales dependency_scales_;
  std::vector<TimedChange> changes_;  // enabled, in time order
  RunShape shape_;
  CounterRng rng_;
  HealthTimeline health_;
  BreakerFleet breakers_;
  TimeoutConfig timeout_;  // the config's, or shorter where the breaker times calls (opossum)
  DependencyModel dependency_;
  KeySampler keys_;
  std::vector<PriceCache> caches_;  // one per pod, or one for the fleet
  InFlight in_flight_;
  RetryLoop retries_;
  ClientState client_;
  ClientPods pods_;
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
  // Whether an overload control that keeps accounts of attempts is on (retry.throttling,
  // retry.concurrency_budget, client_throttling): none is a timed-change key.
  bool controls_;
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
  Micros breaker_off_since_ = kNever;
  std::vector<std::pair<Micros, Micros>> breaker_off_;
  std::vector<BreakerTransition> earlier_transitions_;
  std::vector<ProbeResult> earlier_probes_;
  // Per-pod breakers: each pod's transitions, of its breakers replaced so far too; when each pod
  // came into service (kNever: out of it), and its spells in service that have ended.
  std::vector<std::vector<BreakerTransition>> pod_transitions_;
  std::vector<Micros> in_service_since_;
  std::vector<FleetBreakers::Span> pod_spans_;
  // A request log's keys, per recorded arrival (the window's first at first_arrival_).
  const std::vector<std::uint32_t>& recorded_keys_ = incident_.traffic.recorded_keys;
  std::size_t first_arrival_ = firstWindowArrival(incident_);
};

}  // namespace breakerlab
