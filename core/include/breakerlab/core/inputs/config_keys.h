#pragma once
// Every key of BreakerLab's own config that something edits as a number (a knob, a timed
// change), with the one getter and setter of its field: read and written in the key's base
// unit, whatever the editor shows. Durations are microseconds, toggles 0 or 1, choices the
// enum's index, counts and numbers as the config holds them. The knob table (knob_specs.cpp,
// durations in ms or s) and the timed-change table (timed_change.cpp, microseconds) take their
// getters and setters from here and convert units at their edges.
#include <cstdint>
#include <span>
#include <string_view>

#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

struct ConfigKey {
  std::string_view key;  // the config file's dotted key, what `--set` takes
  enum class Unit : std::uint8_t { count, number, micros, toggle, choice } unit;
  double (*get)(const Config&);
  void (*set)(Config&, double);
};

std::span<const ConfigKey> configKeys();
// The accessor of `key`, or nullptr.
const ConfigKey* findConfigKey(std::string_view key);
// The accessor of a key the caller knows is in the table (std::abort otherwise: a typo in a
// table of the program, not an input).
const ConfigKey& configKey(std::string_view key);

}  // namespace breakerlab
