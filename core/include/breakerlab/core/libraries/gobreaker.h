#pragma once
// sony/gobreaker v2.4 (v2/gobreaker.go, v2/counter.go), call for call: lazy state changes in
// currentState(), the generation rule, rolling buckets keyed by the request's start age, a
// strict expiry test, and ReadyToTrip asked only on a failure in the closed state.
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/breaker_model_base.h"

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

class GobreakerModel : public BreakerModelBase {
 public:
  GobreakerModel(const GobreakerSettings& settings, Micros created_at);

  BreakerPermit acquire(Micros now, std::uint32_t token);
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration);
  Micros nextTimer() const { return kNever; }  // gobreaker has no timers
  void fireTimer() {}

  const GobreakerCounts& counts() const { return counts_; }

 private:
  void currentState(Micros now);
  void setState(BreakerState to, Micros now, BreakerTransition::Cause cause);
  void toNewGeneration(Micros now);
  std::uint64_t ageAt(Micros now) const;

  // rollingCounts (v2/counter.go).
  void clearCounts();
  void grow(std::uint64_t age);
  void roll();
  void subtract(std::uint64_t oldest);
  bool inWindow(std::uint64_t age) const;
  std::size_t index(std::uint64_t age) const {
    return buckets_.empty() ? 0 : static_cast<std::size_t>(age % buckets_.size());
  }

  GobreakerSettings settings_;
  std::uint32_t max_requests_;
  Micros interval_;
  Micros bucket_period_;
  Micros timeout_;
  bool consecutive_rule_;  // the trip rule looks only at ConsecutiveFailures (for the episode)

  std::uint64_t generation_ = 0;
  Micros start_ = 0;
  Micros expiry_ = 0;
  bool expiry_zero_ = true;

  GobreakerCounts counts_;
  std::uint64_t age_ = 0;
  std::vector<GobreakerCounts> buckets_;
};

}  // namespace breakerlab
