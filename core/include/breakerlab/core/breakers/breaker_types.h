#pragma once
// What every breaker shares, the generic BreakerLab machine and the library models alike: its
// states, the transitions it reports and the permit a call carries from admission to its result
// (how outcomes are classified is basics/outcome.h's OutcomeClassification).
#include <cstdint>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/breaker_state.h"
#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

struct BreakerTransition {
  Micros at = 0;
  BreakerState from = BreakerState::closed;
  BreakerState to = BreakerState::closed;
  enum class Cause : std::uint8_t {
    failure_rate,      // closed -> open: failure rate at or above threshold
    slow_call_rate,    // closed -> open: slow-call rate at or above threshold
    consecutive,       // closed -> open: consecutive failures
    interval_elapsed,  // open -> half-open: open interval over (a timer)
    health_green,      // open -> half-open: early probe on health green
    probes_failed,     // half-open -> open
    probes_succeeded,  // half-open -> closed
    trip_rule,         // closed -> open: a library's own trip rule (ReadyToTrip, error rate, ...)
    first_call_after_wait,  // open -> half-open, lazily: the first call or result after the wait
    half_open_expired,      // half-open -> open/closed: resilience4j maxWaitDurationInHalfOpenState
    late_result,            // a result of a call from an earlier state decided it
    hosts_ejected,          // Envoy: fewer hosts take traffic
    hosts_returned,         // Envoy: more hosts take traffic
    pods_scaled,            // a fleet's breakers: pods entered or left service (FleetBreakers)
  } cause = Cause::failure_rate;
  // For trips: the window as it was, and when the first call of the failure episode started
  // (the first counted failure since the window last held none).
  std::uint32_t window_calls = 0;
  std::uint32_t window_failures = 0;
  // Envoy's trips (a host ejected): the multiplier of base_ejection_time this ejection got (one
  // more for each ejection before the last had decayed) and how long the host stays out: the
  // second walkthrough of issue #33 saw the ejections grow with nothing to say why. 0 otherwise.
  std::uint32_t ejection_multiplier = 0;
  Micros episode_start = 0;
  Micros ejection_length = 0;
};
std::string_view toString(BreakerTransition::Cause cause);

// What a breaker answered a call, and what the call must show it again with its result.
struct BreakerPermit {
  bool permitted = false;
  // Held: the breaker answers later (cockatiel's half-open waiters). The caller keeps the token
  // it passed to acquire() and asks again when the breaker releases it.
  bool waiting = false;
  bool probe = false;
  std::uint8_t kind = 0;          // model-specific (which state admitted the call, ...)
  std::uint32_t probe_index = 0;  // generic: index within its half-open spell; models: a slot
  std::uint32_t generation = 0;   // results from an older generation may be ignored
};

// Answers "is the dependency's health check green at time t?" for the early probe.
class HealthSignal {
 public:
  virtual ~HealthSignal() = default;
  virtual bool greenAt(Micros t) const = 0;
};

// One call of a call log: when the application made it, how long it ran once permitted, and
// what it ended in.
struct LoggedCall {
  Micros start = 0;
  Micros duration = 0;
  CallOutcome outcome = CallOutcome::success;
  std::uint32_t pod = 0;  // the client pod the load balancer routed the call to
};

}  // namespace breakerlab
