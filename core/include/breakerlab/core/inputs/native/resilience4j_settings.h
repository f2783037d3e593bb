#pragma once
// resilience4j's circuit breaker properties: the settings alone, which every config carries
// (inputs/config.h), apart from the state machine that runs them
// (breakers/libraries/resilience4j.h).
#include <cstdint>
#include <string>

#include "breakerlab/core/basics/breaker_state.h"
#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

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

}  // namespace breakerlab
