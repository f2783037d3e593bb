#pragma once
// The value grammar shared by every file format (docs/formats.md, "Values").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// The largest duration or time point the formats accept: 10^9 s (about 31.7 years).
inline constexpr Micros kMaxDuration = 1'000'000'000 * kSecond;

// A finite decimal number ("40", "1.5", "-2", "1e3"). No unit, no leading '+'.
std::optional<double> parseNumber(std::string_view text);

// A non-negative duration with a unit: "250us", "800ms", "1.5s", "2m". Rounded to the nearest
// microsecond. On failure returns nullopt and, when `expected` is given, sets it to what was
// expected (e.g. "a duration with a unit (us, ms, s, m) such as 800ms").
std::optional<Micros> parseDuration(std::string_view text, std::string* expected = nullptr);

// A point on the incident timeline: a bare number of seconds ("11", "0.5") or a duration with
// a unit ("11s", "800ms"); may be negative.
std::optional<Micros> parseTimePoint(std::string_view text, std::string* expected = nullptr);

// A percentage between 0% and 100% written with '%': "50%", "12.5%". Returns the number of
// percent (50.0 for "50%"). A bare number is not a percentage.
std::optional<double> parsePercent(std::string_view text, std::string* expected = nullptr);

// A UTC timestamp "2026-09-12T09:00:00Z" (seconds optional, fractions to microseconds, 'Z' or
// "+00:00"; a space for the 'T'): microseconds since 1970-01-01T00:00:00Z.
std::optional<Micros> parseUtcTimestamp(std::string_view text, std::string* expected = nullptr);
// A wall-clock time on an incident that starts (t = 0) at `clock_start` (UTC, microseconds since
// the epoch): "10:26", "10:26:30", "10:26:30.5" (the first such time at or after the start's
// midnight, the next day if it is before the start's time of day by more than 12 hours), or a
// full UTC timestamp. Returns the incident time.
std::optional<Micros> parseClockTime(std::string_view text, Micros clock_start,
                                     std::string* expected = nullptr);
// y-m-d of a day count from 1970-01-01 (proleptic Gregorian; Howard Hinnant's civil_from_days).
void civilFromDays(std::int64_t days, std::int64_t& y, unsigned& m, unsigned& d);
std::string formatUtcTimestamp(Micros since_epoch);  // "2026-09-12T09:00:00Z"
std::string formatClockTime(Micros since_epoch);     // "09:46", "09:46:30", "09:46:30.25"

// Canonical forms that parse back to exactly the same value.
std::string formatDuration(Micros d);   // "0s", "20s", "800ms", "1500us"
std::string formatPercent(double pct);  // "50%", "12.5%"
std::string formatNumber(double v);     // shortest form that round-trips: "1", "1.5"
std::string formatSeconds(Micros t);    // a time point as seconds for reports: "11.0", "0.25"

}  // namespace breakerlab
