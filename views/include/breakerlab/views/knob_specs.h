#pragma once
// The knobs of the workbench: which config value each one edits, its range, step and unit.
// Ids are the config file's dotted keys (what `--set` takes), so an undo entry, a knob and a
// config line name the same thing.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/config.h"

namespace breakerlab::views {

struct KnobSpec {
  enum class Kind { number, toggle, choice };
  std::string_view id;
  std::string_view group;
  std::string_view label;
  Kind kind = Kind::number;
  std::string_view unit;  // shown in the spin box: "s", "ms", "%", "calls", ""
  double min = 0, max = 1, step = 1;
  int decimals = 0;
  std::vector<std::string_view> choices;   // Kind::choice, as written in config files
  double (*get)(const Config&) = nullptr;  // number: value; toggle: 0/1; choice: index
  void (*set)(Config&, double) = nullptr;
  bool (*applies)(const Config&) = nullptr;  // nullptr: always; else greyed out when false
  std::string_view tip;
  // Whose breaker the knob belongs to: nullopt for every library (timeouts, retries, pool,
  // cache, and the breaker's enabled/placement/library), breakerlab for the generic machine, a
  // library for its own settings. The panel shows a knob only with its library chosen.
  std::optional<BreakerLibrary> library = std::nullopt;
  // The value as the config file writes it, for `--set` (nullptr: the number with the unit
  // suffix s, ms or %, as BreakerLab's own keys take it).
  std::string (*text)(double value) = nullptr;
};

// Whether a knob is shown for the breaker `config` follows.
bool knobShown(const KnobSpec& knob, const Config& config);
// A knob's id names a config key that `--set` takes, unless it edits a part of one (an id with
// ':', such as "gobreaker.ReadyToTrip:ratio").
bool knobIsConfigKey(const KnobSpec& knob);

std::span<const KnobSpec> knobSpecs();
// The libraries' own knobs (native_knob_specs.cpp); part of knobSpecs().
std::vector<KnobSpec> nativeKnobSpecs();
const KnobSpec* findKnob(std::string_view id);

}  // namespace breakerlab::views
