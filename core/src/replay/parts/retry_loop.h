#pragma once
// The retry loop: the attempts of failed calls waiting out their backoff, the budget that may
// refuse a retry, and which requests retry in the background. Its handlers decide what the
// policy allows; the event loop starts what they schedule.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/timed_change.h"
#include "replay/parts/in_flight.h"
#include "replay/parts/retry_governor.h"
#include "replay/parts/retry_queue.h"

namespace breakerlab {

// Which requests run their retries in the background: the mode in force when each arrived
// (the deployed one, then each timed change of `retry.mode`). Derived from the run's config and
// changes, so never part of a lead-in snapshot.
class RetryModes {
 public:
  // `changes` enabled and in time order.
  RetryModes(const Config& deployed, const std::vector<TimedChange>& changes)
      : background_(deployed.retry.mode == RetryMode::background) {
    for (const TimedChange& c : changes)
      for (const ConfigEdit& e : c.edits)
        if (e.key == TimedKey::retry_mode) changes_.push_back({c.at, e.value != 0});
  }

  // Whether any request may retry in the background (whose record a later attempt rewrites).
  bool anyBackground() const {
    if (background_) return true;
    for (const auto& change : changes_)
      if (change.second) return true;
    return false;
  }

  bool backgroundFor(Micros request_start) const {
    if (changes_.empty()) [[likely]]
      return background_;
    bool background = background_;
    for (const auto& [at, mode] : changes_) {
      if (at > request_start) break;
      background = mode;
    }
    return background;
  }

 private:
  bool background_;
  std::vector<std::pair<Micros, bool>> changes_;  // from `at` on: background or not
};

// The retry loop's state (a lead-in snapshot keeps it): the attempts waiting for their backoff to
// end, and the accounts of the retry budget, the token bucket and gRPC's retry throttling: one per
// pod, or one for the fleet (`retry.budget.scope`).
class RetryLoop {
 public:
  RetryLoop(const RetryConfig& deployed, std::uint32_t pods)
      : governors_(
            deployed.budget.scope == StateScope::per_pod ? std::max<std::uint32_t>(pods, 1) : 1,
            RetryGovernor(deployed)),
        governed_(deployed.budget.ratio > 0 || deployed.token_bucket.capacity > 0),
        throttled_(deployed.throttling.max_tokens > 0),
        concurrency_(deployed.concurrency_budget.budget_percent > 0) {}

  enum class Verdict : std::uint8_t { not_retried, scheduled, refused_by_budget };

  // A request's first attempt goes out from `pod`; one was answered with success (the bucket's
  // refund).
  void onRequest(std::uint16_t pod, Micros t) {
    if (governed_) governorOf(pod).onRequest(t);
  }
  void onFirstAttemptSuccess(std::uint16_t pod) {
    if (governed_) governorOf(pod).onFirstAttemptSuccess();
  }

  // Every attempt that reached an answer (the calls of cache refreshes too: they share the
  // client): gRPC's retry throttling counts its successes and its retryable failures. Failures
  // count only under a retry policy (grpc-js's `RETRY` state), that is with max_attempts > 1.
  void onAttemptAnswered(std::uint16_t pod, CallOutcome outcome, const RetryConfig& r) {
    if (!throttled_) [[likely]]
      return;
    if (outcome == CallOutcome::success)
      governorOf(pod).onAttemptSucceeded();
    else if (r.max_attempts > 1 && r.retry_on.contains(outcome))
      governorOf(pod).onAttemptFailedRetryably();
  }
  // Whether a retry whose backoff has just ended may start (gRPC's throttling decides then, not
  // when the failure came).
  bool throttleAllowsRetry(std::uint16_t pod) {
    return !throttled_ || governorOf(pod).throttleAllowsRetry();
  }

  // Envoy's retry budget counts the attempts under way (those waiting for a connection too) and
  // the retries holding a place: a retry holds one from its scheduling to its own answer, or to
  // the end of its request if it never starts.
  void onAttemptActive(std::uint16_t pod) {
    if (concurrency_) [[unlikely]]
      governorOf(pod).onAttemptActive();
  }
  void onAttemptDone(std::uint16_t pod) {
    if (concurrency_) [[unlikely]]
      governorOf(pod).onAttemptDone();
  }
  void releaseRetryPlace(std::uint16_t pod) {
    if (concurrency_) [[unlikely]]
      governorOf(pod).releaseRetryPlace();
  }

  // A pod added by a scale-out starts with empty accounts (and a full bucket).
  // Its attempts and retries still under way (a pod taken out and added back) stay counted: their
  // answers will take them off.
  void resetPod(std::uint16_t pod, const RetryConfig& r) {
    if (governors_.size() > 1) governors_[pod] = RetryGovernor(r).keepingUnderWay(governors_[pod]);
  }

  // The attempt `call` failed (or, `rejected`, the breaker refused it): when the policy `r`
  // allows another within the deadline of `timeout`, it waits on the queue for its backoff.
  // `uniform(n)` draws the n-th retry's jitter.
  template <class Uniform>
  Verdict retryAfter(const PendingCall& call, bool rejected, const RetryConfig& r,
                     const TimeoutConfig& timeout, Uniform&& uniform) {
    const std::uint32_t next = call.attempt + 1u;
    if (next >= r.max_attempts || (!rejected && !r.retry_on.contains(call.outcome)))
      return Verdict::not_retried;
    // No backoff and no jitter: retryDelay's 0 (rounded from 0.0), without its switches.
    const bool immediate = r.backoff == BackoffKind::none && r.jitter == Jitter::none;
    const Micros at = call.at + (immediate ? 0 : retryDelay(r, next, uniform));
    if (timeout.total > 0 && at >= call.request_start + timeout.total) return Verdict::not_retried;
    if (governed_ && !governorOf(call.pod).allowRetry(call.at)) return Verdict::refused_by_budget;
    if (concurrency_) {
      if (!governorOf(call.pod).concurrencyAllowsRetry()) return Verdict::refused_by_budget;
      governorOf(call.pod).takeRetryPlace();
    }
    PendingCall retry = call;
    retry.at = at;
    retry.attempt = static_cast<std::uint8_t>(next);
    queue_.push(retry);
    return Verdict::scheduled;
  }

  bool empty() const { return queue_.empty(); }
  Micros nextAt() const { return queue_.nextAt(); }
  PendingCall pop() { return queue_.pop(); }
  std::size_t waiting() const { return queue_.size(); }

 private:
  RetryGovernor& governorOf(std::uint16_t pod) {
    return governors_[governors_.size() == 1 ? 0 : pod];
  }

  RetryQueue queue_;
  std::vector<RetryGovernor> governors_;
  // Whether the deployed policy has a budget or a bucket at all: without one every retry is
  // allowed and no account needs keeping, so the hot path skips the governors. The budget and
  // bucket are not timed-change keys, so the deployed policy's answer holds for the whole run.
  bool governed_;
  // Whether gRPC's retry throttling is on (not a timed-change key either).
  bool throttled_;
  // Whether Envoy's retry budget is on (nor this).
  bool concurrency_;
};

}  // namespace breakerlab
