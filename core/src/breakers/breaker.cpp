#include "breakerlab/core/breakers/breaker.h"

#include <algorithm>
#include <cmath>

namespace breakerlab {

namespace {
constexpr std::uint8_t kFailureBit = 1;
constexpr std::uint8_t kSlowBit = 2;

std::int64_t floorDiv(Micros t, Micros d) {
  return t >= 0 ? t / d : -((-t + d - 1) / d);
}
}  // namespace

std::string_view toString(BreakerTransition::Cause cause) {
  using C = BreakerTransition::Cause;
  switch (cause) {
    case C::failure_rate:
      return "failure rate";
    case C::slow_call_rate:
      return "slow-call rate";
    case C::consecutive:
      return "consecutive failures";
    case C::interval_elapsed:
      return "open interval elapsed";
    case C::health_green:
      return "health check green";
    case C::probes_failed:
      return "probes failed";
    case C::probes_succeeded:
      return "probes succeeded";
    case C::trip_rule:
      return "trip rule";
    case C::first_call_after_wait:
      return "first call after the wait";
    case C::half_open_expired:
      return "half-open wait elapsed";
    case C::late_result:
      return "late result";
    case C::hosts_ejected:
      return "hosts ejected";
    case C::hosts_returned:
      return "hosts returned";
    case C::pods_scaled:
      return "pods scaled";
  }
  return "?";
}

CircuitBreaker::CircuitBreaker(const BreakerConfig& config, const HealthSignal* health)
    : config_(config), health_(health) {
  resetClosedWindow();
}

void CircuitBreaker::resetClosedWindow() {
  if (config_.window_type == WindowType::count) {
    ring_.assign(std::max<std::uint32_t>(config_.window_size, 1), 0);
  } else if (config_.window_type == WindowType::time) {
    buckets_.assign(std::max<std::uint32_t>(config_.window_size, 1), Bucket{});
  }
  ring_next_ = 0;
  window_calls_ = window_failures_ = window_slow_ = 0;
  consecutive_ = 0;
  episode_start_ = kNever;
}

CircuitBreaker::Permit CircuitBreaker::acquireSlow(Micros now) {
  switch (state_) {
    case BreakerState::closed:
    case BreakerState::open:
      return {};
    case BreakerState::half_open:
      if (probes_admitted_ >= config_.probes) return {};
      if (config_.probe_spacing > 0 &&
          now < half_open_since_ + static_cast<Micros>(probes_admitted_) * config_.probe_spacing) {
        return {};
      }
      return admitted(generation_, true, probes_admitted_++);
  }
  return {};
}

void CircuitBreaker::record(Micros now, const Permit& permit, CallOutcome outcome,
                            Micros duration) {
  if (!permit.permitted || permit.generation != generation_) return;  // from an older state
  const bool failure = outcome == CallOutcome::failure || config_.failures.contains(outcome);
  const bool slow = config_.slow_call_duration > 0 && duration > config_.slow_call_duration;
  if (state_ == BreakerState::closed) {
    if (failure && episode_start_ == kNever) episode_start_ = now - duration;
    recordClosed(now, failure, slow);
  } else if (state_ == BreakerState::half_open && permit.probe) {
    recordHalfOpen(now, permit.probe_index, outcome, failure, slow);
  }
}

void CircuitBreaker::recordClosed(Micros now, bool failure, bool slow) {
  const std::uint8_t flags = (failure ? kFailureBit : 0) | (slow ? kSlowBit : 0);
  switch (config_.window_type) {
    case WindowType::consecutive:
      if (!failure) {
        consecutive_ = 0;
        episode_start_ = kNever;
        return;
      }
      if (++consecutive_ >= config_.consecutive_failures) {
        window_calls_ = window_failures_ = consecutive_;
        transition(now, BreakerState::open, BreakerTransition::Cause::consecutive);
      }
      return;
    case WindowType::count: {
      const auto size = static_cast<std::uint32_t>(ring_.size());
      if (window_calls_ == size) {
        const std::uint8_t old = ring_[ring_next_];
        window_failures_ -= (old & kFailureBit) ? 1 : 0;
        window_slow_ -= (old & kSlowBit) ? 1 : 0;
      } else {
        ++window_calls_;
      }
      ring_[ring_next_] = flags;
      ring_next_ = ring_next_ + 1 == size ? 0 : ring_next_ + 1;
      window_failures_ += failure ? 1 : 0;
      window_slow_ += slow ? 1 : 0;
      break;
    }
    case WindowType::time: {
      const auto size = static_cast<std::int64_t>(buckets_.size());
      const std::int64_t second = floorDiv(now, kSecond);
      if (window_calls_ == 0) head_second_ = second;
      if (second > head_second_) {
        // Evict every bucket that falls out of the window, at most one full turn.
        const std::int64_t last = std::min(second, head_second_ + size);
        for (std::int64_t s = head_second_ + 1; s <= last; ++s) {
          Bucket& b = buckets_[static_cast<std::size_t>(((s % size) + size) % size)];
          window_calls_ -= b.calls;
          window_failures_ -= b.failures;
          window_slow_ -= b.slow;
          b = Bucket{s, 0, 0, 0};
        }
        head_second_ = second;
      }
      Bucket& b = buckets_[static_cast<std::size_t>(((second % size) + size) % size)];
      b.second = second;
      ++b.calls;
      ++window_calls_;
      b.failures += failure ? 1 : 0;
      b.slow += slow ? 1 : 0;
      window_failures_ += failure ? 1 : 0;
      window_slow_ += slow ? 1 : 0;
      break;
    }
  }
  if (window_failures_ == 0) episode_start_ = kNever;

  const std::uint32_t min_calls = config_.window_type == WindowType::count
                                      ? std::min(config_.min_calls, config_.window_size)
                                      : config_.min_calls;
  if (window_calls_ < std::max<std::uint32_t>(min_calls, 1)) return;
  const double calls = window_calls_;
  if (window_failures_ * 100.0 >= config_.failure_rate_pct * calls) {
    transition(now, BreakerState::open, BreakerTransition::Cause::failure_rate);
  } else if (config_.slow_call_duration > 0 &&
             window_slow_ * 100.0 >= config_.slow_call_rate_pct * calls) {
    transition(now, BreakerState::open, BreakerTransition::Cause::slow_call_rate);
  }
}

void CircuitBreaker::recordHalfOpen(Micros now, std::uint32_t index, CallOutcome outcome,
                                    bool failure, bool slow) {
  ++probes_done_;
  probe_failures_ += failure ? 1 : 0;
  probe_slow_ += slow ? 1 : 0;
  probe_results_.push_back({now, index, outcome, failure});
  if (config_.reopen_on_first_failure && (failure || slow)) {
    transition(now, BreakerState::open, BreakerTransition::Cause::probes_failed);
    return;
  }
  if (probes_done_ < config_.probes) return;
  bool close;
  if (config_.close_when == CloseRule::all_succeed) {
    close = probe_failures_ == 0 && probe_slow_ == 0;
  } else {
    const double n = probes_done_;
    close =
        probe_failures_ * 100.0 < config_.failure_rate_pct * n &&
        !(config_.slow_call_duration > 0 && probe_slow_ * 100.0 >= config_.slow_call_rate_pct * n);
  }
  transition(
      now, close ? BreakerState::closed : BreakerState::open,
      close ? BreakerTransition::Cause::probes_succeeded : BreakerTransition::Cause::probes_failed);
}

Micros CircuitBreaker::openInterval() const {
  const Micros base = config_.open_interval;
  if (config_.backoff_multiplier == 1.0 || opens_in_a_row_ <= 1) return base;
  const Micros cap = std::max(config_.backoff_max, base);
  const double grown =
      static_cast<double>(base) * std::pow(config_.backoff_multiplier, opens_in_a_row_ - 1);
  return grown >= static_cast<double>(cap) ? cap : static_cast<Micros>(grown + 0.5);
}

void CircuitBreaker::transition(Micros now, BreakerState to, BreakerTransition::Cause cause) {
  BreakerTransition t{now, state_, to, cause};
  if (state_ == BreakerState::closed) {
    t.window_calls = window_calls_;
    t.window_failures = window_failures_;
    t.episode_start = episode_start_ == kNever ? now : episode_start_;
  }
  transitions_.push_back(t);
  state_ = to;
  ++generation_;
  switch (to) {
    case BreakerState::closed:
      resetClosedWindow();
      opens_in_a_row_ = 0;
      next_timer_ = kNever;
      break;
    case BreakerState::open:
      ++opens_in_a_row_;
      scheduleOpenTimers(now);
      break;
    case BreakerState::half_open:
      half_open_since_ = now;
      probes_admitted_ = probes_done_ = probe_failures_ = probe_slow_ = 0;
      next_timer_ = kNever;
      break;
  }
}

void CircuitBreaker::scheduleOpenTimers(Micros now) {
  open_until_ = now + openInterval();
  next_poll_ = config_.early_probe && health_ != nullptr && config_.early_probe_poll > 0
                   ? now + config_.early_probe_poll
                   : kNever;
  next_timer_ = std::min(open_until_, next_poll_);
}

void CircuitBreaker::fireTimer() {
  if (state_ != BreakerState::open || next_timer_ == kNever) return;
  const Micros now = next_timer_;
  if (now >= open_until_) {
    transition(now, BreakerState::half_open, BreakerTransition::Cause::interval_elapsed);
    return;
  }
  if (health_->greenAt(now)) {
    transition(now, BreakerState::half_open, BreakerTransition::Cause::health_green);
    return;
  }
  next_poll_ += config_.early_probe_poll;
  next_timer_ = std::min(open_until_, next_poll_);
}

}  // namespace breakerlab
