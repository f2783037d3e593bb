#pragma once
// What the operators changed while the incident happened: at a time, some config keys take new
// values (`changes:` in the incident file); and what happened to the dependency meanwhile (a
// capacity cut, a slowdown: the `dependency.` keys, which are not the client's config). The keys
// that may change during a replay, and what a change does to the work already under way, are in
// one table (timedKeys()); docs/formats.md ("Timed changes") is written from it.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

enum class TimedKey : std::uint8_t {
  retry_max_attempts,
  retry_backoff_base,
  retry_backoff_multiplier,
  retry_backoff_max,
  retry_mode,
  timeout_attempt,
  timeout_total,
  pods,
  pool_size,
  pool_max_wait,
  breaker_enabled,
  cache_enabled,
  cache_ttl,
  dependency_capacity_scale,
  dependency_latency_scale,
};

// The range of a factor on the incident: the scenario's (scenario.*.scale) and the timed
// changes' dependency factors (dependency.*.scale).
inline constexpr double kFactorMin = 0.01;
inline constexpr double kFactorMax = 100;

// The dependency as the timed changes have it, beside the config in force: factors on what the
// incident (after its scenario) says, 1 leaving it as it says. The replay holds the ones in force
// and hands them to the dependency's model (latency) and servers (ceiling); the keys that set
// them are rows of timedKeys() with a getter and setter on this struct instead of the config's.
struct DependencyScales {
  double capacity = 1;  // dependency.capacity.scale: on the concurrency ceiling
  double latency = 1;   // dependency.latency.scale: on the latency each call draws
  bool operator==(const DependencyScales&) const = default;
};

struct TimedKeyInfo {
  TimedKey key;
  std::string_view name;  // the config file's dotted key, or a `dependency.` key
  enum class Kind : std::uint8_t { count, number, duration, toggle, retry_mode } kind;
  // A key of the client's config: its accessor (configKeys()); nullptr for a dependency key.
  double (*get)(const Config&);
  void (*set)(Config&, double);
  // A dependency key: the factor of DependencyScales it reads and writes, and the values it
  // takes ([min, max]); nullptr (and 0) for a config key.
  double (*get_dependency)(const DependencyScales&);
  void (*set_dependency)(DependencyScales&, double);
  double min, max;
  std::string_view semantics;  // what happens to the work under way when it changes
  bool onDependency() const { return get_dependency != nullptr; }
};

std::span<const TimedKeyInfo> timedKeys();
const TimedKeyInfo& timedKeyInfo(TimedKey key);
std::optional<TimedKey> timedKeyFromString(std::string_view name);
// "retry.max_attempts, retry.backoff.base, ..." for error messages.
std::string timedKeyList();

struct ConfigEdit {
  TimedKey key;
  double value;  // as TimedKeyInfo::get returns it (microseconds for durations, 0/1, an enum)
  bool operator==(const ConfigEdit&) const = default;
};

struct TimedChange {
  Micros at = 0;
  std::vector<ConfigEdit> edits;
  std::string label;
  bool enabled = true;  // the workbench's "what if this change had not been made"
  int line = 0;         // where the file wrote it, for reports
  bool operator==(const TimedChange& o) const {
    return at == o.at && edits == o.edits && label == o.label && enabled == o.enabled;
  }
};

// The config in force after `change` is applied to `config` (its config keys; the dependency
// keys set the DependencyScales below).
void applyChange(Config& config, const TimedChange& change);
// The dependency's factors in force after `change` is applied (its dependency keys).
void applyChange(DependencyScales& scales, const TimedChange& change);
// The configs a replay goes through: `deployed`, then after each enabled change in time order.
std::vector<Config> configsOverRun(const Config& deployed, const std::vector<TimedChange>& changes);

// The first problem with the changes of an incident whose window is [from, to] and whose
// deployed config is `deployed` (time outside the window, a dependency factor out of its range, a
// config a change makes invalid, a change the model cannot make mid-run), or an empty string.
// Whether the dependency has a ceiling to scale is the incident's check (validate(Incident)).
std::string validateChanges(const std::vector<TimedChange>& changes, const Config& deployed,
                            Micros from, Micros to);

// Changes in the order a replay applies them: by time, ties in file order.
std::vector<TimedChange> orderedChanges(const std::vector<TimedChange>& changes);

}  // namespace breakerlab
