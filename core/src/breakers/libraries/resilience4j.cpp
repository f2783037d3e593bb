#include "breakerlab/core/breakers/libraries/resilience4j.h"

#include <algorithm>
#include <limits>

namespace breakerlab {

namespace {
std::int64_t epochSecond(Micros t) {
  return t >= 0 ? t / kSecond : -((-t + kSecond - 1) / kSecond);
}
}  // namespace

Micros Resilience4jSettings::waitInterval(std::uint32_t attempt) const {
  const std::int64_t initial_ms = wait_duration_in_open_state / kMillisecond;  // toMillis()
  if (!enable_exponential_backoff) return initial_ms * kMillisecond;
  // ofExponentialBackoff: LongStream.iterate(initial, n -> (long) (n * multiplier)), so every
  // step is truncated to whole milliseconds; then Math.min with the max when there is one.
  double n = static_cast<double>(initial_ms);
  for (std::uint32_t k = 1; k < attempt; ++k) {
    double next = n * exponential_backoff_multiplier;
    next = next >= 9.2e18 ? 9.2e18 : static_cast<double>(static_cast<std::int64_t>(next));
    if (next == n) break;  // a fixed point (0, the cap, or a multiplier that rounds back)
    n = next;
    if (exponential_max_wait_duration_in_open_state > 0 &&
        n >= static_cast<double>(exponential_max_wait_duration_in_open_state / kMillisecond))
      break;
  }
  std::int64_t ms = static_cast<std::int64_t>(std::min(n, 9.2e15));
  if (exponential_max_wait_duration_in_open_state > 0)
    ms = std::min<std::int64_t>(ms, exponential_max_wait_duration_in_open_state / kMillisecond);
  return ms * kMillisecond;
}

void Resilience4jModel::Window::reset(bool time, std::uint32_t window_size, std::uint32_t min,
                                      Micros now) {
  time_based = time;
  size = std::max<std::uint32_t>(window_size, 1);
  minimum = min;
  calls = failed = slow = 0;
  head = 0;
  if (time_based) {
    // Bucket i starts as epoch second now + i; the head is the construction second.
    buckets.assign(size, Bucket{});
    const std::int64_t s = epochSecond(now);
    for (std::uint32_t i = 0; i < size; ++i) buckets[i].second = s + i;
    ring.clear();
  } else {
    ring.assign(size, 0);
    buckets.clear();
  }
}

void Resilience4jModel::Window::record(Micros now, bool is_failed, bool is_slow) {
  if (time_based) {
    // SlidingTimeWindowMetrics.moveWindowToCurrentEpochSecond
    const std::int64_t current = epochSecond(now);
    const std::int64_t diff = current - buckets[head].second;
    if (diff > 0) {
      std::int64_t k = std::min<std::int64_t>(diff, size);
      do {
        --k;
        head = head + 1 == size ? 0 : head + 1;
        Bucket& b = buckets[head];
        calls -= b.calls;
        failed -= b.failed;
        slow -= b.slow;
        b = Bucket{current - k, 0, 0, 0};
      } while (k > 0);
    }
    Bucket& b = buckets[head];
    ++b.calls;
    b.failed += is_failed ? 1 : 0;
    b.slow += is_slow ? 1 : 0;
  } else {
    // FixedSizeSlidingWindowMetrics: the last `size` recorded outcomes.
    head = head + 1 == size ? 0 : head + 1;
    const std::uint8_t old = ring[head];
    if (old & 4) {
      --calls;
      failed -= old & 1;
      slow -= (old >> 1) & 1;
    }
    ring[head] = static_cast<std::uint8_t>(4 | (is_failed ? 1 : 0) | (is_slow ? 2 : 0));
  }
  ++calls;
  failed += is_failed ? 1 : 0;
  slow += is_slow ? 1 : 0;
}

Resilience4jModel::Resilience4jModel(const Resilience4jSettings& settings, Micros created_at)
    : settings_(settings),
      failure_threshold_(static_cast<float>(settings.failure_rate_threshold)),
      slow_threshold_(static_cast<float>(settings.slow_call_rate_threshold)) {
  toClosed(created_at, BreakerTransition::Cause::probes_succeeded);
}

Resilience4jModel::Verdict Resilience4jModel::check() const {
  // CircuitBreakerMetrics.checkIfThresholdsExceeded, with SnapshotImpl's float rates.
  if (window_.calls == 0 || window_.calls < window_.minimum) return Verdict::below_minimum;
  const float failure_rate =
      static_cast<float>(window_.failed) * 100.0f / static_cast<float>(window_.calls);
  const float slow_rate =
      static_cast<float>(window_.slow) * 100.0f / static_cast<float>(window_.calls);
  if (failure_rate >= failure_threshold_ || slow_rate >= slow_threshold_) return Verdict::exceeded;
  return Verdict::below;
}

BreakerPermit Resilience4jModel::acquire(Micros now, std::uint32_t /*token*/) {
  switch (state_) {
    case BreakerState::closed:
      return permitCall();
    case BreakerState::open:
      if (now <= retry_after_) return rejectCall();  // isAfter(retryAfterWaitDuration) is strict
      toHalfOpen(now, BreakerTransition::Cause::first_call_after_wait);
      [[fallthrough]];
    case BreakerState::half_open:
      if (permits_ == 0) return rejectCall();
      --permits_;
      return permitCall(0, 1);
  }
  return rejectCall();
}

void Resilience4jModel::record(Micros now, const BreakerPermit& /*permit*/, CallOutcome outcome,
                               Micros duration) {
  // Every result goes to the state current when the call completes.
  const auto verdict = settings_.classification.classify(outcome);
  if (verdict == OutcomeClassification::Verdict::ignored) {
    if (state_ == BreakerState::half_open) ++permits_;  // releasePermission(), no upper bound
    return;
  }
  if (state_ == BreakerState::open) return;  // kept metrics, never looked at again
  const bool failed = verdict == OutcomeClassification::Verdict::failure;
  const bool slow = duration > settings_.slow_call_duration_threshold;
  window_.record(now, failed, slow);
  if (state_ == BreakerState::closed) {
    if (failed) noteFailure(now - duration);
    if (window_.failed == 0) endEpisode();
  }
  const Verdict v = check();
  if (state_ == BreakerState::closed) {
    if (v == Verdict::exceeded) toOpen(now, attempts_ + 1, BreakerTransition::Cause::trip_rule);
  } else if (v == Verdict::exceeded) {
    toOpen(now, attempts_ + 1, BreakerTransition::Cause::probes_failed);
  } else if (v == Verdict::below) {
    toClosed(now, BreakerTransition::Cause::probes_succeeded);
  }
}

void Resilience4jModel::fireTimer() {
  const Micros now = timer_at_;
  timer_at_ = kNever;
  if (state_ == BreakerState::open) {
    toHalfOpen(now, BreakerTransition::Cause::interval_elapsed);
  } else if (state_ == BreakerState::half_open) {
    if (settings_.transition_to_state_after_wait_duration == BreakerState::closed) {
      toClosed(now, BreakerTransition::Cause::half_open_expired);
    } else {
      toOpen(now, attempts_ + 1, BreakerTransition::Cause::half_open_expired);
    }
  }
}

void Resilience4jModel::toOpen(Micros now, std::uint32_t attempts, BreakerTransition::Cause cause) {
  report(now, BreakerState::open, cause, window_.calls, window_.failed);
  attempts_ = attempts;
  const Micros wait = settings_.waitInterval(attempts);
  retry_after_ = now + wait;
  timer_at_ = settings_.automatic_transition_from_open_to_half_open_enabled ? now + wait : kNever;
}

void Resilience4jModel::toHalfOpen(Micros now, BreakerTransition::Cause cause) {
  report(now, BreakerState::half_open, cause);
  const std::uint32_t permitted =
      std::max<std::uint32_t>(settings_.permitted_number_of_calls_in_half_open_state, 1);
  // CircuitBreakerMetrics.forHalfOpen: a COUNT_BASED window whatever the configured type.
  window_.reset(false, permitted, std::min(settings_.minimum_number_of_calls, permitted), now);
  permits_ = permitted;
  const Micros max_wait = settings_.max_wait_duration_in_half_open_state / kMillisecond;
  timer_at_ = max_wait >= 1 ? now + max_wait * kMillisecond : kNever;
}

void Resilience4jModel::toClosed(Micros now, BreakerTransition::Cause cause) {
  if (state_ != BreakerState::closed) report(now, BreakerState::closed, cause);
  attempts_ = 0;
  timer_at_ = kNever;
  const bool time = settings_.sliding_window_type == SlidingWindowType::time_based;
  const std::uint32_t size = settings_.sliding_window_size;
  // COUNT_BASED caps the minimum at the window size; TIME_BASED does not.
  window_.reset(time, size,
                time ? settings_.minimum_number_of_calls
                     : std::min(settings_.minimum_number_of_calls, std::max(size, 1u)),
                now);
}

}  // namespace breakerlab
