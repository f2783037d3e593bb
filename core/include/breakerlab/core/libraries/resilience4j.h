#pragma once
// resilience4j-circuitbreaker 2.4.0 (CircuitBreakerStateMachine, CircuitBreakerMetrics,
// FixedSizeSlidingWindowMetrics, SlidingTimeWindowMetrics, IntervalFunction), call for call.
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/breaker_model_base.h"

namespace breakerlab {

enum class SlidingWindowType : std::uint8_t { count_based, time_based };

// An instance's properties, as Spring Boot binds them
// (CommonCircuitBreakerConfigurationProperties), in resilience4j's units: percentages, calls or
// seconds, durations. The classification stands for recordExceptions (failures) and
// ignoreExceptions (ignored).
struct Resilience4jSettings {
  std::string name = "pricing";
  SlidingWindowType sliding_window_type = SlidingWindowType::count_based;
  std::uint32_t sliding_window_size = 100;
  std::uint32_t minimum_number_of_calls = 100;
  double failure_rate_threshold = 50;
  double slow_call_rate_threshold = 100;
  Micros slow_call_duration_threshold = 60 * kSecond;
  Micros wait_duration_in_open_state = 60 * kSecond;
  bool enable_exponential_backoff = false;
  double exponential_backoff_multiplier = 1.5;
  Micros exponential_max_wait_duration_in_open_state = 0;  // 0 = no cap
  bool enable_randomized_wait = false;
  double randomized_wait_factor = 0.5;
  std::uint32_t permitted_number_of_calls_in_half_open_state = 10;
  Micros max_wait_duration_in_half_open_state = 0;  // 0 = wait for the permitted calls forever
  BreakerState transition_to_state_after_wait_duration = BreakerState::open;
  bool automatic_transition_from_open_to_half_open_enabled = false;
  OutcomeClassification classification;
  bool operator==(const Resilience4jSettings&) const = default;

  // IntervalFunction.apply(attempt), attempt >= 1, as Spring builds it from these properties.
  Micros waitInterval(std::uint32_t attempt) const;
};

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
