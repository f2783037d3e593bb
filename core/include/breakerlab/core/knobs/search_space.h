#pragma once
// The knobs a search or a sensitivity map turns, each over a range: which values it tries and
// how a point of the unit cube becomes a config.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab {

struct KnobRange {
  const KnobSpec* knob = nullptr;
  double low = 0;    // in the knob's unit (a toggle: 0/1; a choice: the first choice's index)
  double high = 0;   // inclusive
  bool log = false;  // spread by ratio (low > 0): 1..100 puts 10 in the middle
};

// The knob's whole range on the panel's scale: its slider's ends, by ratio for a log knob (from
// its step when the slider starts at 0, which a ratio cannot reach). `--knob KEY` alone and a
// knob added to the Tune dock start from it.
KnobRange wholeRange(const KnobSpec& knob);

// What is wrong with a range ("low must be positive on a log range"), or empty.
std::string rangeProblem(const KnobRange& range);

// The value at `unit` (0 = low, 1 = high), on the knob's step: a toggle is 0 or 1, a choice an
// index, a count a whole number, a number the nearest multiple of the knob's step (never outside
// [low, high]). Monotone in `unit`.
double valueAt(const KnobRange& range, double unit);
// Where `value` lies on the range, 0..1 (clamped); valueAt(unitOf(v)) == v for a value on the
// step inside the range.
double unitOf(const KnobRange& range, double value);
// `count` values spread evenly (or by ratio) from low to high, both included, without repeats
// (a knob with fewer distinct values on its step gives fewer).
std::vector<double> gridValues(const KnobRange& range, std::size_t count);

// `base` with each knob set to its value (in the order given). The result may not validate:
// callers check validate(config).
Config configWith(const Config& base, std::span<const KnobRange> knobs,
                  std::span<const double> values);

}  // namespace breakerlab
