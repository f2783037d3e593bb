#pragma once
// The knobs a user tunes: the client's breaker, timeout and fallback cache.
// Field names follow the config file keys (docs/formats.md), which `--set` takes.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/native_breakers.h"

namespace breakerlab {

enum class WindowType : std::uint8_t { count, time, consecutive };
enum class CloseRule : std::uint8_t { all_succeed, rate };
// Outside: the breaker sees each request once, its retry loop inside (gobreaker wrapping a retry
// interceptor). Inside: every attempt passes the breaker (resilience4j's default aspect order).
enum class BreakerPlacement : std::uint8_t { outside_retry, inside_retry };
enum class BackoffKind : std::uint8_t { none, fixed, exponential };
enum class Jitter : std::uint8_t { none, full, equal, decorrelated };
// In the request: the worker waits through the backoff and every attempt. In the background:
// the first attempt answers the checkout; retries run from a queue off the request path and
// settle the checkout's final outcome later (001's fix).
enum class RetryMode : std::uint8_t { in_request, background };
enum class PricingMode : std::uint8_t { sync, cache_first };
// Who answers the load balancer's health check: the request workers (a check fails when
// every worker is busy) or a pool of its own (a check never fails for lack of workers).
enum class HealthCheckPool : std::uint8_t { shared, separate };
// Where a stateful part of the client lives. Per pod: one in every pod's process, as every
// library keeps its breaker, cache and retry budget (40 pods run 40 breakers, each seeing the
// calls the load balancer sends its pod). Shared: one for the whole fleet (a distributed breaker,
// a cache in Redis, a budget kept by a sidecar mesh).
enum class StateScope : std::uint8_t { per_pod, shared };
// The one spelling of each StateScope: the config files', `--set`'s and the knob panel's.
inline constexpr std::array<std::pair<std::string_view, StateScope>, 2> kStateScopeNames{{
    {"per_pod", StateScope::per_pod},
    {"shared", StateScope::shared},
}};
std::string_view toString(StateScope scope);

struct BreakerConfig {
  bool enabled = true;
  StateScope scope = StateScope::per_pod;
  BreakerPlacement placement = BreakerPlacement::outside_retry;
  // Whose rules the breaker follows. For a library, its settings are Config::native's; the rest
  // of this struct is the generic machine's.
  BreakerLibrary library = BreakerLibrary::breakerlab;

  // Closed state: how failures are collected and when the breaker trips.
  WindowType window_type = WindowType::count;
  std::uint32_t window_size = 20;  // calls (count) or seconds (time)
  std::uint32_t min_calls = 20;    // no rate is computed below this many recorded calls
  double failure_rate_pct = 50.0;  // trips at or above
  std::uint32_t consecutive_failures = 5;
  Micros slow_call_duration = 0;  // 0 = slow-call rule off; a call is slow if strictly longer
  double slow_call_rate_pct = 100.0;
  OutcomeSet failures{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                      CallOutcome::pool_exhausted};  // a log's `failure` always counts

  // Open state.
  Micros open_interval = 20 * kSecond;
  double backoff_multiplier = 1.0;  // interval of the k-th open in a row: base * m^(k-1)
  Micros backoff_max = 20 * kSecond;
  bool early_probe = false;  // go half-open once the dependency's health is seen green
  Micros early_probe_poll = 2 * kSecond;

  // Half-open state.
  std::uint32_t probes = 3;
  Micros probe_spacing = kSecond;  // 0 = the next live calls are the probes
  CloseRule close_when = CloseRule::all_succeed;
  bool reopen_on_first_failure = false;

  bool operator==(const BreakerConfig&) const = default;
};

struct TimeoutConfig {
  Micros attempt = 800 * kMillisecond;  // per dependency call; must be positive
  Micros total = 0;                     // the whole retry loop; 0 = no deadline
  bool operator==(const TimeoutConfig&) const = default;
};

// Retries in the request (the worker waits through the backoff). The n-th retry waits
// none: 0; fixed: base; exponential: min(max, base * multiplier^(n-1)); then jitter (Brooker):
// full: U(0, d); equal: d/2 + U(0, d/2); decorrelated: min(max, U(base, 3 * previous)).
// Retry budget (Linkerd, Envoy, the SRE book's per-client budget): a retry is allowed while the
// retries of the last `window` stay below max(ratio × requests, min_per_second × window).
struct RetryBudget {
  // Of the budget, the token bucket and the throttling alike: each pod keeps its own accounts,
  // or the fleet one.
  StateScope scope = StateScope::per_pod;
  double ratio = 0;  // 0..1; 0 = no budget
  double min_per_second = 0;
  Micros window = 10 * kSecond;
  bool operator==(const RetryBudget&) const = default;
};

// Retry token bucket (AWS SDK standard mode): a retry takes `cost` tokens and is refused when
// fewer are left; a request that succeeds at its first attempt returns `refund`.
struct RetryTokenBucket {
  double capacity = 0;  // 0 = no bucket
  double cost = 5;
  double refund = 1;
  bool operator==(const RetryTokenBucket&) const = default;
};

// gRPC retry throttling (gRFC A6; grpc-js `RetryThrottler`, src/retrying-call.ts): the client
// keeps `tokens`, starting at max_tokens. Every attempt answered with success adds token_ratio
// (up to max_tokens); every attempt that fails with a retryable outcome takes 1 (down to 0),
// whether or not a retry follows. A retry is made only if, when its backoff ends, more than
// max_tokens / 2 are left; otherwise the request ends with the failure it would have retried.
struct RetryThrottling {
  double max_tokens = 0;     // 0 = none; gRPC takes (0, 1000], three decimals
  double token_ratio = 0.1;  // > 0, three decimals
  bool operator==(const RetryThrottling&) const = default;
};

// Envoy's retry budget (cluster circuit_breakers.thresholds.retry_budget; RetryBudgetImpl in
// source/common/upstream/resource_manager_impl.h, RetryStateImpl::shouldRetry in
// source/common/router/retry_state_impl.cc): a retry is allowed when it fails while fewer retries
// are under way than max(floor(budget_percent% × the requests active or waiting for a
// connection), min_retry_concurrency). A retry holds its place from its failure's decision, through
// its backoff, to its own answer (or until the request ends).
struct RetryConcurrencyBudget {
  double budget_percent = 0;  // 0 = none (Envoy's default when the budget is set: 20)
  std::uint32_t min_retry_concurrency = 3;
  bool operator==(const RetryConcurrencyBudget&) const = default;
};

struct RetryConfig {
  std::uint32_t max_attempts = 1;  // including the first: 1 = no retries
  BackoffKind backoff = BackoffKind::exponential;
  Micros base = 200 * kMillisecond;
  double multiplier = 2.0;
  Micros max = 5 * kSecond;
  Jitter jitter = Jitter::full;
  OutcomeSet retry_on{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                      CallOutcome::pool_exhausted};
  RetryMode mode = RetryMode::in_request;
  RetryBudget budget;
  RetryTokenBucket token_bucket;
  RetryThrottling throttling;
  RetryConcurrencyBudget concurrency_budget;
  bool operator==(const RetryConfig&) const = default;
};

struct CacheConfig {
  bool enabled = true;
  StateScope scope = StateScope::per_pod;
  Micros ttl = 60 * kSecond;  // an entry is served while its age is below the TTL
  bool operator==(const CacheConfig&) const = default;
};

// The connection pool of each client pod to the dependency (Apache HttpClient semantics): an
// attempt takes a connection before it is sent and gives it back when it completes or times
// out. Waiters are served first come, first served; one that waits `max_wait` fails with
// `pool_exhausted`.
struct PoolConfig {
  std::uint32_t size = 0;  // connections per pod; 0 = unlimited
  Micros max_wait = 0;     // 0 = wait as long as it takes (HttpClient's 0)
  bool operator==(const PoolConfig&) const = default;
};

// Request worker slots of each client pod. A checkout holds a worker from the moment it gets
// one until it answers; without a free worker it waits in a bounded FIFO queue, and with the
// queue full it fails at once (503).
struct WorkerConfig {
  std::uint32_t per_pod = 0;  // 0 = unlimited
  std::uint32_t queue = 0;    // checkouts that may wait for a worker
  // Every dependency call runs on a worker of its own from the same pool while the request's
  // worker waits for it (a blocking client behind a future with a timeout). With no worker free
  // the attempt fails at once (pool_exhausted). A call the request gave up on keeps its worker
  // until the dependency answers; one that never answers, until the attempt timeout.
  bool call_threads = false;
  bool operator==(const WorkerConfig&) const = default;
};

// Health checks of the load balancer: every `interval` per pod; a pod is ejected after
// `unhealthy_after` failed checks in a row and returns after `healthy_after` passing ones.
struct HealthCheckConfig {
  bool enabled = false;
  HealthCheckPool pool = HealthCheckPool::shared;
  Micros interval = 5 * kSecond;
  std::uint32_t unhealthy_after = 2;
  std::uint32_t healthy_after = 2;
  bool operator==(const HealthCheckConfig&) const = default;
};

// Client pods behind a round-robin load balancer.
struct LoadBalancerConfig {
  std::uint32_t pods = 1;
  HealthCheckConfig health_check;
  bool operator==(const LoadBalancerConfig&) const = default;
};

// cache_first: a checkout with a cached price younger than the TTL is served from the cache at
// once; a background refresh of that key starts when the price is at least `refresh_after` old
// and none is in flight. Without a usable price the checkout fetches as in sync mode.
struct PricingConfig {
  PricingMode mode = PricingMode::sync;
  Micros refresh_after = 10 * kSecond;
  bool operator==(const PricingConfig&) const = default;
};

// Client-side adaptive throttling (Google's SRE book, "Handling Overload", "Client-side
// throttling"; Envoy's admission_control filter is built on it): every client pod counts, over
// the last `window`, the attempts it made (`requests`, those it refused itself included) and those
// the dependency accepted (`accepts`: answered without an error of its own, success or
// client_error; a 5xx, a refusal or a timeout is not accepted, as admission_control's default
// success criteria have it), and refuses an attempt locally with probability
// max(0, (requests − k × accepts) / (requests + 1)). The refusal fails the attempt at once as
// `refused`, after the breaker's permit (the breaker wraps the client) and before a connection.
struct ClientThrottlingConfig {
  double k = 0;                   // 0 = off; the book's K, 2 in its example
  Micros window = 120 * kSecond;  // the book's "last two minutes"
  bool operator==(const ClientThrottlingConfig&) const = default;
};

struct Config {
  BreakerConfig breaker;
  NativeBreakers native;
  TimeoutConfig timeout;
  RetryConfig retry;
  CacheConfig cache;
  PoolConfig pool;
  WorkerConfig workers;
  LoadBalancerConfig load_balancer;
  PricingConfig pricing;
  ClientThrottlingConfig client_throttling;
  bool operator==(const Config&) const = default;
};

// The first problem that makes the config unusable, or an empty string.
std::string validate(const Config& config);

// The wait before retry number `retry` (1 = the first retry) of one request, jitter included.
// `uniform(n)` gives the request's n-th uniform draw in [0, 1).
template <typename Uniform>
Micros retryDelay(const RetryConfig& r, std::uint32_t retry, Uniform&& uniform) {
  const auto cap = static_cast<double>(r.max > 0 ? r.max : kNever / 4);
  if (r.jitter == Jitter::decorrelated) {
    double sleep = static_cast<double>(r.base);
    for (std::uint32_t n = 1; n <= retry; ++n) {
      const double hi = 3 * sleep, lo = static_cast<double>(r.base);
      sleep = std::min(cap, lo + uniform(n) * (hi - lo));
    }
    return static_cast<Micros>(sleep + 0.5);
  }
  double d = 0;
  switch (r.backoff) {
    case BackoffKind::none:
      d = 0;
      break;
    case BackoffKind::fixed:
      d = static_cast<double>(r.base);
      break;
    case BackoffKind::exponential: {
      d = static_cast<double>(r.base);
      for (std::uint32_t n = 1; n < retry && d < cap; ++n) d *= r.multiplier;
      d = std::min(d, cap);
      break;
    }
  }
  switch (r.jitter) {
    case Jitter::full:
      d *= uniform(retry);
      break;
    case Jitter::equal:
      d = d / 2 + uniform(retry) * d / 2;
      break;
    default:
      break;
  }
  return static_cast<Micros>(d + 0.5);
}

}  // namespace breakerlab
