#include "breakerlab/core/knobs/search_space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace breakerlab {

namespace {

double stepOf(const KnobRange& range) {
  if (range.knob == nullptr || range.knob->kind != KnobSpec::Kind::number) return 1;
  return range.knob->step > 0 ? range.knob->step : 0;
}

// The multiple of `step` nearest to `v`, written with no more decimals than the step has, so
// that a tuned 0.3 s is 0.3 and not 0.30000000000000004 in the config file.
double onStep(double v, double step) {
  if (step <= 0) return v;
  const double snapped = std::round(v / step) * step;
  const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  const double scale = std::pow(10.0, decimals);
  return std::round(snapped * scale) / scale;
}

}  // namespace

namespace {
std::string formatBound(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}
}  // namespace

KnobRange wholeRange(const KnobSpec& knob) {
  const bool log = knob.scale == KnobSpec::Scale::log;
  // The panel keeps 0 at the slider's first position; a search by ratio starts at the step.
  return KnobRange{&knob, log && knob.min <= 0 ? knob.step : knob.min, knob.max, log};
}

std::string rangeProblem(const KnobRange& range) {
  if (range.knob == nullptr) return "no knob";
  if (!std::isfinite(range.low) || !std::isfinite(range.high)) return "the range must be finite";
  if (range.low > range.high) return "the low end is above the high end";
  // The knob table's bounds are the model's: beyond them a duration overflows its microseconds.
  if (range.low < range.knob->min || range.high > range.knob->max) {
    std::string problem = "the range must lie within the knob's own, " +
                          formatBound(range.knob->min) + " to " + formatBound(range.knob->max);
    // Appended rather than concatenated: GCC 12 at -O3 warns falsely (-Wrestrict) on
    // `" " + std::string(unit)` (GCC bug 105329).
    if (!range.knob->unit.empty()) problem.append(" ").append(range.knob->unit);
    return problem;
  }
  if (range.log && range.low <= 0) return "a log range must start above 0";
  if (range.knob->kind != KnobSpec::Kind::number && range.log)
    return "only a number knob takes a log range";
  const double step = stepOf(range);
  if (step > 0 && onStep(range.low, step) > range.high &&
      std::ceil(range.low / step) * step > range.high)
    return "no value on the knob's step lies in the range";
  return {};
}

double valueAt(const KnobRange& range, double unit) {
  const double u = std::clamp(unit, 0.0, 1.0);
  const double raw = range.log ? range.low * std::pow(range.high / range.low, u)
                               : range.low + (range.high - range.low) * u;
  const double step = stepOf(range);
  double v = onStep(raw, step);
  // Rounding may leave the range: take the nearest step inside it.
  if (v < range.low)
    v = step > 0 ? onStep(std::ceil(range.low / step - 1e-9) * step, step) : range.low;
  if (v > range.high)
    v = step > 0 ? onStep(std::floor(range.high / step + 1e-9) * step, step) : range.high;
  return std::clamp(v, range.low, range.high);
}

double unitOf(const KnobRange& range, double value) {
  if (range.high <= range.low) return 0;
  const double v = std::clamp(value, range.low, range.high);
  if (range.log) return std::log(v / range.low) / std::log(range.high / range.low);
  return (v - range.low) / (range.high - range.low);
}

std::vector<double> gridValues(const KnobRange& range, std::size_t count) {
  std::vector<double> values;
  if (count == 0) return values;
  values.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double u = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
    const double v = valueAt(range, u);
    if (values.empty() || v != values.back()) values.push_back(v);
  }
  return values;
}

Config configWith(const Config& base, std::span<const KnobRange> knobs,
                  std::span<const double> values) {
  Config config = base;
  for (std::size_t i = 0; i < knobs.size() && i < values.size(); ++i)
    if (knobs[i].knob != nullptr && knobs[i].knob->editable())
      knobs[i].knob->set(config, values[i]);
  return config;
}

}  // namespace breakerlab
