#include "breakerlab/core/inputs/config.h"

#include <cmath>

namespace breakerlab {

std::string_view toString(StateScope scope) {
  for (const auto& [name, value] : kStateScopeNames)
    if (value == scope) return name;
  return "?";
}

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
  // Attempt durations are kept in 32-bit microseconds.
  if (config.timeout.attempt > 30 * 60 * kSecond) return "timeout.attempt must be at most 30m";
  if (config.timeout.total < 0) return "timeout.total must not be negative";
  const RetryConfig& r = config.retry;
  if (r.max_attempts < 1 || r.max_attempts > 100) return "retry.max_attempts must be 1 to 100";
  if (r.base < 0) return "retry.backoff.base must not be negative";
  if (!(r.multiplier >= 1.0 && r.multiplier <= 100.0))
    return "retry.backoff.multiplier must be between 1 and 100";
  if (r.max < 0) return "retry.backoff.max must not be negative";
  if (!(r.budget.ratio >= 0 && r.budget.ratio <= 10))
    return "retry.budget.ratio must be 0% to 1000%";
  if (!(r.budget.min_per_second >= 0)) return "retry.budget.min_per_second must not be negative";
  if (r.budget.window < kSecond || r.budget.window > 3600 * kSecond)
    return "retry.budget.window must be 1s to 1h";
  if (!(r.token_bucket.capacity >= 0 && r.token_bucket.cost > 0 && r.token_bucket.refund >= 0))
    return "retry.token_bucket: capacity and refund must not be negative, cost must be positive";
  // gRPC reads both with three decimals (grpc-js validateRetryThrottling rounds with
  // toFixed(3)): a fourth would be dropped there, so it is refused here rather than replayed.
  const auto three_decimals = [](double v) {
    return std::abs(v * 1000 - std::round(v * 1000)) < 1e-6;
  };
  if (!(r.throttling.max_tokens >= 0 && r.throttling.max_tokens <= 1000) ||
      !three_decimals(r.throttling.max_tokens))
    return "retry.throttling.max_tokens must be 0 (none) or in (0, 1000] with at most three "
           "decimals, as gRPC reads it";
  if (!(r.throttling.token_ratio > 0 && r.throttling.token_ratio <= 1000) ||
      !three_decimals(r.throttling.token_ratio))
    return "retry.throttling.token_ratio must be above 0 (at most 1000) with at most three "
           "decimals, as gRPC reads it";
  if (!(r.concurrency_budget.budget_percent >= 0 && r.concurrency_budget.budget_percent <= 100))
    return "retry.concurrency_budget.budget_percent must be 0% (none) to 100%";
  if (r.concurrency_budget.min_retry_concurrency > 1'000'000)
    return "retry.concurrency_budget.min_retry_concurrency must be at most 1000000";
  const ClientThrottlingConfig& throttle = config.client_throttling;
  if (!(throttle.k == 0 || (throttle.k >= 0.1 && throttle.k <= 100)))
    return "client_throttling.k must be 0 (off) or 0.1 to 100";
  if (throttle.window < kSecond || throttle.window > 3600 * kSecond)
    return "client_throttling.window must be 1s to 1h";
  if (config.cache.ttl < 0) return "fallback.cache.ttl must not be negative";
  if (config.pool.max_wait < 0) return "pool.max_wait must not be negative";
  if (config.pool.size > 1'000'000) return "pool.size must be at most 1000000";
  if (config.workers.per_pod > 1'000'000 || config.workers.queue > 1'000'000)
    return "workers.per_pod and workers.queue must be at most 1000000";
  const LoadBalancerConfig& lb = config.load_balancer;
  if (lb.pods < 1 || lb.pods > 10'000) return "load_balancer.pods must be 1 to 10000";
  if (lb.health_check.enabled) {
    if (lb.health_check.interval < 10 * kMillisecond)
      return "load_balancer.health_check.interval must be at least 10ms";
    if (lb.health_check.unhealthy_after < 1 || lb.health_check.healthy_after < 1)
      return "load_balancer.health_check.unhealthy_after and healthy_after must be at least 1";
  }
  if (config.pricing.refresh_after < 0) return "pricing.refresh_after must not be negative";
  return {};
}

}  // namespace breakerlab
