#include "breakerlab/core/breakers/libraries/opossum.h"

#include <algorithm>

namespace breakerlab {

Micros nodeTimerDelay(Micros delay) {
  constexpr Micros kMaxTimeout = 2'147'483'647 * kMillisecond;  // TIMEOUT_MAX
  if (delay < kMillisecond || delay > kMaxTimeout) return kMillisecond;
  return delay;
}

OpossumModel::OpossumModel(const OpossumOptions& options, Micros created_at)
    : options_(options),
      // Math.floor(rollingCountTimeout / rollingCountBuckets), in whole ms as opossum computes it.
      // Status takes `rollingCountTimeout || 10000` and `rollingCountBuckets || 10`.
      bucket_interval_(nodeTimerDelay(
          (options.rolling_count_timeout > 0 ? options.rolling_count_timeout / kMillisecond
                                             : 10'000) /
          (options.rolling_count_buckets > 0 ? options.rolling_count_buckets : 10) * kMillisecond)),
      reset_delay_(nodeTimerDelay(options.reset_timeout)),
      timeout_delay_(options.timeout > 0 ? nodeTimerDelay(options.timeout) : 0),
      warming_up_(options.allow_warm_up),
      buckets_(options.rolling_count_buckets > 0 ? options.rolling_count_buckets : 10) {
  // new Status(): setInterval(rotateBucket) first, then the snapshot interval (which changes
  // nothing here); then the constructor's warm-up setTimeout.
  rotate_seq_ = seq_++;
  rotate_at_ = created_at + bucket_interval_;
  ++seq_;
  if (warming_up_) {
    warm_up_seq_ = seq_++;
    warm_up_ends_ = created_at + nodeTimerDelay(options.rolling_count_timeout);
  }
}

Micros OpossumModel::nextTimer() const {
  popStaleTimers();
  Micros t = std::min({rotate_at_, warm_up_ends_, reset_at_});
  if (!call_timers_.empty()) t = std::min(t, call_timers_.top().at);
  return t;
}

void OpossumModel::popStaleTimers() const {
  while (!call_timers_.empty()) {
    const CallTimer& top = call_timers_.top();
    const Slot& s = slots_[top.slot];
    if (s.active && !s.timed_out && s.generation == top.generation) return;
    call_timers_.pop();
  }
}

void OpossumModel::fireTimer() {
  popStaleTimers();
  // The earliest (time, order) of the four kinds of timer.
  enum { kRotate, kWarmUp, kReset, kCall } which = kRotate;
  Micros at = rotate_at_;
  std::uint64_t seq = rotate_seq_;
  auto consider = [&](Micros t, std::uint64_t s, decltype(which) w) {
    if (t < at || (t == at && s < seq)) {
      at = t;
      seq = s;
      which = w;
    }
  };
  consider(warm_up_ends_, warm_up_seq_, kWarmUp);
  consider(reset_at_, reset_seq_, kReset);
  if (!call_timers_.empty()) consider(call_timers_.top().at, call_timers_.top().seq, kCall);
  if (at == kNever) return;

  switch (which) {
    case kRotate:
      rotate_seq_ = seq_++;  // an interval is ordered anew each time it runs
      rotate_at_ += bucket_interval_;
      rotate();
      break;
    case kWarmUp:
      warm_up_ends_ = kNever;
      warming_up_ = false;
      break;
    case kReset:
      // _halfOpen(): the next fire() is the single trial.
      reset_at_ = kNever;
      pending_close_ = true;
      report(at, BreakerState::half_open, BreakerTransition::Cause::interval_elapsed);
      break;
    case kCall: {
      const CallTimer timer = call_timers_.top();
      call_timers_.pop();
      Slot& s = slots_[timer.slot];
      s.timed_out = true;
      --in_use_;  // semaphore.release() before the timeout is handled
      const bool probe = s.probe;
      // handleError(ETIMEDOUT): errorFilter decides like for the call's own errors.
      if (options_.classification.classify(CallOutcome::timeout) ==
          OutcomeClassification::Verdict::failure) {
        fail(at, s.started, probe);
      } else {
        success(at, probe);
      }
      break;
    }
  }
}

bool OpossumModel::skipIdleTimers(Micros through) {
  popStaleTimers();
  Micros others = std::min(warm_up_ends_, reset_at_);
  if (!call_timers_.empty()) others = std::min(others, call_timers_.top().at);
  const Micros last = std::min(through, others - 1);
  if (rotate_at_ > last) return false;
  const auto due = static_cast<std::uint64_t>((last - rotate_at_) / bucket_interval_) + 1;
  if (due < 2) return false;  // one rotation: firing it costs the same
  const std::size_t n = buckets_.size();
  if (due >= n) {
    // Every bucket has rotated out: the window is empty, wherever its head now is.
    for (Bucket& b : buckets_) b = {};
    fires_ = failures_ = 0;
    head_ = (head_ + n - static_cast<std::size_t>(due % n)) % n;
    endEpisode();
  } else {
    for (std::uint64_t i = 0; i < due; ++i) rotate();
  }
  rotate_at_ += static_cast<Micros>(due) * bucket_interval_;
  seq_ += due;  // each rotation would have taken an order number
  rotate_seq_ = seq_ - 1;
  return true;
}

void OpossumModel::rotate() {
  // window.pop(); window.unshift(bucket())
  head_ = head_ == 0 ? buckets_.size() - 1 : head_ - 1;
  fires_ -= buckets_[head_].fires;
  failures_ -= buckets_[head_].failures;
  buckets_[head_] = {};
  if (failures_ == 0) endEpisode();
}

std::uint32_t OpossumModel::takeSlot() {
  if (!free_slots_.empty()) {
    const std::uint32_t i = free_slots_.back();
    free_slots_.pop_back();
    return i;
  }
  slots_.emplace_back();
  return static_cast<std::uint32_t>(slots_.size() - 1);
}

BreakerPermit OpossumModel::acquire(Micros now, std::uint32_t /*token*/) {
  ++buckets_[head_].fires;  // emit('fire')
  ++fires_;
  if (!options_.enabled) return permitCall(0, 0, 0);
  if (state_ != BreakerState::closed && !pending_close_) return rejectCall();  // EOPENBREAKER
  const bool probe = state_ == BreakerState::half_open;
  pending_close_ = false;
  if (in_use_ >= options_.capacity) {
    // ESEMLOCKED goes through handleError, errorFilter included (BreakerLab's pool_exhausted):
    // a failure unless filtered, and the call never runs either way.
    if (options_.classification.classify(CallOutcome::pool_exhausted) ==
        OutcomeClassification::Verdict::failure) {
      fail(now, now, probe);
    } else {
      success(now, probe);
    }
    return rejectCall();
  }
  ++in_use_;
  const std::uint32_t slot = takeSlot();
  Slot& s = slots_[slot];
  ++s.generation;
  s.active = true;
  s.timed_out = false;
  s.probe = probe;
  s.started = now;
  if (timeout_delay_ > 0) call_timers_.push({now + timeout_delay_, seq_++, slot, s.generation});
  return permitCall(s.generation, kRunning | (probe ? kProbe : 0), slot);
}

void OpossumModel::record(Micros now, const BreakerPermit& permit, CallOutcome outcome,
                          Micros duration) {
  if (!options_.enabled || !(permit.kind & kRunning)) return;
  Slot& s = slots_[permit.probe_index];
  const bool timed_out = s.timed_out;
  const bool probe = s.probe;
  s.active = false;
  free_slots_.push_back(permit.probe_index);
  if (timed_out) return;  // the timeout already answered for this call
  --in_use_;
  if (options_.classification.classify(outcome) == OutcomeClassification::Verdict::failure) {
    fail(now, now - duration, probe);
  } else {
    success(now, probe);
  }
}

void OpossumModel::success(Micros now, bool from_probe) {
  if (state_ == BreakerState::half_open)
    close(now, from_probe ? BreakerTransition::Cause::probes_succeeded
                          : BreakerTransition::Cause::late_result);
}

void OpossumModel::fail(Micros now, Micros call_start, bool from_probe) {
  ++buckets_[head_].failures;  // emit('failure')
  ++failures_;
  if (state_ == BreakerState::closed) noteFailure(call_start);
  if (warming_up_) return;
  const bool half_open = state_ == BreakerState::half_open;
  if (fires_ < options_.volume_threshold && !half_open) return;
  const double error_rate = static_cast<double>(failures_) / static_cast<double>(fires_) * 100.0;
  if (error_rate > options_.error_threshold_percentage || half_open) {
    using C = BreakerTransition::Cause;
    open(now, !half_open ? C::trip_rule : from_probe ? C::probes_failed : C::late_result);
  }
}

void OpossumModel::open(Micros now, BreakerTransition::Cause cause) {
  if (state_ == BreakerState::open) return;
  pending_close_ = false;
  report(now, BreakerState::open, cause, static_cast<std::uint32_t>(fires_),
         static_cast<std::uint32_t>(failures_));
  reset_seq_ = seq_++;
  reset_at_ = now + reset_delay_;
}

void OpossumModel::close(Micros now, BreakerTransition::Cause cause) {
  if (state_ == BreakerState::closed) return;
  reset_at_ = kNever;  // clearTimeout(RESET_TIMEOUT)
  pending_close_ = false;
  report(now, BreakerState::closed, cause);
}

}  // namespace breakerlab
