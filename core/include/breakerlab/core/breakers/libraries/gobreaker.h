#pragma once
// sony/gobreaker v2.4 (v2/gobreaker.go, v2/counter.go), call for call: lazy state changes in
// currentState(), the generation rule, rolling buckets keyed by the request's start age, a
// strict expiry test, and ReadyToTrip asked only on a failure in the closed state.
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/inputs/native/gobreaker_settings.h"

namespace breakerlab {

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
