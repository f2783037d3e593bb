#pragma once
// Whether a retry may go out: the retry budget, the token bucket and gRPC's retry throttling,
// per client.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

class RetryGovernor {
 public:
  explicit RetryGovernor(const RetryConfig& config)
      : budget_(config.budget),
        bucket_(config.token_bucket),
        tokens_(config.token_bucket.capacity),
        throttling_(config.throttling),
        throttle_tokens_(config.throttling.max_tokens),
        concurrency_(config.concurrency_budget),
        seconds_(static_cast<std::size_t>(std::max<Micros>(config.budget.window / kSecond, 1))) {}

  // A request's first attempt.
  void onRequest(Micros t) {
    if (budget_.ratio > 0) advance(t)->requests += 1;
  }
  // A request answered by its first attempt (the token bucket's refund).
  void onFirstAttemptSuccess() {
    if (bucket_.capacity > 0) tokens_ = std::min(bucket_.capacity, tokens_ + bucket_.refund);
  }
  // gRPC retry throttling, as grpc-js's RetryThrottler (src/retrying-call.ts): an attempt
  // answered OK adds token_ratio, up to max_tokens (`addCallSucceeded`, called from
  // `handleChildStatus` for every attempt); one that failed with a retryable status takes 1, down
  // to 0 (`addCallFailed`, from `handleProcessedStatus` before it asks for a retry, so also after
  // the last attempt). A retry starts, when its backoff has passed, only while more than half the
  // tokens are left (`canRetryCall`, in `maybeRetryCall`'s timer).
  void onAttemptSucceeded() {
    throttle_tokens_ = std::min(throttle_tokens_ + throttling_.token_ratio, throttling_.max_tokens);
  }
  void onAttemptFailedRetryably() { throttle_tokens_ = std::max(throttle_tokens_ - 1, 0.0); }
  bool throttleAllowsRetry() const { return throttle_tokens_ > throttling_.max_tokens / 2; }
  double throttleTokens() const { return throttle_tokens_; }

  // Envoy's retry budget, as RetryBudgetImpl (source/common/upstream/resource_manager_impl.h):
  // `max()` is max(budget_percent / 100.0 × (active + pending requests), min_retry_concurrency),
  // the product cast to an integer as std::max<uint64_t> does; `canCreate()` is retries under way
  // < max(). An attempt is active from when it asks for a connection to its answer.
  void onAttemptActive() { ++active_requests_; }
  void onAttemptDone() { --active_requests_; }
  bool concurrencyAllowsRetry() const {
    const auto max =
        std::max<std::uint64_t>(static_cast<std::uint64_t>(concurrency_.budget_percent / 100.0 *
                                                           static_cast<double>(active_requests_)),
                                concurrency_.min_retry_concurrency);
    return active_retries_ < max;
  }
  // RetryStateImpl::shouldRetry takes a place (retries().inc()) for an allowed retry; resetRetry
  // gives it back at the request's next decision or end.
  void takeRetryPlace() { ++active_retries_; }
  void releaseRetryPlace() { --active_retries_; }
  std::uint64_t activeRetries() const { return active_retries_; }
  // This governor with `old`'s attempts and retries under way.
  RetryGovernor keepingUnderWay(const RetryGovernor& old) && {
    active_requests_ = old.active_requests_;
    active_retries_ = old.active_retries_;
    return std::move(*this);
  }
  std::uint64_t activeRequests() const { return active_requests_; }

  // Asks for a retry at time t; an allowed retry is charged.
  bool allowRetry(Micros t) {
    if (bucket_.capacity > 0 && tokens_ < bucket_.cost) return false;
    if (budget_.ratio > 0) {
      Bucket* now = advance(t);
      double requests = 0, retries = 0;
      for (const Bucket& b : buckets_) {
        requests += b.requests;
        retries += b.retries;
      }
      const double allowed =
          std::max(budget_.ratio * requests, budget_.min_per_second * toSeconds(budget_.window));
      if (retries + 1 > allowed) return false;
      now->retries += 1;
    }
    if (bucket_.capacity > 0) tokens_ -= bucket_.cost;
    return true;
  }

 private:
  struct Bucket {
    std::int64_t second = -1;
    double requests = 0;
    double retries = 0;
  };
  // The bucket of t's second, clearing the ones that slid out of the window.
  Bucket* advance(Micros t) {
    if (buckets_.empty()) buckets_.assign(seconds_, Bucket{});
    const std::int64_t second = t >= 0 ? t / kSecond : -((-t + kSecond - 1) / kSecond);
    const auto n = static_cast<std::int64_t>(buckets_.size());
    Bucket& b = buckets_[static_cast<std::size_t>(((second % n) + n) % n)];
    if (b.second != second) b = Bucket{second, 0, 0};
    for (Bucket& other : buckets_)
      if (other.second <= second - n) other = Bucket{};
    return &b;
  }

  RetryBudget budget_;
  RetryTokenBucket bucket_;
  double tokens_;
  RetryThrottling throttling_;
  double throttle_tokens_;
  RetryConcurrencyBudget concurrency_;
  std::uint64_t active_requests_ = 0;
  std::uint64_t active_retries_ = 0;
  std::size_t seconds_;
  std::vector<Bucket> buckets_;
};

}  // namespace breakerlab
