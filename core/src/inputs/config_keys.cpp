#include "breakerlab/core/inputs/config_keys.h"

#include <array>
#include <cmath>
#include <cstdlib>

namespace breakerlab {

namespace {
using U = ConfigKey::Unit;

std::uint32_t count(double v) {
  return static_cast<std::uint32_t>(std::llround(v));
}
Micros micros(double v) {
  return static_cast<Micros>(std::llround(v));
}

// Each row spells `c.FIELD` once; the macro writes its getter and setter for the unit.
#define BL_COUNT(key, field)                                                     \
  ConfigKey {                                                                    \
    key, U::count, [](const Config& c) { return static_cast<double>(c.field); }, \
        [](Config& c, double v) { c.field = count(v); }                          \
  }
#define BL_NUMBER(key, field)                                        \
  ConfigKey {                                                        \
    key, U::number, [](const Config& c) { return double(c.field); }, \
        [](Config& c, double v) { c.field = v; }                     \
  }
#define BL_MICROS(key, field)                                                     \
  ConfigKey {                                                                     \
    key, U::micros, [](const Config& c) { return static_cast<double>(c.field); }, \
        [](Config& c, double v) { c.field = micros(v); }                          \
  }
#define BL_TOGGLE(key, field)                                            \
  ConfigKey {                                                            \
    key, U::toggle, [](const Config& c) { return c.field ? 1.0 : 0.0; }, \
        [](Config& c, double v) { c.field = v != 0; }                    \
  }
#define BL_CHOICE(key, field)                                                           \
  ConfigKey {                                                                           \
    key, U::choice, [](const Config& c) { return static_cast<double>(c.field); },       \
        [](Config& c, double v) { c.field = static_cast<decltype(c.field)>(count(v)); } \
  }

const ConfigKey kKeys[] = {
    BL_CHOICE("breaker.library", breaker.library),
    BL_TOGGLE("breaker.enabled", breaker.enabled),
    BL_CHOICE("breaker.placement", breaker.placement),
    BL_CHOICE("breaker.scope", breaker.scope),
    BL_CHOICE("breaker.window.type", breaker.window_type),
    BL_COUNT("breaker.window.size", breaker.window_size),
    BL_COUNT("breaker.min_calls", breaker.min_calls),
    BL_NUMBER("breaker.failure_rate", breaker.failure_rate_pct),
    BL_COUNT("breaker.consecutive_failures", breaker.consecutive_failures),
    BL_MICROS("breaker.slow_call.duration", breaker.slow_call_duration),
    BL_NUMBER("breaker.slow_call.rate", breaker.slow_call_rate_pct),
    BL_MICROS("breaker.open.interval", breaker.open_interval),
    BL_NUMBER("breaker.open.backoff.multiplier", breaker.backoff_multiplier),
    BL_MICROS("breaker.open.backoff.max", breaker.backoff_max),
    BL_TOGGLE("breaker.open.early_probe.enabled", breaker.early_probe),
    BL_MICROS("breaker.open.early_probe.poll", breaker.early_probe_poll),
    BL_COUNT("breaker.half_open.probes", breaker.probes),
    BL_MICROS("breaker.half_open.spacing", breaker.probe_spacing),
    BL_CHOICE("breaker.half_open.close_when", breaker.close_when),
    BL_TOGGLE("breaker.half_open.reopen_on_first_failure", breaker.reopen_on_first_failure),
    BL_MICROS("timeout.attempt", timeout.attempt),
    BL_MICROS("timeout.total", timeout.total),
    BL_COUNT("retry.max_attempts", retry.max_attempts),
    BL_CHOICE("retry.backoff.kind", retry.backoff),
    BL_MICROS("retry.backoff.base", retry.base),
    BL_NUMBER("retry.backoff.multiplier", retry.multiplier),
    BL_MICROS("retry.backoff.max", retry.max),
    BL_CHOICE("retry.jitter", retry.jitter),
    BL_CHOICE("retry.mode", retry.mode),
    BL_CHOICE("retry.budget.scope", retry.budget.scope),
    BL_NUMBER("retry.throttling.max_tokens", retry.throttling.max_tokens),
    BL_NUMBER("retry.throttling.token_ratio", retry.throttling.token_ratio),
    BL_NUMBER("retry.concurrency_budget.budget_percent", retry.concurrency_budget.budget_percent),
    BL_COUNT("retry.concurrency_budget.min_retry_concurrency",
             retry.concurrency_budget.min_retry_concurrency),
    BL_NUMBER("client_throttling.k", client_throttling.k),
    BL_MICROS("client_throttling.window", client_throttling.window),
    BL_TOGGLE("fallback.cache.enabled", cache.enabled),
    BL_CHOICE("fallback.cache.scope", cache.scope),
    BL_MICROS("fallback.cache.ttl", cache.ttl),
    BL_CHOICE("pricing.mode", pricing.mode),
    BL_COUNT("pool.size", pool.size),
    BL_MICROS("pool.max_wait", pool.max_wait),
    BL_COUNT("workers.per_pod", workers.per_pod),
    BL_COUNT("workers.queue", workers.queue),
    BL_COUNT("load_balancer.pods", load_balancer.pods),
    BL_TOGGLE("load_balancer.health_check.enabled", load_balancer.health_check.enabled),
    BL_CHOICE("load_balancer.health_check.pool", load_balancer.health_check.pool),
};

#undef BL_COUNT
#undef BL_NUMBER
#undef BL_MICROS
#undef BL_TOGGLE
#undef BL_CHOICE
}  // namespace

std::span<const ConfigKey> configKeys() {
  return kKeys;
}

const ConfigKey* findConfigKey(std::string_view key) {
  for (const ConfigKey& k : kKeys)
    if (k.key == key) return &k;
  return nullptr;
}

const ConfigKey& configKey(std::string_view key) {
  const ConfigKey* k = findConfigKey(key);
  if (k == nullptr) std::abort();  // a table of the program names a key that is not here
  return *k;
}

}  // namespace breakerlab
