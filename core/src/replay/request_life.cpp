// A request's life: arrival, the breaker outside and inside the retry loop, each attempt, its
// retries, and the answer (fresh, cached or failed).
#include <algorithm>

#include "replay/simulation.h"

namespace breakerlab {

void Simulation::arrive(Micros t, Stream stream, std::uint64_t request, std::uint32_t record) {
  const bool counted = record != kLeadInRecord;
  const std::uint32_t key = counted && !recorded_keys_.empty()
                                ? recorded_keys_[first_arrival_ + request]
                                : keys_.sample(rng_.uniform(stream, request, 0, Purpose::key));
  arriveWithKey(t, request, record, key);
}

// An arrival whose key is known (a pure function of the request: drawing it first changes
// nothing).
void Simulation::arriveWithKey(Micros t, std::uint64_t request, std::uint32_t record,
                               std::uint32_t key) {
  tick(t);
  if (t >= next_change_at_) [[unlikely]]
    applyChangesThrough(t);
  // With client resources most arrivals find something due, and the loop's first look at the
  // next event is the same look: no separate one first.
  if (resources_ || t >= nextEventAt()) drain(t);
  const bool counted = record != kLeadInRecord;
  if (trace_ != nullptr && counted) [[unlikely]] {
    trace_->keys.push_back(key);
    trace_->pods.push_back(static_cast<std::uint16_t>(resources_ ? pods_.roundRobinAt() : 0));
  }
  // The state a checkout met: the fleet's one breaker; per pod, the one of the pod it is routed
  // to (set there).
  if (counted && config_.breaker.enabled && breakers_.single())
    result_.checkouts[record].breaker_closed = breakers_.first().state() == BreakerState::closed;
  const auto id = static_cast<std::uint32_t>(request);
  if (!resources_) {
    beginRequest(t, t, 0, key, record, id);
    return;
  }
  arriveAtPod(t, key, record, id);
}

// The outside breaker, then the first attempt. Returns whether the request still holds its
// worker (it is under way, or held by the breaker until it decides).
bool Simulation::admitOutside(Micros t, Micros arrival, std::uint16_t pod, std::uint32_t key,
                              std::uint32_t record, std::uint32_t request) {
  BreakerPermit permit = CircuitBreaker::admitted(0);
  if (breakerOutside()) {
    permit = acquireAt(t, HeldCall::Kind::request, arrival, key, record, request, 0, pod);
    if (permit.waiting) return true;
    if (!permit.permitted) {
      lead_in_times_.failures = true;
      if (trace_ != nullptr && record != kLeadInRecord) [[unlikely]]
        traceRejection(t, arrival, key, record, 0, pod);
      if (record != kLeadInRecord) {
        ++facts_.rejected_calls;
        fallBack(record, pod, key, t, t - arrival);
      }
      return false;
    }
  }
  return startAttempt(t, arrival, key, record, request, permit, 0, pod);
}

void Simulation::startRefresh(Micros t, std::uint16_t pod, std::uint32_t key) {
  BreakerPermit permit = CircuitBreaker::admitted(0);
  if (breakerOutside()) {
    permit = acquireAt(t, HeldCall::Kind::refresh, t, key, kRefreshRecord, 0, 0, pod);
    if (!permit.permitted) return;  // rejected, or held until the breaker decides
  }
  const std::uint32_t slot = cacheSlot(pod, key);
  client_.refreshing[slot] = 1;
  client_.refreshed_at[slot] = t;
  if (!startAttempt(t, t, key, kRefreshRecord, client_.refreshes++, permit, 0, pod))
    client_.refreshing[slot] = 0;
}

// Asks the breaker; a call it holds is kept under a token until it is released.
BreakerPermit Simulation::acquireAt(Micros t, HeldCall::Kind kind, Micros request_start,
                                    std::uint32_t key, std::uint32_t record, std::uint32_t request,
                                    std::uint8_t attempt, std::uint16_t pod) {
  if (!holds_calls_) return breakers_.acquire(pod, t);
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
  const BreakerPermit permit = breakers_.acquire(pod, t, token);
  if (!permit.waiting) free_held_.push_back(token);
  return permit;
}

// The breaker decided: every call it released asks again, in the order it was held, and goes
// on as it would have (or lets go of its worker when it is rejected now).
void Simulation::serveReleased(Micros t) {
  // A released call that asks again may release others (its result decides the half-open
  // state); they are served after it, until no breaker holds anything it has answered.
  breakers_.serveReleased(
      [&](const std::vector<std::uint32_t>& tokens) { serveTokens(t, tokens); });
}

void Simulation::serveTokens(Micros t, const std::vector<std::uint32_t>& tokens) {
  for (const std::uint32_t token : tokens) {
    const HeldCall h = held_[token];
    free_held_.push_back(token);
    switch (h.kind) {
      case HeldCall::Kind::request:
        if (!admitOutside(t, h.request_start, h.pod, h.key, h.record, h.request))
          releaseWorker(h.pod, t);
        break;
      case HeldCall::Kind::refresh:
        if (!client_.refreshing[cacheSlot(h.pod, h.key)]) startRefresh(t, h.pod, h.key);
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

void Simulation::queueAtDependency(Micros t, Micros patience, DependencyAnswer& answer) {
  const auto admission = client_.servers.admit(t, answer.latency, patience);
  if (admission.queue_full) {
    answer = {CallOutcome::server_error, incident_.dependency.capacity.queue_timeout};
  } else if (answer.latency != kNever) {
    answer.latency += admission.wait;
  }
}

void Simulation::startRetry(const PendingCall& c) {
  levels_.pending.set(c.at, static_cast<std::uint32_t>(retries_.waiting()));
  if (c.attempt >= config_.retry.max_attempts) [[unlikely]] {
    // A change lowered the limit after this retry was scheduled: the request ends with the
    // failure it was retrying.
    retries_.releaseRetryPlace(c.pod);
    requestOver(c);
    return;
  }
  if (controls_ && !retries_.throttleAllowsRetry(c.pod)) [[unlikely]] {
    retries_.releaseRetryPlace(c.pod);
    // gRPC's retry throttling refuses the retry when its backoff ends: the request ends then,
    // with the failure it was retrying, after the attempts it made.
    facts_.retries_refused += c.record != kLeadInRecord ? 1 : 0;
    requestOver(c, c.attempt);
    return;
  }
  const bool holds_worker = !backgroundFor(c.request_start);
  if (!startAttempt(c.at, c.request_start, c.key, c.record, c.request, c.permit, c.attempt,
                    c.pod) &&
      holds_worker)
    releaseWorker(c.pod, c.at);
}

bool Simulation::clientThrottles(Micros t, std::uint32_t record, std::uint32_t request,
                                 std::uint8_t attempt, std::uint16_t pod) {
  AdaptiveThrottle& throttle = client_.throttles[pod];
  const double p = throttle.rejectProbability(t);
  throttle.onRequest(t);
  if (p <= 0 || rng_.uniform(streamOf(record), request, attempt, Purpose::throttle) >= p)
    return false;
  facts_.client_throttled += isCheckout(record) ? 1 : 0;
  return true;
}

void Simulation::complete(const PendingCall& call) {
  if (controls_) [[unlikely]] {
    completeUnderControls(call, true);
    return;
  }
  settle<true>(call);
}

void Simulation::completeUnderControls(const PendingCall& call, bool sent) {
  // Envoy's retry budget: a retry's place is given back before the request's next decision
  // (RetryStateImpl::resetRetry), while the attempt itself counts as under way through that
  // decision (shouldRetryHeaders runs while its stream is open) and stops after it.
  if (call.attempt > 0) retries_.releaseRetryPlace(call.pod);
  if (sent && call.outcome != CallOutcome::pool_exhausted) {
    // gRPC's retry throttling counts the answer; client throttling counts an accept.
    retries_.onAttemptAnswered(call.pod, call.outcome, config_.retry);
    if (!client_.throttles.empty() &&
        (call.outcome == CallOutcome::success || call.outcome == CallOutcome::client_error))
      client_.throttles[call.pod].onAccept(call.at);
  }
  if (sent) {
    settle<true>(call);
    retries_.onAttemptDone(call.pod);
  } else {
    settle<false>(call);
  }
}

template <bool kSent>
void Simulation::settle(const PendingCall& call) {
  if (trace_ != nullptr && isCheckout(call.record)) [[unlikely]]
    trace_->calls.push_back({call.at - call.duration, call.duration, call.request_start,
                             call.record, call.key, call.pod, call.attempt, call.outcome});
  const bool answered = kSent && call.outcome != CallOutcome::pool_exhausted;
  if (answered) {
    if (resources_) {
      levels_.load.set(call.at, --client_.calls_in_flight);
      if (shape_.pool_tracked) releaseConnection(call.pod, call.at);
    }
  }
  if (breakerInside() && call.start() >= breakers_.bornAt(call.pod))
    recordAtBreaker(call.at, call.pod, call.permit, call.outcome, call.duration);
  if (call.outcome == CallOutcome::success) {
    cacheOf(call.pod).store(call.key, call.at);
    if (call.attempt == 0) retries_.onFirstAttemptSuccess(call.pod);
  }
  if (call.record == kRefreshRecord) {
    client_.refreshing[cacheSlot(call.pod, call.key)] = 0;
    if (breakerOutside() && call.request_start >= breakers_.bornAt(call.pod))
      recordAtBreaker(call.at, call.pod, call.permit, call.outcome, call.at - call.request_start);
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
void Simulation::requestOver(const PendingCall& call, std::uint32_t attempts_made) {
  // The outside breaker sees it once, for the whole loop.
  const Micros total = call.at - call.request_start;
  if (breakerOutside() && call.request_start >= breakers_.bornAt(call.pod))
    recordAtBreaker(call.at, call.pod, call.permit, call.outcome, total);
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
        fallBack(call.record, call.pod, call.key, call.at, latency);
    }
    if (result_.checkouts[call.record].outcome == CheckoutOutcome::failed) {
      facts_.failed_checkout_attempts += attempts_made;
      ++facts_.failed_checkouts_with_attempts;
    }
  }
  if (call.attempt == 0 || !backgroundFor(call.request_start)) releaseWorker(call.pod, call.at);
}

// What the checkout's client waited: the whole loop, or with background retries only the
// first attempt (already written to the record).
Micros Simulation::requestLatency(std::uint32_t record, std::uint8_t attempt, Micros total) const {
  if (attempt > 0 && isCheckout(record) && backgroundFor(result_.checkouts[record].arrival))
    return result_.checkouts[record].latency_us;
  return total;
}

void Simulation::recordAtBreaker(Micros t, std::uint16_t pod, const BreakerPermit& permit,
                                 CallOutcome outcome, Micros duration) {
  breakers_.record(pod, t, permit, outcome, duration);
  const Breaker& breaker = breakers_.of(pod);
  if (!facts_.first_trip && t >= incident_.start && t <= incident_.end &&
      breaker.state() == BreakerState::open) {
    const BreakerTransition& last = breaker.transitions().back();
    if (last.at == t && last.from == BreakerState::closed) facts_.first_trip = t;
  }
}

// Schedules the next attempt of a failed call when the retry policy allows it.
bool Simulation::retryAfter(const PendingCall& call, bool rejected) {
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

void Simulation::fallBack(std::uint32_t record, std::uint16_t pod, std::uint32_t key, Micros now,
                          Micros waited) {
  const auto age =
      config_.cache.enabled ? cacheOf(pod).servableAge(key, now, config_.cache.ttl) : std::nullopt;
  if (age) {
    facts_.oldest_cached_age = std::max(facts_.oldest_cached_age, *age);
    finish(record, CheckoutOutcome::cached, FailReason::none, waited);
  } else {
    finish(record, CheckoutOutcome::failed, FailReason::cache_miss, waited);
  }
}

void Simulation::finish(std::uint32_t record, CheckoutOutcome outcome, FailReason reason,
                        Micros latency) {
  CheckoutRecord& r = result_.checkouts[record];
  const bool newly_failed = outcome == CheckoutOutcome::failed && r.outcome != outcome;
  r.outcome = outcome;
  r.reason = reason;
  r.latency_us = static_cast<std::int32_t>(std::min<Micros>(latency, INT32_MAX));
  if (newly_failed && --failures_allowed_ == 0) [[unlikely]]
    throw ReplayGaveUp(r.arrival);
}

}  // namespace breakerlab
