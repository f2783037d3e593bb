#include "breakerlab/core/breakers/libraries/cockatiel.h"

#include <algorithm>
#include <cmath>

namespace breakerlab {

Micros CockatielBackoff::duration(std::uint32_t step) const {
  if (kind == Kind::constant) return delay;
  // noJitterGenerator: Math.min(maxDelay, initialDelay * 2 ** attempts), in ms doubles.
  const double initial_ms = static_cast<double>(initial_delay) / kMillisecond;
  const double max_ms = static_cast<double>(max_delay) / kMillisecond;
  const double ms = std::min(max_ms, initial_ms * std::pow(2.0, step));
  return static_cast<Micros>(std::llround(ms * kMillisecond));
}

// cockatiel reads no clock when it is created: its SamplingBreaker windows start at the Unix
// epoch (see push), whatever the time of creation.
CockatielModel::CockatielModel(const CockatielSettings& settings, Micros /*created_at*/)
    : settings_(settings) {
  const CockatielBreakerSpec& b = settings.breaker;
  if (b.kind == CockatielBreakerSpec::Kind::count) {
    samples_.assign(std::max<std::uint32_t>(b.size, 1), 0);
    minimum_calls_ = b.minimum_number_of_calls == 0 ? b.size : b.minimum_number_of_calls;
  } else if (b.kind == CockatielBreakerSpec::Kind::sampling) {
    // At least 5 windows, at most 1 s each: windowSize = Math.round(duration / windowCount).
    const double duration_ms = static_cast<double>(b.duration) / kMillisecond;
    const double count = std::max(5.0, std::ceil(duration_ms / 1000.0));
    const double size_ms = std::floor(duration_ms / count + 0.5);
    windows_.assign(static_cast<std::size_t>(count), Window{kUnixEpoch, 0, 0});
    window_size_ = static_cast<Micros>(std::llround(size_ms * kMillisecond));
    duration_ms_ = size_ms * count;
    minimum_rpms_ = b.minimum_rps != 0 ? b.minimum_rps / 1000.0 : 5.0 / (b.threshold * 1000.0);
  }
}

// --- the breaker ---------------------------------------------------------------------------

void CockatielModel::sample(bool success) {
  std::uint8_t& slot = samples_[current_sample_];
  if (slot == 1) --successes_;
  if (slot == 2) --failures_;
  slot = success ? 1 : 2;
  (success ? successes_ : failures_)++;
  current_sample_ = (current_sample_ + 1) % samples_.size();
}

// src/breaker/SamplingBreaker.ts, push(): rotate when `Date.now() - window.startedAt >=
// windowSize`. The constructor and resetWindows() give every window `startedAt: 0`, the Unix
// epoch, and a real process's Date.now() is decades past it: the first sample after creation or
// after a reset always rotates, so the current slot stays empty and the next one starts at that
// sample's time, which sets the phase of every later rotation. (Anchoring the windows at the
// creation time instead, as a fake clock that starts at 0 does, keeps that first sample in the
// current slot and shifts every rotation after it.)
void CockatielModel::push(Micros now, bool success) {
  Window* w = &windows_[current_window_];
  if (w->started_at == kUnixEpoch || now - w->started_at >= window_size_) {
    // rotateWindow: one slot per sample, whatever time has passed.
    current_window_ = (current_window_ + 1) % windows_.size();
    w = &windows_[current_window_];
    successes_ -= w->successes;
    failures_ -= w->failures;
    *w = Window{now, 0, 0};
  }
  if (success) {
    ++w->successes;
    ++successes_;
  } else {
    ++w->failures;
    ++failures_;
  }
}

void CockatielModel::resetSamples() {
  successes_ = failures_ = 0;
  if (!samples_.empty()) std::fill(samples_.begin(), samples_.end(), 0);
  // resetWindows(): startedAt = 0, the epoch again (currentWindow stays where it is).
  for (Window& w : windows_) w = Window{kUnixEpoch, 0, 0};
}

void CockatielModel::breakerSuccess(Micros now, Seen seen) {
  switch (settings_.breaker.kind) {
    case CockatielBreakerSpec::Kind::consecutive:
      consecutive_ = 0;
      break;
    case CockatielBreakerSpec::Kind::count:
      if (seen == Seen::half_open) resetSamples();
      sample(true);
      break;
    case CockatielBreakerSpec::Kind::sampling:
      if (seen == Seen::half_open) resetSamples();
      push(now, true);
      break;
  }
}

bool CockatielModel::breakerFailure(Micros now, Seen seen) {
  const CockatielBreakerSpec& b = settings_.breaker;
  switch (b.kind) {
    case CockatielBreakerSpec::Kind::consecutive:
      return ++consecutive_ >= b.consecutive_threshold;
    case CockatielBreakerSpec::Kind::count: {
      sample(false);
      if (seen != Seen::closed) return true;
      const std::uint32_t total = successes_ + failures_;
      if (total < minimum_calls_) return false;
      return failures_ > b.threshold * total;
    }
    case CockatielBreakerSpec::Kind::sampling: {
      push(now, false);
      if (seen != Seen::closed) return true;
      const double total = successes_ + failures_;
      if (total < duration_ms_ * minimum_rpms_) return false;
      return failures_ > b.threshold * total;
    }
  }
  return false;
}

// --- the policy ----------------------------------------------------------------------------

BreakerPermit CockatielModel::acquire(Micros now, std::uint32_t token) {
  switch (state_) {
    case BreakerState::closed:
      return permitCall(0, kClosedCall);
    case BreakerState::half_open:
      return executeHalfOpen(token);
    case BreakerState::open:
      if (now - opened_at_ < settings_.half_open_after.duration(backoff_step_))
        return rejectCall();  // BrokenCircuitError
      ++half_open_id_;
      ++attempt_no_;
      in_flight_ = trial_successes_ = trial_failures_ = 0;
      report(now, BreakerState::half_open, BreakerTransition::Cause::first_call_after_wait);
      return executeHalfOpen(token);
  }
  return rejectCall();
}

BreakerPermit CockatielModel::executeHalfOpen(std::uint32_t token) {
  if (trial_successes_ + trial_failures_ + in_flight_ >= settings_.half_open_calls) {
    waiters_.push_back(token);  // await state.decision.promise, then execute() again
    return holdCall();
  }
  ++in_flight_;
  return permitCall(half_open_id_, kTrial);
}

void CockatielModel::record(Micros now, const BreakerPermit& permit, CallOutcome outcome,
                            Micros duration) {
  const auto verdict = settings_.classification.classify(outcome);
  if (permit.kind == kClosedCall) {
    // execute() captured the Closed state: its result goes to the breaker as a closed-state
    // result, whatever the state is now.
    if (verdict == OutcomeClassification::Verdict::ignored) return;  // thrown past the breaker
    if (verdict == OutcomeClassification::Verdict::success) {
      breakerSuccess(now, Seen::closed);
      if (state_ == BreakerState::closed) endEpisode();
      return;
    }
    if (state_ == BreakerState::closed) noteFailure(now - duration);
    if (breakerFailure(now, Seen::closed)) {
      open(now, state_ == BreakerState::closed ? BreakerTransition::Cause::trip_rule
                                               : BreakerTransition::Cause::late_result);
    }
    return;
  }
  if (permit.kind == kTrial) {
    if (verdict == OutcomeClassification::Verdict::failure) {
      recordHalfOpenFailure(now, permit.generation);
    } else {
      recordHalfOpenSuccess(now, permit.generation);
    }
  }
}

void CockatielModel::recordHalfOpenSuccess(Micros now, std::uint32_t trial_state) {
  if (state_ != BreakerState::half_open || trial_state != half_open_id_) return;
  --in_flight_;
  ++trial_successes_;
  if (trial_successes_ + trial_failures_ < settings_.half_open_calls || in_flight_ > 0) return;
  close(now, BreakerTransition::Cause::probes_succeeded);
}

void CockatielModel::recordHalfOpenFailure(Micros now, std::uint32_t trial_state) {
  if (state_ != BreakerState::half_open || trial_state != half_open_id_) return;
  --in_flight_;
  ++trial_failures_;
  if (trial_failures_ > settings_.half_open_threshold * settings_.half_open_calls) {
    breakerFailure(now, Seen::half_open);
    open(now, BreakerTransition::Cause::probes_failed);
    return;
  }
  if (trial_successes_ + trial_failures_ < settings_.half_open_calls || in_flight_ > 0) return;
  close(now, BreakerTransition::Cause::probes_succeeded);
}

void CockatielModel::open(Micros now, BreakerTransition::Cause cause) {
  if (state_ == BreakerState::open) return;
  const bool from_half_open = state_ == BreakerState::half_open;
  // From closed: halfOpenAfter.next() starts the backoff again; from half-open: its next step.
  backoff_step_ = from_half_open ? backoff_step_ + 1 : 0;
  attempt_no_ = from_half_open ? attempt_no_ : 1;
  opened_at_ = now;
  if (settings_.breaker.kind == CockatielBreakerSpec::Kind::consecutive &&
      cause == BreakerTransition::Cause::trip_rule) {
    report(now, BreakerState::open, BreakerTransition::Cause::consecutive, consecutive_,
           consecutive_);
  } else {
    report(now, BreakerState::open, cause, successes_ + failures_, failures_);
  }
  if (from_half_open) releaseWaiters();
}

void CockatielModel::close(Micros now, BreakerTransition::Cause cause) {
  if (state_ != BreakerState::half_open) return;
  breakerSuccess(now, Seen::half_open);
  report(now, BreakerState::closed, cause);
  releaseWaiters();
}

void CockatielModel::releaseWaiters() {
  released_.insert(released_.end(), waiters_.begin(), waiters_.end());
  waiters_.clear();
}

}  // namespace breakerlab
