#pragma once
// Polly v8 (Polly.Core CircuitBreaker: CircuitStateController, AdvancedCircuitBehavior,
// RollingHealthMetrics), call for call.
#include <cstdint>
#include <deque>

#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/inputs/native/polly_settings.h"

namespace breakerlab {

class PollyModel : public BreakerModelBase {
 public:
  PollyModel(const PollySettings& settings, Micros created_at);

  BreakerPermit acquire(Micros now, std::uint32_t token);
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration);
  Micros nextTimer() const { return kNever; }  // Polly has no timers: every change is lazy
  void fireTimer() {}

 private:
  // RollingHealthMetrics: sub-windows of SamplingDuration / 10 that start at the first event
  // after the previous one ended, dropped whole once SamplingDuration old.
  struct Window {
    Micros started_at;
    std::uint32_t successes = 0;
    std::uint32_t failures = 0;
  };
  void updateWindows(Micros now);
  void resetMetrics();
  void open(Micros now, BreakerTransition::Cause cause);

  PollySettings settings_;
  // Durations in 100 ns ticks, as TimeSpan holds them: the sub-window is ticks / 10, truncated.
  std::int64_t window_ticks_;
  std::int64_t sampling_ticks_;
  std::deque<Window> windows_;
  bool have_current_ = false;
  std::uint32_t successes_ = 0;
  std::uint32_t failures_ = 0;
  Micros blocked_until_ = 0;
  std::uint32_t half_open_attempts_ = 0;
};

}  // namespace breakerlab
