#pragma once
// Polly's CircuitBreakerStrategyOptions: the settings alone, which every config carries
// (inputs/config.h), apart from the state machine that runs them (breakers/libraries/polly.h).
#include <cstdint>
#include <string>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// CircuitBreakerStrategyOptions as appsettings.json binds them. A BreakDurationGenerator is code,
// not configuration; BreakerLab knows one shape of it, min(max, BreakDuration *
// m^HalfOpenAttempts). The classification stands for ShouldHandle: failures are handled outcomes.
struct PollySettings {
  // The appsettings.json section that holds the CircuitBreaker options, as read ("Pricing"):
  // the application binds its options by it, so an export writes it back unchanged. Empty for
  // options read on their own. No effect on the replay.
  std::string name;
  double failure_ratio = 0.1;
  std::uint32_t minimum_throughput = 100;
  Micros sampling_duration = 30 * kSecond;
  Micros break_duration = 5 * kSecond;
  bool generator = false;
  double generator_multiplier = 2;
  Micros generator_max = 0;  // 0 = no cap
  OutcomeClassification classification;
  bool operator==(const PollySettings&) const = default;

  // The break after `half_open_attempts` failed trials in a row.
  Micros breakDuration(std::uint32_t half_open_attempts) const;
};

}  // namespace breakerlab
