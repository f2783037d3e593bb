#pragma once
// connor4312/cockatiel 4.0.0 (src/CircuitBreakerPolicy.ts, src/breaker/*.ts, src/backoff/*.ts),
// call for call: half-open entered lazily at the first call after halfOpenAfter, extra callers
// held until the trial's verdict and then run again, results of calls that started closed fed to
// the breaker whatever the state is now, the closing success kept in the breaker's samples, and
// SamplingBreaker windows that rotate one slot per sample and start at the Unix epoch.
#include <cstdint>
#include <limits>
#include <vector>

#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/inputs/native/cockatiel_settings.h"

namespace breakerlab {

class CockatielModel : public BreakerModelBase {
 public:
  CockatielModel(const CockatielSettings& settings, Micros created_at);

  BreakerPermit acquire(Micros now, std::uint32_t token);
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration);
  Micros nextTimer() const { return kNever; }  // cockatiel reads Date.now(), it sets no timers
  void fireTimer() {}

 private:
  enum Kind : std::uint8_t { kClosedCall = 1, kTrial = 2 };

  BreakerPermit executeHalfOpen(std::uint32_t token);
  void open(Micros now, BreakerTransition::Cause cause);
  void close(Micros now, BreakerTransition::Cause cause);
  void releaseWaiters();
  void recordHalfOpenSuccess(Micros now, std::uint32_t trial_state);
  void recordHalfOpenFailure(Micros now, std::uint32_t trial_state);

  // The breaker (IBreaker): success(state) / failure(state) -> should open.
  enum class Seen : std::uint8_t { closed, half_open };
  void breakerSuccess(Micros now, Seen seen);
  bool breakerFailure(Micros now, Seen seen);
  void sample(bool success);
  void push(Micros now, bool success);
  void resetSamples();

  CockatielSettings settings_;

  // innerState
  Micros opened_at_ = 0;
  std::uint32_t backoff_step_ = 0;
  std::uint32_t attempt_no_ = 0;
  std::uint32_t half_open_id_ = 0;  // each half-open state is its own object
  std::uint32_t in_flight_ = 0;
  std::uint32_t trial_successes_ = 0;
  std::uint32_t trial_failures_ = 0;
  std::vector<std::uint32_t> waiters_;

  // ConsecutiveBreaker
  std::uint32_t consecutive_ = 0;
  // CountBreaker: 0 no sample, 1 success, 2 failure
  std::vector<std::uint8_t> samples_;
  std::size_t current_sample_ = 0;
  std::uint32_t successes_ = 0;
  std::uint32_t failures_ = 0;
  std::uint32_t minimum_calls_ = 0;
  // SamplingBreaker. A window's startedAt of 0 is the Unix epoch, earlier than any time of the
  // replay by more than a window in a real process.
  static constexpr Micros kUnixEpoch = std::numeric_limits<Micros>::min();
  struct Window {
    Micros started_at = kUnixEpoch;
    std::uint32_t failures = 0;
    std::uint32_t successes = 0;
  };
  std::vector<Window> windows_;
  std::size_t current_window_ = 0;
  Micros window_size_ = 0;
  double duration_ms_ = 0;
  double minimum_rpms_ = 0;
};

}  // namespace breakerlab
