#include "breakerlab/data/values.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <system_error>

namespace breakerlab {

namespace {
struct Unit {
  std::string_view name;
  Micros micros;
};
constexpr std::array<Unit, 4> kUnits = {{
    {"us", 1},
    {"ms", kMillisecond},
    {"s", kSecond},
    {"m", 60 * kSecond},
}};

// Splits "1.5ms" into "1.5" and "ms": the unit is the trailing run of letters.
std::pair<std::string_view, std::string_view> splitUnit(std::string_view text) {
  std::size_t i = text.size();
  while (i > 0 &&
         ((text[i - 1] >= 'a' && text[i - 1] <= 'z') || (text[i - 1] >= 'A' && text[i - 1] <= 'Z')))
    --i;
  // "1e3s": the exponent's 'e' is part of the number, never of a unit.
  return {text.substr(0, i), text.substr(i)};
}

void setExpected(std::string* expected, std::string text) {
  if (expected != nullptr) *expected = std::move(text);
}

std::optional<Micros> parseWithUnit(std::string_view text, bool allow_negative,
                                    std::string* expected, const char* what) {
  const auto [number_text, unit_text] = splitUnit(text);
  const Unit* unit = nullptr;
  for (const auto& u : kUnits)
    if (u.name == unit_text) unit = &u;
  const auto number = parseNumber(number_text);
  if (unit == nullptr || !number) {
    if (number && unit_text.empty()) {
      setExpected(expected,
                  "a " + std::string(what) + " with a unit (us, ms, s, m) such as 800ms or 1.5s");
    } else if (number) {
      setExpected(expected, "a " + std::string(what) +
                                " with one of the units us, ms, s, m (not '" +
                                std::string(unit_text) + "')");
    }
    return std::nullopt;
  }
  if (*number < 0 && !allow_negative) {
    setExpected(expected, "a non-negative " + std::string(what));
    return std::nullopt;
  }
  const double micros = *number * static_cast<double>(unit->micros);
  if (std::abs(micros) > static_cast<double>(kMaxDuration)) {
    setExpected(expected, "a " + std::string(what) + " of at most 1000000000s");
    return std::nullopt;
  }
  return static_cast<Micros>(std::llround(micros));
}
}  // namespace

std::optional<double> parseNumber(std::string_view text) {
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  // from_chars accepts "inf"/"nan" spellings only as non-finite, rejected above; it does not
  // accept hex without a prefix flag, so "0x10" fails too.
  return value;
}

std::optional<Micros> parseDuration(std::string_view text, std::string* expected) {
  return parseWithUnit(text, false, expected, "duration");
}

std::optional<Micros> parseTimePoint(std::string_view text, std::string* expected) {
  if (const auto seconds = parseNumber(text)) {
    if (std::abs(*seconds) > toSeconds(kMaxDuration)) {
      setExpected(expected, "a time of at most 1000000000s");
      return std::nullopt;
    }
    return fromSeconds(*seconds);
  }
  return parseWithUnit(text, true, expected, "time");
}

std::optional<double> parsePercent(std::string_view text, std::string* expected) {
  const bool has_sign = !text.empty() && text.back() == '%';
  const auto number = parseNumber(has_sign ? text.substr(0, text.size() - 1) : text);
  if (!has_sign) {
    if (number) setExpected(expected, "a percentage such as 50% (with the % sign)");
    return std::nullopt;
  }
  if (!number || *number < 0 || *number > 100) {
    if (number) setExpected(expected, "a percentage from 0% to 100%");
    return std::nullopt;
  }
  return *number;
}

std::string formatNumber(double v) {
  if (v == 0) return "0";  // also turns -0 into 0
  // Whole numbers as people write them: 1000000, not the shortest form 1e+06.
  if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  std::array<char, 64> buf{};
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  if (ec != std::errc()) return "0";
  return std::string(buf.data(), end);
}

std::string formatDuration(Micros d) {
  if (d % kSecond == 0) return std::to_string(d / kSecond) + "s";
  if (d % kMillisecond == 0) return std::to_string(d / kMillisecond) + "ms";
  return std::to_string(d) + "us";
}

std::string formatPercent(double pct) {
  return formatNumber(pct) + "%";
}

std::string formatSeconds(Micros t) {
  std::array<char, 48> buf{};
  const double s = toSeconds(t);
  // One decimal when it is exact, otherwise up to microseconds without trailing zeros.
  if (t % (kSecond / 10) == 0) {
    std::snprintf(buf.data(), buf.size(), "%.1f", s);
    return buf.data();
  }
  std::snprintf(buf.data(), buf.size(), "%.6f", s);
  std::string out = buf.data();
  while (out.back() == '0') out.pop_back();
  return out;
}

}  // namespace breakerlab
