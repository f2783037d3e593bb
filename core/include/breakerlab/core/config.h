#pragma once
// The knobs a user tunes: the client's breaker, timeout and fallback cache.
// Field names follow the config file keys (docs/formats.md), which `--set` takes.
#include <cstdint>
#include <string>

#include "breakerlab/core/outcome.h"
#include "breakerlab/core/time.h"

namespace breakerlab {

enum class WindowType : std::uint8_t { count, time, consecutive };
enum class CloseRule : std::uint8_t { all_succeed, rate };

struct BreakerConfig {
  bool enabled = true;

  // Closed state: how failures are collected and when the breaker trips.
  WindowType window_type = WindowType::count;
  std::uint32_t window_size = 20;  // calls (count) or seconds (time)
  std::uint32_t min_calls = 20;    // no rate is computed below this many recorded calls
  double failure_rate_pct = 50.0;  // trips at or above
  std::uint32_t consecutive_failures = 5;
  Micros slow_call_duration = 0;  // 0 = slow-call rule off; a call is slow if strictly longer
  double slow_call_rate_pct = 100.0;
  OutcomeSet failures{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error};

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
  bool operator==(const TimeoutConfig&) const = default;
};

struct CacheConfig {
  bool enabled = true;
  Micros ttl = 60 * kSecond;  // an entry is served while its age is below the TTL
  bool operator==(const CacheConfig&) const = default;
};

struct Config {
  BreakerConfig breaker;
  TimeoutConfig timeout;
  CacheConfig cache;
  bool operator==(const Config&) const = default;
};

// The first problem that makes the config unusable, or an empty string.
std::string validate(const Config& config);

}  // namespace breakerlab
