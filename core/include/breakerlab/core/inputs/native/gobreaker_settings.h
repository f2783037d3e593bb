#pragma once
// gobreaker.Settings and the ReadyToTrip rules BreakerLab reads: the settings alone, which every
// config carries (inputs/config.h), apart from the state machine that runs them
// (breakers/libraries/gobreaker.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// gobreaker.Counts.
struct GobreakerCounts {
  std::uint32_t requests = 0;
  std::uint32_t total_successes = 0;
  std::uint32_t total_failures = 0;
  std::uint32_t total_exclusions = 0;
  std::uint32_t consecutive_successes = 0;
  std::uint32_t consecutive_failures = 0;
  bool operator==(const GobreakerCounts&) const = default;
};

enum class GobreakerField : std::uint8_t {
  requests,
  total_successes,
  total_failures,
  total_exclusions,
  consecutive_successes,
  consecutive_failures,
};
inline constexpr int kGobreakerFieldCount = 6;
// The field's bit in a term's mask.
inline constexpr std::uint8_t fieldBit(GobreakerField f) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(f));
}
std::string_view goName(GobreakerField field);  // "Requests", ...

enum class Comparison : std::uint8_t { lt, le, eq, ne, ge, gt };
std::string_view goOperator(Comparison op);  // "<", "<=", ...

// A ReadyToTrip body the way users write it: comparisons of Counts fields, sums of fields, or a
// float64 ratio of two such sums, against numbers, or of two scaled sums with each other, joined
// by &&, || and !. Terms are bit masks of GobreakerField (a sum). The forms:
//   plain    (denominator == 0):  numerator op value
//   ratio    (denominator != 0):  float64(numerator) / float64(denominator) op value
//   product  (product):           numerator * num_scale op denominator * den_scale
// `negated` is Go's !(...): it holds when the comparison does not, which for a NaN ratio (0/0)
// is not the same as the opposite comparison.
struct GobreakerCondition {
  std::uint8_t numerator = 0;
  std::uint8_t denominator = 0;
  Comparison op = Comparison::gt;
  double value = 0;
  bool negated = false;
  bool product = false;
  double num_scale = 1;
  double den_scale = 1;
  bool operator==(const GobreakerCondition&) const = default;
};
struct GobreakerTripRule {
  // No ReadyToTrip: the library's default, ConsecutiveFailures > 5.
  bool library_default = true;
  // Otherwise: any clause holds -> trip; a clause holds when all its conditions do (no clause:
  // `return false`; one empty clause: `return true`).
  std::vector<std::vector<GobreakerCondition>> any_of;
  bool operator==(const GobreakerTripRule&) const = default;
  bool evaluate(const GobreakerCounts& counts) const;
  static GobreakerTripRule consecutiveFailures(Comparison op, std::uint32_t n);
  // Requests >= min_requests && float64(TotalFailures)/float64(Requests) >= ratio.
  static GobreakerTripRule failureRatio(std::uint32_t min_requests, double ratio);
  // Over the calls that completed, as the generic machine counts its window (Requests also
  // counts calls still running): with total = TotalSuccesses + TotalFailures,
  // total >= min_calls && TotalFailures*100 >= pct*total.
  static GobreakerTripRule completedFailureRate(std::uint32_t min_calls, double pct);
};

// gobreaker.Settings. Zero values mean what they mean to the library: MaxRequests 0 -> 1,
// Timeout 0 -> 60 s, Interval 0 -> counts never cleared while closed, BucketPeriod 0 -> a fixed
// window. IsSuccessful / IsExcluded come from the classification: its failures are the errors
// IsSuccessful rejects, its ignored outcomes are the ones IsExcluded accepts.
struct GobreakerSettings {
  std::string name;
  std::uint32_t max_requests = 0;
  Micros interval = 0;
  Micros bucket_period = 0;
  Micros timeout = 0;
  GobreakerTripRule ready_to_trip;
  OutcomeClassification classification;
  bool operator==(const GobreakerSettings&) const = default;
};

}  // namespace breakerlab
