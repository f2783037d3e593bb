#include "knobs/knob_scale.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace breakerlab::views {

namespace {

double roundTo(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

struct DurationUnit {
  std::string_view name;
  double micros;
  int decimals;  // the most a value is shown with in this unit
};
// Largest first.
constexpr std::array<DurationUnit, 5> kUnits = {{
    {"h", 3600e6, 2},
    {"min", 60e6, 2},
    {"s", 1e6, 3},
    {"ms", 1e3, 3},
    {"µs", 1, 3},
}};

const DurationUnit& unitFor(double micros) {
  const double magnitude = std::abs(micros);
  for (const DurationUnit& u : kUnits) {
    if (magnitude < u.micros) continue;
    // Exactly representable with the unit's decimals (but for a double's rounding).
    const double scaled = magnitude / u.micros * std::pow(10.0, u.decimals);
    if (std::abs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, scaled)) return u;
  }
  return kUnits.back();
}

std::string trimmedNumber(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::optional<double> unitMicros(std::string_view unit) {
  std::string u;
  for (char c : unit) u += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (u == "us" || u == "µs" || u == "\xce\xbcs") return 1.0;  // micro sign or Greek mu
  if (u == "ms") return 1e3;
  if (u == "s" || u == "sec" || u == "secs") return 1e6;
  if (u == "m" || u == "min" || u == "mins") return 60e6;
  if (u == "h" || u == "hr" || u == "hrs") return 3600e6;
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

SliderScale::SliderScale(const KnobSpec& knob, double max)
    : log_(knob.scale == KnobSpec::Scale::log && knob.step > 0 && max > 0),
      min_(knob.min),
      max_(std::max(max, knob.min)),
      step_(knob.step > 0 ? knob.step : 1),
      decimals_(knob.decimals),
      zero_position_(log_ && knob.min <= 0),
      low_(zero_position_ ? step_ : knob.min),
      last_(0) {
  if (log_ && low_ >= max_) log_ = zero_position_ = false;
  last_ =
      log_ ? kLogPositions : static_cast<int>(std::lround(std::max(0.0, (max_ - min_) / step_)));
  if (!log_ && min_ + last_ * step_ < max_ - 1e-9 * std::max(1.0, max_)) ++last_;  // a widened max
}

double SliderScale::logValue(double position) const {
  const double first = zero_position_ ? 1 : 0;
  const double t = (position - first) / (last_ - first);
  return low_ * std::pow(max_ / low_, t);
}

double SliderScale::snap(double value) const {
  // Three significant digits, on a multiple of the step.
  const double magnitude = std::pow(10.0, std::floor(std::log10(value)) - 2);
  const double quantum = step_ * std::max(1.0, std::round(magnitude / step_));
  value = std::round(value / quantum) * quantum;
  return std::clamp(roundTo(value, decimals_), low_, max_);
}

double SliderScale::value(int position) const {
  position = std::clamp(position, 0, last_);
  if (position == last_) return max_;
  if (position == 0) return min_;
  if (!log_) return std::min(max_, roundTo(min_ + position * step_, decimals_));
  if (zero_position_ && position == 1) return low_;
  return snap(logValue(position));
}

int SliderScale::position(double value) const {
  if (value >= max_) return last_;
  if (value <= min_) return 0;
  if (!log_) return std::clamp(static_cast<int>(std::lround((value - min_) / step_)), 0, last_);
  const int first = zero_position_ ? 1 : 0;
  if (value <= low_) return first;
  const double estimate = first + std::log(value / low_) / std::log(max_ / low_) * (last_ - first);
  const int around = static_cast<int>(std::lround(estimate));
  int best = std::clamp(around, first, last_);
  for (int p = std::max(first, around - 2); p <= std::min(last_, around + 2); ++p) {
    const double miss = std::abs(this->value(p) - value);
    const double best_miss = std::abs(this->value(best) - value);
    if (miss < best_miss ||
        (miss == best_miss && std::abs(p - estimate) < std::abs(best - estimate)))
      best = p;
  }
  return best;
}

std::string_view durationUnit(double micros, std::string_view zero_unit) {
  if (micros == 0) return zero_unit;
  return unitFor(micros).name;
}

std::string formatDuration(double micros, std::string_view zero_unit) {
  if (micros == 0) return "0 " + std::string(zero_unit);
  const DurationUnit& u = unitFor(micros);
  return trimmedNumber(micros / u.micros, u.decimals) + " " + std::string(u.name);
}

std::optional<double> parseDuration(std::string_view text, std::string_view bare_unit) {
  text = trim(text);
  std::string number;
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
      number += c;
    else if (c == ',')
      number += '.';
    else
      break;
  }
  if (number.empty() || number == ".") return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc() || end != number.data() + number.size()) return std::nullopt;
  const std::string_view unit = trim(text.substr(i));
  const std::optional<double> scale = unitMicros(unit.empty() ? bare_unit : unit);
  if (!scale) return std::nullopt;
  return value * *scale;
}

bool couldBeDuration(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!(std::isdigit(u) || std::isalpha(u) || std::isspace(u) || c == '.' || c == ',' ||
          u >= 0x80))
      return false;
  }
  return true;
}

double knobMicros(const KnobSpec& knob, double value) {
  return knob.unit == "ms" ? value * 1e3 : value * 1e6;
}

double knobValueOfMicros(const KnobSpec& knob, double micros) {
  return knob.unit == "ms" ? micros / 1e3 : micros / 1e6;
}

}  // namespace breakerlab::views
