#pragma once
// resilience4j-circuitbreaker 2.4.0 (CircuitBreakerStateMachine, CircuitBreakerMetrics,
// FixedSizeSlidingWindowMetrics, SlidingTimeWindowMetrics, IntervalFunction), call for call.
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/inputs/native/resilience4j_settings.h"

namespace breakerlab {

class Resilience4jModel : public BreakerModelBase {
 public:
  Resilience4jModel(const Resilience4jSettings& settings, Micros created_at);

  BreakerPermit acquire(Micros now, std::uint32_t token);
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration);
  Micros nextTimer() const { return timer_at_; }
  void fireTimer();

 private:
  // The metrics of one state: COUNT_BASED ring or TIME_BASED epoch-second buckets.
  struct Window {
    bool time_based = false;
    std::uint32_t size = 0;
    std::uint32_t minimum = 0;
    std::vector<std::uint8_t> ring;  // count: bit 0 failed, bit 1 slow, bit 2 used
    std::size_t head = 0;
    struct Bucket {
      std::int64_t second = 0;
      std::uint32_t calls = 0, failed = 0, slow = 0;
    };
    std::vector<Bucket> buckets;  // time: buckets[head] is the newest second
    std::uint32_t calls = 0, failed = 0, slow = 0;
    void reset(bool time, std::uint32_t size, std::uint32_t minimum, Micros now);
    void record(Micros now, bool failed, bool slow);
  };
  enum class Verdict : std::uint8_t { below_minimum, exceeded, below };
  Verdict check() const;

  void toOpen(Micros now, std::uint32_t attempts, BreakerTransition::Cause cause);
  void toHalfOpen(Micros now, BreakerTransition::Cause cause);
  void toClosed(Micros now, BreakerTransition::Cause cause);

  Resilience4jSettings settings_;
  float failure_threshold_;
  float slow_threshold_;
  Window window_;
  std::uint32_t attempts_ = 0;
  Micros retry_after_ = 0;     // OPEN: calls after this instant may probe
  std::uint32_t permits_ = 0;  // HALF_OPEN
  Micros timer_at_ = kNever;   // automatic half-open, or the half-open max wait
};

}  // namespace breakerlab
