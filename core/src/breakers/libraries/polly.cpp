#include "breakerlab/core/breakers/libraries/polly.h"

#include <algorithm>
#include <cmath>

namespace breakerlab {

namespace {
// TimeSpan ticks are 100 ns; BreakerLab's clock is in µs.
constexpr std::int64_t kTicksPerMicro = 10;
}  // namespace

Micros PollySettings::breakDuration(std::uint32_t half_open_attempts) const {
  if (!generator) return break_duration;
  const double d = static_cast<double>(break_duration) *
                   std::pow(generator_multiplier, static_cast<double>(half_open_attempts));
  const double capped =
      generator_max > 0 ? std::min(d, static_cast<double>(generator_max)) : std::min(d, 9e15);
  return static_cast<Micros>(std::llround(capped));
}

PollyModel::PollyModel(const PollySettings& settings, Micros /*created_at*/)
    : settings_(settings),
      window_ticks_(settings.sampling_duration * kTicksPerMicro / 10),
      sampling_ticks_(settings.sampling_duration * kTicksPerMicro) {}

void PollyModel::updateWindows(Micros now) {
  const std::int64_t now_ticks = now * kTicksPerMicro;
  if (!have_current_ || now_ticks - windows_.back().started_at * kTicksPerMicro >= window_ticks_) {
    windows_.push_back(Window{now, 0, 0});
    have_current_ = true;
  }
  while (now_ticks - windows_.front().started_at * kTicksPerMicro >= sampling_ticks_) {
    successes_ -= windows_.front().successes;
    failures_ -= windows_.front().failures;
    windows_.pop_front();
  }
  if (failures_ == 0 && state_ == BreakerState::closed) endEpisode();
}

void PollyModel::resetMetrics() {
  windows_.clear();
  have_current_ = false;
  successes_ = failures_ = 0;
}

BreakerPermit PollyModel::acquire(Micros now, std::uint32_t /*token*/) {
  if (state_ == BreakerState::open && now >= blocked_until_) {
    // PermitHalfOpenCircuitTest: the call that finds the break over is the one trial.
    blocked_until_ = now + settings_.break_duration;
    ++half_open_attempts_;
    report(now, BreakerState::half_open, BreakerTransition::Cause::first_call_after_wait);
    return permitCall(0, 1);
  }
  if (state_ != BreakerState::closed) return rejectCall();  // BrokenCircuitException
  return permitCall();
}

void PollyModel::record(Micros now, const BreakerPermit& permit, CallOutcome outcome,
                        Micros duration) {
  const bool handled =
      settings_.classification.classify(outcome) == OutcomeClassification::Verdict::failure;
  const bool trial = permit.kind == 1;
  if (!handled) {
    updateWindows(now);
    ++successes_;
    ++windows_.back().successes;
    if (state_ == BreakerState::half_open) {
      // Any success closes it, whichever call it came from.
      report(now, BreakerState::closed,
             trial ? BreakerTransition::Cause::probes_succeeded
                   : BreakerTransition::Cause::late_result);
      blocked_until_ = 0;
      half_open_attempts_ = 0;
      resetMetrics();
    }
    return;
  }
  switch (state_) {
    case BreakerState::closed: {
      updateWindows(now);
      ++failures_;
      ++windows_.back().failures;
      noteFailure(now - duration);
      const std::uint32_t total = successes_ + failures_;
      const double rate = total == 0 ? 0.0 : failures_ / static_cast<double>(total);
      if (total >= settings_.minimum_throughput && rate >= settings_.failure_ratio)
        open(now, BreakerTransition::Cause::trip_rule);
      break;
    }
    case BreakerState::half_open:
      // Not counted; any handled outcome reopens at once.
      open(now,
           trial ? BreakerTransition::Cause::probes_failed : BreakerTransition::Cause::late_result);
      break;
    case BreakerState::open:
      updateWindows(now);
      ++failures_;
      ++windows_.back().failures;
      break;
  }
}

void PollyModel::open(Micros now, BreakerTransition::Cause cause) {
  report(now, BreakerState::open, cause, successes_ + failures_, failures_);
  blocked_until_ = now + settings_.breakDuration(half_open_attempts_);
}

}  // namespace breakerlab
