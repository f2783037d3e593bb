#pragma once
// cockatiel's circuitBreaker() options: the settings alone, which every config carries
// (inputs/config.h), apart from the state machine that runs them (breakers/libraries/cockatiel.h).
#include <cstdint>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// halfOpenAfter: a number of ms (ConstantBackoff) or an ExponentialBackoff. Only its
// noJitterGenerator is deterministic: min(maxDelay, initialDelay * 2^n) for the n-th reopening in
// a row (the generator ignores `exponent`).
struct CockatielBackoff {
  enum class Kind : std::uint8_t { constant, exponential } kind = Kind::constant;
  Micros delay = 10'000 * kMillisecond;  // constant
  Micros initial_delay = 128 * kMillisecond;
  Micros max_delay = 30'000 * kMillisecond;
  double exponent = 2;  // kept for the file; noJitterGenerator does not use it
  bool operator==(const CockatielBackoff&) const = default;
  Micros duration(std::uint32_t step) const;
};

struct CockatielBreakerSpec {
  enum class Kind : std::uint8_t { consecutive, count, sampling } kind = Kind::consecutive;
  std::uint32_t consecutive_threshold = 5;    // ConsecutiveBreaker(threshold)
  double threshold = 0.5;                     // Count/SamplingBreaker, (0, 1)
  std::uint32_t size = 100;                   // CountBreaker
  std::uint32_t minimum_number_of_calls = 0;  // CountBreaker; 0 = size
  Micros duration = 10'000 * kMillisecond;    // SamplingBreaker
  double minimum_rps = 0;                     // SamplingBreaker; 0 = 5 / threshold
  bool operator==(const CockatielBreakerSpec&) const = default;
};

// circuitBreaker(policy, {halfOpenAfter, breaker, halfOpenSampling}). The classification is the
// policy's handleWhen: failures are handled errors; ignored outcomes are errors the policy does
// not handle (thrown past the breaker while closed, a success for a half-open trial).
struct CockatielSettings {
  CockatielBackoff half_open_after;
  CockatielBreakerSpec breaker;
  std::uint32_t half_open_calls = 1;  // halfOpenSampling.calls
  double half_open_threshold = 0;     // halfOpenSampling.threshold, [0, 1)
  OutcomeClassification classification;
  bool operator==(const CockatielSettings&) const = default;
};

}  // namespace breakerlab
