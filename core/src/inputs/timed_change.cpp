#include "breakerlab/core/inputs/timed_change.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "breakerlab/core/inputs/config_keys.h"

namespace breakerlab {

namespace {
using K = TimedKeyInfo::Kind;

// A key that may change during a replay: its name, how the incident writer prints it, and what
// happens to the work under way. In TimedKey's order. A config key's getter and setter are the
// config key's (configKeys(), in microseconds for a duration); a dependency key, which is not
// the client's config, has its own on DependencyScales, with its range.
struct Row {
  TimedKey key;
  std::string_view name;
  K kind;
  std::string_view semantics;
  double (*get_dependency)(const DependencyScales&) = nullptr;
  void (*set_dependency)(DependencyScales&, double) = nullptr;
  double min = 0, max = 0;
};

// The semantics are the model's (core/src/replay/timed_changes.cpp);
// tests/core/inputs/timed_change_test.cpp holds a case for each.
constexpr Row kRows[] = {
    {TimedKey::retry_max_attempts, "retry.max_attempts", K::count,
     "requests that arrive later use the new limit; a retry already scheduled whose attempt "
     "number is now over the limit is not made: when it comes due its request ends with the "
     "failure it was retrying"},
    {TimedKey::retry_backoff_base, "retry.backoff.base", K::duration,
     "retries scheduled later use it; those already scheduled keep their time"},
    {TimedKey::retry_backoff_multiplier, "retry.backoff.multiplier", K::number,
     "retries scheduled later use it; those already scheduled keep their time"},
    {TimedKey::retry_backoff_max, "retry.backoff.max", K::duration,
     "retries scheduled later use it; those already scheduled keep their time"},
    {TimedKey::retry_mode, "retry.mode", K::retry_mode,
     "a request keeps the mode it arrived under, with every retry it makes: requests that "
     "arrive later use the new mode"},
    {TimedKey::timeout_attempt, "timeout.attempt", K::duration,
     "calls in flight keep the timeout they were sent with; attempts sent later use the new one"},
    {TimedKey::timeout_total, "timeout.total", K::duration,
     "calls in flight keep their deadline; attempts sent later (retries too) use the new one"},
    {TimedKey::pods, "load_balancer.pods", K::count,
     "scaling up adds empty pods in rotation at once; scaling down takes the highest-numbered "
     "pods out of rotation at once: they take no new checkouts and finish what they hold "
     "(queued checkouts, calls, connections). Health checks start a new round at the change"},
    {TimedKey::pool_size, "pool.size", K::count,
     "growing serves waiting calls at once; shrinking below what is in use closes no "
     "connection: a connection given back while the pod holds more than the new size is "
     "closed instead of going to the next waiter. 0 is unlimited"},
    {TimedKey::pool_max_wait, "pool.max_wait", K::duration,
     "calls that start waiting later use it; those already waiting keep their deadline"},
    {TimedKey::breaker_enabled, "breaker.enabled", K::toggle,
     "switched on, a breaker starts closed with an empty window at the change; it sees only "
     "the calls that start after it (calls in flight finish unseen). Switched off, it admits "
     "everything and its timers stop; the lane shows it disabled"},
    {TimedKey::cache_enabled, "fallback.cache.enabled", K::toggle,
     "from the change on, fallbacks look in the cache or not; what it holds is kept"},
    {TimedKey::cache_ttl, "fallback.cache.ttl", K::duration,
     "every lookup from the change on uses the new TTL, for entries old and new"},
    {TimedKey::dependency_capacity_scale, "dependency.capacity.scale", K::number,
     "the dependency's concurrency ceiling (capacity.concurrency, after the scenario) times this "
     "factor, rounded, at least 1; 1 restores it. Calls in service or already queued keep their "
     "start and end, even over a lowered ceiling; a call that arrives later meets the new ceiling "
     "as the capacity model meets any: with discipline queue it waits, first come first served, "
     "until fewer calls than the ceiling are unfinished ahead of it (answered 503 once it would "
     "wait queue_timeout), with share its work stretches by the calls held over it. Needs a "
     "ceiling (discipline queue or share)",
     [](const DependencyScales& d) { return d.capacity; },
     [](DependencyScales& d, double v) { d.capacity = v; }, kFactorMin, kFactorMax},
    {TimedKey::dependency_latency_scale, "dependency.latency.scale", K::number,
     "calls that reach the dependency from the change on take the latency they draw (from their "
     "segment, or a request log) times this factor, rounded to the microsecond; 1 restores it. "
     "Calls in service or queued keep theirs; a refused connection fails as fast as before and a "
     "hung call still hangs",
     [](const DependencyScales& d) { return d.latency; },
     [](DependencyScales& d, double v) { d.latency = v; }, kFactorMin, kFactorMax},
};

const std::array<TimedKeyInfo, std::size(kRows)>& keys() {
  static const std::array<TimedKeyInfo, std::size(kRows)> table = [] {
    std::array<TimedKeyInfo, std::size(kRows)> out{};
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
      const Row& r = kRows[i];
      if (r.get_dependency != nullptr) {
        out[i] = {r.key, r.name, r.kind,     nullptr, nullptr, r.get_dependency, r.set_dependency,
                  r.min, r.max,  r.semantics};
        continue;
      }
      const ConfigKey& access = configKey(r.name);
      out[i] = {r.key, r.name, r.kind, access.get, access.set, nullptr, nullptr, 0, 0, r.semantics};
    }
    return out;
  }();
  return table;
}
// A factor as a message quotes it: 0.01, 0.5, 100 (up to 6 significant digits).
std::string formatFactor(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}
}  // namespace

std::span<const TimedKeyInfo> timedKeys() {
  return keys();
}

const TimedKeyInfo& timedKeyInfo(TimedKey key) {
  return keys()[static_cast<std::size_t>(key)];
}

std::optional<TimedKey> timedKeyFromString(std::string_view name) {
  for (const TimedKeyInfo& k : keys())
    if (k.name == name) return k.key;
  return std::nullopt;
}

std::string timedKeyList() {
  std::string out;
  for (const TimedKeyInfo& k : keys()) {
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

void applyChange(Config& config, const TimedChange& change) {
  for (const ConfigEdit& e : change.edits)
    if (const TimedKeyInfo& k = timedKeyInfo(e.key); !k.onDependency()) k.set(config, e.value);
}

void applyChange(DependencyScales& scales, const TimedChange& change) {
  for (const ConfigEdit& e : change.edits)
    if (const TimedKeyInfo& k = timedKeyInfo(e.key); k.onDependency())
      k.set_dependency(scales, e.value);
}

std::vector<TimedChange> orderedChanges(const std::vector<TimedChange>& changes) {
  std::vector<TimedChange> out;
  for (const TimedChange& c : changes)
    if (c.enabled) out.push_back(c);
  std::stable_sort(out.begin(), out.end(),
                   [](const TimedChange& a, const TimedChange& b) { return a.at < b.at; });
  return out;
}

std::vector<Config> configsOverRun(const Config& deployed,
                                   const std::vector<TimedChange>& changes) {
  std::vector<Config> out{deployed};
  for (const TimedChange& c : orderedChanges(changes)) {
    Config next = out.back();
    applyChange(next, c);
    out.push_back(std::move(next));
  }
  return out;
}

std::string validateChanges(const std::vector<TimedChange>& changes, const Config& deployed,
                            Micros from, Micros to) {
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const TimedChange& c = changes[i];
    const std::string name = "changes[" + std::to_string(i) + "]";
    if (c.at < from || c.at > to) return name + ".at must be within the window";
    if (c.edits.empty()) return name + ".set must set at least one key";
    for (const ConfigEdit& e : c.edits) {
      if (static_cast<std::size_t>(e.key) >= std::size(kRows) || !std::isfinite(e.value))
        return name + ".set has a value that is not a number";
      // Never clamped: a factor out of range is the input's mistake.
      if (const TimedKeyInfo& k = timedKeyInfo(e.key);
          k.onDependency() && !(e.value >= k.min && e.value <= k.max))
        return name + ".set: " + std::string(k.name) + " must be a factor from " +
               formatFactor(k.min) + " to " + formatFactor(k.max) + ", got " +
               formatFactor(e.value);
    }
  }
  const std::vector<Config> configs = configsOverRun(deployed, changes);
  for (std::size_t i = 1; i < configs.size(); ++i) {
    if (std::string problem = validate(configs[i]); !problem.empty())
      return "after the change at " + std::to_string(i) + " in time order: " + problem;
    const Config& c = configs[i];
    // A breaker that holds calls (cockatiel's half-open waiters) cannot be switched mid-run:
    // what it holds would have nowhere to go.
    if (c.breaker.enabled != deployed.breaker.enabled &&
        c.breaker.library == BreakerLibrary::cockatiel)
      return "breaker.enabled cannot change during a replay with cockatiel's breaker, which "
             "holds calls in half-open";
  }
  return {};
}

}  // namespace breakerlab
