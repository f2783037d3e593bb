#pragma once
// The knobs a user turns (the workbench's panel, `tune --knob`, the sensitivity maps): which config
// value each one edits, its range, step and unit. Ids are the config file's dotted keys (what
// `--set` takes), so an undo entry, a knob, a tuned key and a config line name the same thing.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/config_keys.h"

namespace breakerlab {

// One value of a choice knob: its spelling in config files (what `--set` takes and the tooltip
// shows) and the name the panel shows for it.
struct KnobChoice {
  std::string_view id;
  std::string_view name;
};

struct KnobSpec {
  enum class Kind { number, toggle, choice };
  // How the slider spreads the range: evenly, or by ratio (each decade the same length), for
  // durations and counts that span decades. A log knob whose min is 0 keeps the slider's first
  // position for 0; the rest runs from the smallest positive value (the step) to the max.
  enum class Scale { linear, log };
  std::string_view id;
  std::string_view group;
  std::string_view label;
  Kind kind = Kind::number;
  std::string_view unit;  // shown in the spin box: "s", "ms", "%", "calls", ""
  double min = 0, max = 1, step = 1;
  int decimals = 0;
  std::vector<KnobChoice> choices;           // Kind::choice
  bool (*applies)(const Config&) = nullptr;  // nullptr: always; else greyed out when false
  std::string_view tip;
  // Whose breaker the knob belongs to: nullopt for every library (timeouts, retries, pool,
  // cache, and the breaker's enabled/placement/library), breakerlab for the generic machine, a
  // library for its own settings. The panel shows a knob only with its library chosen.
  std::optional<BreakerLibrary> library = std::nullopt;
  // The value as the config file writes it, for `--set` (nullptr: the number with the unit
  // suffix s, ms or %, as BreakerLab's own keys take it).
  std::string (*text)(double value) = nullptr;
  Scale scale = Scale::linear;
  // What 0 means when it is not a plain amount ("off", "unlimited", "no cap"): shown instead of
  // "0" and accepted when typed. Empty: 0 is shown as a number. Say only what the model does
  // with 0 (core/), never a guess.
  std::string_view zero = {};
  // What the knob edits. BreakerLab's own knobs: the config key named by `id`, through its one
  // accessor (configKeys()), whose microseconds the knob shows in `unit` (ms or s). A library's
  // knob: its own getter and setter, in the knob's unit (native_knob_specs.cpp).
  const ConfigKey* key = nullptr;
  double (*own_get)(const Config&) = nullptr;
  void (*own_set)(Config&, double) = nullptr;

  // The value in the knob's unit (number), 0/1 (toggle) or the choice's index.
  double get(const Config& config) const;
  void set(Config& config, double value) const;
  bool editable() const { return key != nullptr || (own_get != nullptr && own_set != nullptr); }
};

// Whether a number knob is a duration (unit "ms" or "s"): shown in its natural unit ("33.2 s",
// "800 ms", "2 min") and typed with any unit.
bool knobIsDuration(const KnobSpec& knob);

// Whether a knob is shown for the breaker `config` follows.
bool knobShown(const KnobSpec& knob, const Config& config);
// A knob's id names a config key that `--set` takes, unless it edits a part of one (an id with
// ':', such as "gobreaker.ReadyToTrip:ratio").
bool knobIsConfigKey(const KnobSpec& knob);

std::span<const KnobSpec> knobSpecs();
// The libraries' own knobs (native_knob_specs.cpp); part of knobSpecs().
std::vector<KnobSpec> nativeKnobSpecs();
const KnobSpec* findKnob(std::string_view id);

}  // namespace breakerlab
