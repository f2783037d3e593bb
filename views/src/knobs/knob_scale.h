#pragma once
// The knob panel's arithmetic, without widgets: how a slider's positions map to a knob's values
// (evenly, or by ratio for ranges that span decades), and how a duration is shown ("33.2 s") and
// typed ("2s", "800 ms", "1.5 min"). Config values stay exact: these only choose positions and
// text.
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab::views {

class SliderScale {
 public:
  // Positions of a log slider, whatever its range: fine enough that one pixel of a wide slider
  // is never several positions' worth of value.
  static constexpr int kLogPositions = 1000;

  // `max`: the knob's max, or a config's value beyond it (the panel widens rather than clamps).
  SliderScale(const KnobSpec& knob, double max);
  explicit SliderScale(const KnobSpec& knob) : SliderScale(knob, knob.max) {}

  int lastPosition() const { return last_; }
  // The value at a position (clamped to the slider): the min at 0 (0 for a log knob whose min is
  // 0), the max at the last, and between them on the knob's step. A log slider's values are
  // rounded to three significant digits (on the step) so that a drag gives 33.2 s, not 33.24 s.
  double value(int position) const;
  // The position whose value is nearest to `value`; of several with the same value, the one the
  // ratio puts it at.
  int position(double value) const;

 private:
  double logValue(double position) const;  // unrounded
  double snap(double value) const;

  bool log_;
  double min_, max_, step_;
  int decimals_;
  bool zero_position_;  // log, min 0: position 0 is 0, the ratio starts at position 1
  double low_;          // log: the value at the ratio's first position
  int last_;
};

// A duration given in whole (or fractional) microseconds, exactly, in the largest unit that
// shows it with at most 3 decimals (h and min: 2): "800 ms", "33.2 s", "33.24 s", "2 min",
// "1.5 h", "1234.5 ms". 0 is "0 " + `zero_unit`.
std::string formatDuration(double micros, std::string_view zero_unit = "s");
// The unit formatDuration shows `micros` in: "h", "min", "s", "ms" or "µs" (`zero_unit` for 0).
std::string_view durationUnit(double micros, std::string_view zero_unit = "s");
// A typed duration in microseconds: a number (decimal point or comma) and a unit (µs, us, ms, s,
// sec, m, min, h; any case, spaces allowed); a bare number is in `bare_unit`. nullopt when it is
// not one, or negative.
std::optional<double> parseDuration(std::string_view text, std::string_view bare_unit);
// Whether `text` could still become a duration as the user goes on typing.
bool couldBeDuration(std::string_view text);

// A duration knob's value (in its unit, "ms" or "s") in microseconds, and back.
double knobMicros(const KnobSpec& knob, double value);
double knobValueOfMicros(const KnobSpec& knob, double micros);

}  // namespace breakerlab::views
