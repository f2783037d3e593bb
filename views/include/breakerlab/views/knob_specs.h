#pragma once
// The knobs of the workbench: which config value each one edits, its range, step and unit.
// Ids are the config file's dotted keys (what `--set` takes), so an undo entry, a knob and a
// config line name the same thing.
#include <span>
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
};

std::span<const KnobSpec> knobSpecs();
const KnobSpec* findKnob(std::string_view id);

}  // namespace breakerlab::views
