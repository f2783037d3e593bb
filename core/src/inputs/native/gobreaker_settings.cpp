#include "breakerlab/core/inputs/native/gobreaker_settings.h"

#include <array>

namespace breakerlab {

namespace {

std::uint32_t fieldValue(const GobreakerCounts& c, GobreakerField f) {
  switch (f) {
    case GobreakerField::requests:
      return c.requests;
    case GobreakerField::total_successes:
      return c.total_successes;
    case GobreakerField::total_failures:
      return c.total_failures;
    case GobreakerField::total_exclusions:
      return c.total_exclusions;
    case GobreakerField::consecutive_successes:
      return c.consecutive_successes;
    case GobreakerField::consecutive_failures:
      return c.consecutive_failures;
  }
  return 0;
}

// A sum of fields in uint32 arithmetic, as Go adds them.
std::uint32_t sumOf(const GobreakerCounts& c, std::uint8_t mask) {
  std::uint32_t sum = 0;
  for (int f = 0; f < kGobreakerFieldCount; ++f)
    if (mask & (1u << f)) sum += fieldValue(c, static_cast<GobreakerField>(f));
  return sum;
}

bool compare(double a, Comparison op, double b) {
  switch (op) {
    case Comparison::lt:
      return a < b;
    case Comparison::le:
      return a <= b;
    case Comparison::eq:
      return a == b;
    case Comparison::ne:
      return a != b;
    case Comparison::ge:
      return a >= b;
    case Comparison::gt:
      return a > b;
  }
  return false;
}

}  // namespace

std::string_view goName(GobreakerField field) {
  constexpr std::array<std::string_view, kGobreakerFieldCount> kNames = {
      "Requests",        "TotalSuccesses",       "TotalFailures",
      "TotalExclusions", "ConsecutiveSuccesses", "ConsecutiveFailures"};
  return kNames[static_cast<std::size_t>(field)];
}

std::string_view goOperator(Comparison op) {
  constexpr std::array<std::string_view, 6> kOps = {"<", "<=", "==", "!=", ">=", ">"};
  return kOps[static_cast<std::size_t>(op)];
}

bool GobreakerTripRule::evaluate(const GobreakerCounts& counts) const {
  if (library_default) return counts.consecutive_failures > 5;  // defaultReadyToTrip
  for (const auto& clause : any_of) {
    bool all = true;
    for (const GobreakerCondition& c : clause) {
      double left;
      double right = c.value;
      if (c.product) {
        left = static_cast<double>(sumOf(counts, c.numerator)) * c.num_scale;
        right = static_cast<double>(sumOf(counts, c.denominator)) * c.den_scale;
      } else if (c.denominator == 0) {
        left = sumOf(counts, c.numerator);
      } else {
        // float64(a) / float64(b): 0/0 is NaN (never true but for !=), x/0 is +Inf.
        left = static_cast<double>(sumOf(counts, c.numerator)) /
               static_cast<double>(sumOf(counts, c.denominator));
      }
      if (compare(left, c.op, right) == c.negated) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

GobreakerTripRule GobreakerTripRule::consecutiveFailures(Comparison op, std::uint32_t n) {
  return {false,
          {{GobreakerCondition{fieldBit(GobreakerField::consecutive_failures), 0, op,
                               static_cast<double>(n)}}}};
}

GobreakerTripRule GobreakerTripRule::failureRatio(std::uint32_t min_requests, double ratio) {
  return {false,
          {{GobreakerCondition{fieldBit(GobreakerField::requests), 0, Comparison::ge,
                               static_cast<double>(min_requests)},
            GobreakerCondition{fieldBit(GobreakerField::total_failures),
                               fieldBit(GobreakerField::requests), Comparison::ge, ratio}}}};
}

GobreakerTripRule GobreakerTripRule::completedFailureRate(std::uint32_t min_calls, double pct) {
  constexpr std::uint8_t kTotal =
      fieldBit(GobreakerField::total_successes) | fieldBit(GobreakerField::total_failures);
  GobreakerCondition enough{kTotal, 0, Comparison::ge, static_cast<double>(min_calls)};
  GobreakerCondition rate{fieldBit(GobreakerField::total_failures), kTotal, Comparison::ge, 0};
  rate.product = true;
  rate.num_scale = 100;
  rate.den_scale = pct;
  return {false, {{enough, rate}}};
}

}  // namespace breakerlab
