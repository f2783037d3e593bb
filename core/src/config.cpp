#include "breakerlab/core/config.h"

namespace breakerlab {

std::string validate(const Config& config) {
  const BreakerConfig& b = config.breaker;
  if (b.window_type != WindowType::consecutive && b.window_size == 0)
    return "breaker.window.size must be at least 1";
  if (b.window_type == WindowType::consecutive && b.consecutive_failures == 0)
    return "breaker.consecutive_failures must be at least 1";
  if (!(b.failure_rate_pct > 0 && b.failure_rate_pct <= 100))
    return "breaker.failure_rate must be in (0%, 100%]";
  if (!(b.slow_call_rate_pct > 0 && b.slow_call_rate_pct <= 100))
    return "breaker.slow_call.rate must be in (0%, 100%]";
  if (b.slow_call_duration < 0) return "breaker.slow_call.duration must not be negative";
  if (b.open_interval <= 0) return "breaker.open.interval must be positive";
  if (!(b.backoff_multiplier >= 1.0 && b.backoff_multiplier <= 100.0))
    return "breaker.open.backoff.multiplier must be between 1 and 100";
  if (b.backoff_max < 0) return "breaker.open.backoff.max must not be negative";
  if (b.early_probe && b.early_probe_poll <= 0)
    return "breaker.open.early_probe.poll must be positive when the early probe is enabled";
  if (b.probes == 0) return "breaker.half_open.probes must be at least 1";
  if (b.probe_spacing < 0) return "breaker.half_open.spacing must not be negative";
  if (config.timeout.attempt <= 0) return "timeout.attempt must be positive";
  if (config.cache.ttl < 0) return "fallback.cache.ttl must not be negative";
  return {};
}

}  // namespace breakerlab
