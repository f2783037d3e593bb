#pragma once
// Polly v8 (Polly.Core CircuitBreaker: CircuitStateController, AdvancedCircuitBehavior,
// RollingHealthMetrics), call for call.
#include <cstdint>

#include "breakerlab/core/breaker_model_base.h"

namespace breakerlab {

// CircuitBreakerStrategyOptions as appsettings.json binds them. A BreakDurationGenerator is code,
// not configuration; BreakerLab knows one shape of it, min(max, BreakDuration *
// m^HalfOpenAttempts). The classification stands for ShouldHandle: failures are handled outcomes.
struct PollySettings {
  double failure_ratio = 0.1;
  std::uint32_t minimum_throughput = 100;
  Micros sampling_duration = 30 * kSecond;
  Micros break_duration = 5 * kSecond;
  bool generator = false;
  double generator_multiplier = 2;
  Micros generator_max = 0;  // 0 = no cap
  OutcomeClassification classification;
  bool operator==(const PollySettings&) const = default;
};

}  // namespace breakerlab
