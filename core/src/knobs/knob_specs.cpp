#include "breakerlab/core/knobs/knob_specs.h"

#include <cmath>

namespace breakerlab {

namespace {
using Kind = KnobSpec::Kind;

bool rateWindow(const Config& c) {
  return c.breaker.enabled && c.breaker.window_type != WindowType::consecutive;
}
std::vector<KnobChoice> libraryChoices() {
  std::vector<KnobChoice> choices;
  for (const auto& info : kBreakerLibraries) choices.push_back({info.key, info.title});
  return choices;
}

// Where a stateful part lives, spelled as kStateScopeNames spells it.
std::vector<KnobChoice> scopeChoices() {
  std::vector<KnobChoice> choices;
  for (const auto& [name, scope] : kStateScopeNames)
    choices.push_back({name, scope == StateScope::per_pod ? "One per pod" : "One for the fleet"});
  return choices;
}

// The fields after the tip, for an entry that sets its scale or what 0 means.
constexpr std::nullopt_t kAnyLibrary = std::nullopt;
constexpr auto kLog = KnobSpec::Scale::log;

bool breakerOn(const Config& c) {
  return c.breaker.enabled;
}
bool retrying(const Config& c) {
  return c.retry.max_attempts > 1;
}
bool boundedPool(const Config& c) {
  return c.pool.size > 0;
}
bool boundedWorkers(const Config& c) {
  return c.workers.per_pod > 0;
}
bool healthChecks(const Config& c) {
  return c.load_balancer.health_check.enabled;
}

std::vector<KnobSpec> ownSpecs();

// BreakerLab's own knobs, then each library's after the generic machine's: only one breaker's
// knobs show at a time.
const std::vector<KnobSpec>& specs() {
  static const std::vector<KnobSpec> all = [] {
    std::vector<KnobSpec> v = ownSpecs();
    // Each of BreakerLab's own knobs edits the key its id names, through the key's accessor.
    for (KnobSpec& k : v) k.key = &configKey(k.id);
    std::size_t after_generic = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string_view id = v[i].id;
      if (id.starts_with("breaker.") && id != "breaker.enabled" && id != "breaker.placement" &&
          id != "breaker.library" && id != "breaker.scope") {
        v[i].library = BreakerLibrary::breakerlab;
        after_generic = i + 1;
      }
    }
    std::vector<KnobSpec> natives = nativeKnobSpecs();
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(after_generic), natives.begin(),
             natives.end());
    return v;
  }();
  return all;
}

std::vector<KnobSpec> ownSpecs() {
  return {
      // Trip
      {"breaker.library", "Trip", "Breaker library", Kind::choice, "", 0, 6, 1, 0, libraryChoices(),
       nullptr,
       "Whose rules the breaker follows: BreakerLab's generic machine or a library's own state "
       "machine, with that library's settings"},
      {"breaker.enabled",
       "Trip",
       "Breaker enabled",
       Kind::toggle,
       "",
       0,
       1,
       1,
       0,
       {},
       nullptr,
       "Off: every call goes to the dependency"},
      {"breaker.placement",
       "Trip",
       "Placement",
       Kind::choice,
       "",
       0,
       1,
       1,
       0,
       {{"outside_retry", "Outside the retries"}, {"inside_retry", "Inside: every attempt"}},
       [](const Config& c) {
         return c.breaker.enabled && c.breaker.library != BreakerLibrary::envoy;
       },
       "outside_retry: the breaker sees each request once; inside_retry: every attempt"},
      {"breaker.scope", "Trip", "Breakers", Kind::choice, "", 0, 1, 1, 0, scopeChoices(), breakerOn,
       "per_pod: every pod keeps its own breaker and sees only the calls the load balancer sends "
       "it, as every library does in its process; shared: one breaker for the whole fleet (a "
       "distributed breaker)"},
      {"breaker.window.type",
       "Trip",
       "Window",
       Kind::choice,
       "",
       0,
       2,
       1,
       0,
       {{"count", "Last N calls"},
        {"time", "Last N seconds"},
        {"consecutive", "Failures in a row"}},
       breakerOn,
       "count: last N calls; time: last N seconds; consecutive: N failures in a row"},
      {"breaker.window.size",
       "Trip",
       "Window size",
       Kind::number,
       "",
       1,
       500,
       1,
       0,
       {},
       rateWindow,
       "Calls (count window) or seconds (time window)",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.min_calls",
       "Trip",
       "Minimum calls",
       Kind::number,
       "calls",
       1,
       500,
       1,
       0,
       {},
       rateWindow,
       "No failure rate is computed below this many calls",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.failure_rate",
       "Trip",
       "Failure threshold",
       Kind::number,
       "%",
       1,
       100,
       1,
       0,
       {},
       rateWindow,
       "Trips when this share of the window failed (at or above)"},
      {"breaker.consecutive_failures",
       "Trip",
       "Consecutive failures",
       Kind::number,
       "",
       1,
       100,
       1,
       0,
       {},
       [](const Config& c) {
         return c.breaker.enabled && c.breaker.window_type == WindowType::consecutive;
       },
       "Trips on this many failures in a row",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.slow_call.duration",
       "Trip",
       "Slow call",
       Kind::number,
       "ms",
       0,
       10000,
       10,
       0,
       {},
       rateWindow,
       "A call longer than this is slow; 0 turns the slow-call rule off",
       kAnyLibrary,
       nullptr,
       kLog,
       "off"},
      {"breaker.slow_call.rate",
       "Trip",
       "Slow-call threshold",
       Kind::number,
       "%",
       1,
       100,
       1,
       0,
       {},
       [](const Config& c) { return rateWindow(c) && c.breaker.slow_call_duration > 0; },
       "Trips when this share of the window was slow"},
      // Open interval
      {"breaker.open.interval",
       "Open interval",
       "Open interval",
       Kind::number,
       "s",
       0.5,
       120,
       0.5,
       1,
       {},
       breakerOn,
       "How long the breaker stays open before probing",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.open.backoff.multiplier",
       "Open interval",
       "Backoff",
       Kind::number,
       "×",
       1,
       10,
       0.1,
       1,
       {},
       breakerOn,
       "Each reopen in a row multiplies the interval by this"},
      {"breaker.open.backoff.max",
       "Open interval",
       "Cap",
       Kind::number,
       "s",
       0,
       600,
       1,
       0,
       {},
       [](const Config& c) { return c.breaker.enabled && c.breaker.backoff_multiplier > 1; },
       "The longest open interval backoff can reach",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.open.early_probe.enabled",
       "Open interval",
       "Early probe on health green",
       Kind::toggle,
       "",
       0,
       1,
       1,
       0,
       {},
       breakerOn,
       "Go half-open as soon as the health check is seen green"},
      {"breaker.open.early_probe.poll",
       "Open interval",
       "Health poll",
       Kind::number,
       "s",
       0.5,
       30,
       0.5,
       1,
       {},
       [](const Config& c) { return c.breaker.enabled && c.breaker.early_probe; },
       "How often the health check is read while open",
       kAnyLibrary,
       nullptr,
       kLog},
      // Half-open
      {"breaker.half_open.probes",
       "Half-open",
       "Probes",
       Kind::number,
       "calls",
       1,
       50,
       1,
       0,
       {},
       breakerOn,
       "Calls let through while half-open",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.half_open.spacing",
       "Half-open",
       "Probe spacing",
       Kind::number,
       "s",
       0,
       10,
       0.1,
       1,
       {},
       breakerOn,
       "Time between probes; 0: the next live calls",
       kAnyLibrary,
       nullptr,
       kLog},
      {"breaker.half_open.close_when",
       "Half-open",
       "Close when",
       Kind::choice,
       "",
       0,
       1,
       1,
       0,
       {{"all_succeed", "All probes succeed"}, {"rate", "Failure rate under threshold"}},
       breakerOn,
       "all_succeed: every probe must succeed; rate: probe failures under threshold"},
      {"breaker.half_open.reopen_on_first_failure",
       "Half-open",
       "Reopen on first failure",
       Kind::toggle,
       "",
       0,
       1,
       1,
       0,
       {},
       breakerOn,
       "Decide at the first failed probe instead of after all of them"},
      // Timeout
      {"timeout.attempt",
       "Timeout",
       "Call timeout",
       Kind::number,
       "ms",
       10,
       60000,
       10,
       0,
       {},
       nullptr,
       "A call that has not answered by then fails as a timeout",
       kAnyLibrary,
       nullptr,
       kLog},
      {"timeout.total",
       "Timeout",
       "Request deadline",
       Kind::number,
       "s",
       0,
       60,
       0.1,
       1,
       {},
       nullptr,
       "The whole retry loop, backoff included; 0: none",
       kAnyLibrary,
       nullptr,
       kLog,
       "no deadline"},
      // Retries
      {"retry.max_attempts",
       "Retries",
       "Attempts",
       Kind::number,
       "",
       1,
       10,
       1,
       0,
       {},
       nullptr,
       "Calls per request, the first included: 1 = no retries"},
      {"retry.backoff.kind",
       "Retries",
       "Backoff",
       Kind::choice,
       "",
       0,
       2,
       1,
       0,
       {{"none", "No wait"}, {"fixed", "Fixed"}, {"exponential", "Exponential"}},
       retrying,
       "Wait before a retry: none, the base, or base × multiplier^(n-1)"},
      {"retry.backoff.base",
       "Retries",
       "Backoff base",
       Kind::number,
       "ms",
       0,
       5000,
       10,
       0,
       {},
       retrying,
       "The first retry's wait (before jitter)",
       kAnyLibrary,
       nullptr,
       kLog},
      {"retry.backoff.multiplier",
       "Retries",
       "Backoff multiplier",
       Kind::number,
       "×",
       1,
       10,
       0.1,
       1,
       {},
       retrying,
       "Each further retry waits this many times longer"},
      {"retry.backoff.max",
       "Retries",
       "Backoff cap",
       Kind::number,
       "s",
       0,
       60,
       0.5,
       1,
       {},
       retrying,
       "The longest wait; 0: no cap",
       kAnyLibrary,
       nullptr,
       kLog,
       "no cap"},
      {"retry.jitter",
       "Retries",
       "Jitter",
       Kind::choice,
       "",
       0,
       3,
       1,
       0,
       {{"none", "None"}, {"full", "Full"}, {"equal", "Equal"}, {"decorrelated", "Decorrelated"}},
       retrying,
       "Randomises the wait so that clients do not retry in step"},
      {"retry.mode",
       "Retries",
       "Retry mode",
       Kind::choice,
       "",
       0,
       1,
       1,
       0,
       {{"in_request", "In the request"}, {"background", "In the background"}},
       retrying,
       "in_request: the worker waits through the backoff and every retry; background: the first "
       "attempt answers the checkout and the retries run off the request path"},
      {"retry.budget.scope", "Retries", "Retry budget", Kind::choice, "", 0, 1, 1, 0,
       scopeChoices(),
       [](const Config& c) {
         return retrying(c) && (c.retry.budget.ratio > 0 || c.retry.token_bucket.capacity > 0 ||
                                c.retry.throttling.max_tokens > 0);
       },
       "per_pod: every pod keeps its own retry budget, token bucket and throttling tokens "
       "(Finagle, the AWS SDKs, gRPC); shared: one account for the fleet"},
      {"retry.throttling.max_tokens",
       "Retries",
       "Throttling tokens",
       Kind::number,
       "",
       0,
       1000,
       1,
       0,
       {},
       retrying,
       "gRPC retry throttling (retryThrottling.maxTokens): a retryable failure takes a token, a "
       "success gives back the token ratio; retries stop while half the tokens or fewer are left",
       kAnyLibrary,
       nullptr,
       kLog,
       "off"},
      {"retry.throttling.token_ratio",
       "Retries",
       "Token ratio",
       Kind::number,
       "",
       0.001,
       10,
       0.001,
       3,
       {},
       [](const Config& c) { return retrying(c) && c.retry.throttling.max_tokens > 0; },
       "gRPC retry throttling (retryThrottling.tokenRatio): tokens a successful call gives back",
       kAnyLibrary,
       nullptr,
       kLog},
      // Client throttling
      {"client_throttling.k",
       "Client throttling",
       "Throttling K",
       Kind::number,
       "",
       0,
       10,
       0.1,
       1,
       {},
       nullptr,
       "SRE adaptive throttling: each pod refuses an attempt locally with probability "
       "(requests - K x accepts) / (requests + 1) over the window; the dependency then sees "
       "about K times what it accepts (2 in the SRE book)",
       kAnyLibrary,
       nullptr,
       KnobSpec::Scale::linear,
       "off"},
      {"client_throttling.window",
       "Client throttling",
       "Throttling window",
       Kind::number,
       "s",
       1,
       600,
       1,
       0,
       {},
       [](const Config& c) { return c.client_throttling.k > 0; },
       "The counts of requests and accepts cover this much of the past (two minutes in the SRE "
       "book)",
       kAnyLibrary,
       nullptr,
       kLog},
      // Fallback
      {"fallback.cache.enabled",
       "Fallback cache",
       "Serve cached prices",
       Kind::toggle,
       "",
       0,
       1,
       1,
       0,
       {},
       nullptr,
       "Off: a failed or rejected call fails the checkout"},
      {"fallback.cache.scope", "Fallback cache", "Caches", Kind::choice, "", 0, 1, 1, 0,
       scopeChoices(), [](const Config& c) { return c.cache.enabled; },
       "per_pod: every pod caches the prices it fetched itself (an in-process cache); shared: one "
       "cache for the fleet (Redis, memcached)"},
      {"fallback.cache.ttl",
       "Fallback cache",
       "Cache TTL",
       Kind::number,
       "s",
       0,
       600,
       1,
       0,
       {},
       [](const Config& c) { return c.cache.enabled; },
       "A cached price older than this is not served",
       kAnyLibrary,
       nullptr,
       kLog},
      {"pricing.mode",
       "Fallback cache",
       "Pricing",
       Kind::choice,
       "",
       0,
       1,
       1,
       0,
       {{"sync", "Fetch on every checkout"}, {"cache_first", "Cache first"}},
       nullptr,
       "sync: every checkout fetches the price; cache_first: a cached price younger than the TTL "
       "answers at once and is refreshed in the background"},
      // Pool and workers
      {"pool.size",
       "Pool and workers",
       "Connection pool",
       Kind::number,
       "",
       0,
       500,
       1,
       0,
       {},
       nullptr,
       "Connections to the dependency per pod; 0 = unlimited",
       kAnyLibrary,
       nullptr,
       kLog,
       "unlimited"},
      {"pool.max_wait",
       "Pool and workers",
       "Pool max wait",
       Kind::number,
       "s",
       0,
       30,
       0.1,
       1,
       {},
       boundedPool,
       "An attempt that waits this long for a connection fails as pool_exhausted; 0 = waits as "
       "long as it takes",
       kAnyLibrary,
       nullptr,
       kLog,
       "no limit"},
      {"workers.per_pod",
       "Pool and workers",
       "Workers per pod",
       Kind::number,
       "",
       0,
       1000,
       1,
       0,
       {},
       nullptr,
       "Checkouts a pod works on at once; 0 = unlimited",
       kAnyLibrary,
       nullptr,
       kLog,
       "unlimited"},
      {"workers.queue",
       "Pool and workers",
       "Worker queue",
       Kind::number,
       "",
       0,
       1000,
       1,
       0,
       {},
       boundedWorkers,
       "Checkouts that may wait for a worker; with the queue full a checkout fails at once (503)",
       kAnyLibrary,
       nullptr,
       kLog,
       "no queue"},
      {"load_balancer.pods",
       "Pool and workers",
       "Pods",
       Kind::number,
       "",
       1,
       100,
       1,
       0,
       {},
       nullptr,
       "Client pods behind the round-robin load balancer; the pool and the workers are per pod",
       kAnyLibrary,
       nullptr,
       kLog},
      {"load_balancer.health_check.enabled",
       "Pool and workers",
       "LB health checks",
       Kind::toggle,
       "",
       0,
       1,
       1,
       0,
       {},
       nullptr,
       "On: the load balancer checks each pod and takes it out of rotation after failed checks "
       "(shown in the Pods lane)"},
      {"load_balancer.health_check.pool",
       "Pool and workers",
       "Health checks answered by",
       Kind::choice,
       "",
       0,
       1,
       1,
       0,
       {{"shared", "The request workers"}, {"separate", "A pool of their own"}},
       healthChecks,
       "shared: the request workers (a check fails when every worker is busy); separate: a pool "
       "of its own"},
  };
}
}  // namespace

// The edge between a key's base unit and the knob's: a duration's microseconds shown in ms or
// s, converted as toSeconds and fromSeconds do.
double KnobSpec::get(const Config& config) const {
  if (key == nullptr) return own_get(config);
  const double base = key->get(config);
  if (key->unit != ConfigKey::Unit::micros) return base;
  const double seconds = base / kSecond;
  return unit == "ms" ? seconds * 1000 : seconds;
}

void KnobSpec::set(Config& config, double value) const {
  if (key == nullptr) return own_set(config, value);
  if (key->unit == ConfigKey::Unit::micros)
    value = static_cast<double>(fromSeconds(unit == "ms" ? value / 1000 : value));
  key->set(config, value);
}

bool knobShown(const KnobSpec& knob, const Config& config) {
  return !knob.library || *knob.library == config.breaker.library;
}

bool knobIsDuration(const KnobSpec& knob) {
  return knob.kind == KnobSpec::Kind::number && (knob.unit == "ms" || knob.unit == "s");
}

bool knobIsConfigKey(const KnobSpec& knob) {
  return knob.id.find(':') == std::string_view::npos;
}

std::span<const KnobSpec> knobSpecs() {
  return specs();
}

const KnobSpec* findKnob(std::string_view id) {
  for (const auto& k : specs())
    if (k.id == id) return &k;
  return nullptr;
}

}  // namespace breakerlab
