#include "breakerlab/data/values.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

namespace breakerlab {

namespace {
struct ValueUnit {
  std::string_view name;
  Micros micros;
};
constexpr std::array<ValueUnit, 4> kValueUnits = {{
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
  const ValueUnit* unit = nullptr;
  for (const auto& u : kValueUnits)
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

namespace {
constexpr Micros kMinuteUs = 60 * kSecond;

int twoDigits(std::string_view s, std::size_t at) {
  if (at + 2 > s.size() || s[at] < '0' || s[at] > '9' || s[at + 1] < '0' || s[at + 1] > '9')
    return -1;
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// YYYY-MM-DD[T ]hh:mm[:ss[.fraction]][Z|+hh:mm|-hh:mm|+hhmm]; no zone is UTC.
std::optional<std::int64_t> parseIso8601(std::string_view s) {
  if (s.size() < 16 || s[4] != '-' || s[7] != '-' ||
      (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':')
    return std::nullopt;
  int year = 0;
  for (int i = 0; i < 4; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    year = year * 10 + (s[i] - '0');
  }
  const int month = twoDigits(s, 5), day = twoDigits(s, 8), hour = twoDigits(s, 11),
            minute = twoDigits(s, 14);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59)
    return std::nullopt;
  std::size_t i = 16;
  int second = 0;
  std::int64_t micros = 0;
  if (i < s.size() && s[i] == ':') {
    second = twoDigits(s, i + 1);
    if (second < 0 || second > 60) return std::nullopt;
    i += 3;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
      ++i;
      int taken = 0;
      const std::size_t begin = i;
      for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
        if (taken < 6) {
          micros = micros * 10 + (s[i] - '0');
          ++taken;
        }
      }
      if (i == begin) return std::nullopt;
      for (; taken < 6; ++taken) micros *= 10;
    }
  }
  std::int64_t offset_minutes = 0;
  if (i < s.size()) {
    if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == s.size()) {
      ++i;
    } else if (s[i] == '+' || s[i] == '-') {
      const int sign = s[i] == '-' ? -1 : 1;
      const int oh = twoDigits(s, i + 1);
      std::size_t j = i + 3;
      if (j < s.size() && s[j] == ':') ++j;
      const int om = twoDigits(s, j);
      if (oh < 0 || oh > 23 || om < 0 || om > 59 || j + 2 != s.size()) return std::nullopt;
      offset_minutes = sign * (oh * 60 + om);
      i = s.size();
    } else {
      return std::nullopt;
    }
  }
  if (i != s.size()) return std::nullopt;
  const std::int64_t days =
      daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t seconds =
      days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  return seconds * 1'000'000 + micros;
}

std::string twoDigitText(std::int64_t v) {
  return (v < 10 ? "0" : "") + std::to_string(v);
}
}  // namespace

std::optional<Micros> parseUtcTimestamp(std::string_view text, std::string* expected) {
  if (auto t = parseIso8601(text)) return *t;
  if (expected) *expected = "a UTC timestamp such as 2026-09-12T09:00:00Z";
  return std::nullopt;
}

std::optional<Micros> parseClockTime(std::string_view text, Micros clock_start,
                                     std::string* expected) {
  if (text.size() > 10)  // a whole timestamp
    if (auto t = parseIso8601(text)) return *t - clock_start;
  // hh:mm[:ss[.fraction]]
  const int hour = twoDigits(text, 0), minute = twoDigits(text, 3);
  bool ok =
      text.size() >= 5 && text[2] == ':' && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59;
  Micros of_day = 0;
  if (ok) {
    of_day = (hour * 3600LL + minute * 60LL) * kSecond;
    if (text.size() > 5) {
      const int second = twoDigits(text, 6);
      ok = text[5] == ':' && second >= 0 && second <= 59;
      of_day += second * kSecond;
      if (ok && text.size() > 8) {
        ok = text[8] == '.' && text.size() > 9 && text.size() <= 15;
        Micros fraction = 0;
        std::size_t digits = 0;
        for (std::size_t i = 9; ok && i < text.size(); ++i, ++digits) {
          ok = text[i] >= '0' && text[i] <= '9';
          fraction = fraction * 10 + (text[i] - '0');
        }
        for (; digits < 6; ++digits) fraction *= 10;
        of_day += fraction;
      }
    }
  }
  if (!ok) {
    if (expected)
      *expected = "a clock time (10:26, 10:26:30) or a UTC timestamp (2026-09-12T10:26:00Z)";
    return std::nullopt;
  }
  const Micros day = 86400 * kSecond;
  const Micros midnight =
      (clock_start >= 0 ? clock_start / day : (clock_start - day + 1) / day) * day;
  Micros t = midnight + of_day - clock_start;
  // An incident that runs past midnight: 00:30 on a 23:00 start is the next day.
  if (t < -day / 2) t += day;
  return t;
}

void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

std::string formatUtcTimestamp(Micros since_epoch) {
  const Micros day_us = 86400 * kSecond;
  const std::int64_t days =
      since_epoch >= 0 ? since_epoch / day_us : (since_epoch - day_us + 1) / day_us;
  const Micros of_day = since_epoch - days * day_us;
  std::int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  std::string out = std::to_string(y) + "-" + twoDigitText(m) + "-" + twoDigitText(d) + "T" +
                    formatClockTime(of_day);
  if (of_day % kMinuteUs == 0) out += ":00";
  return out + "Z";
}

std::string formatClockTime(Micros since_epoch) {
  const Micros day_us = 86400 * kSecond;
  Micros of_day = since_epoch % day_us;
  if (of_day < 0) of_day += day_us;
  const std::int64_t seconds = of_day / kSecond;
  std::string out = twoDigitText(seconds / 3600) + ":" + twoDigitText(seconds / 60 % 60);
  const Micros rest = of_day % kMinuteUs;
  if (rest == 0) return out;
  out += ":" + twoDigitText(seconds % 60);
  if (const Micros us = of_day % kSecond; us != 0) {
    std::string frac = std::to_string(us);
    frac.insert(0, 6 - frac.size(), '0');
    while (frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out;
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
