#pragma once
// What every breaker shares, the generic BreakerLab machine and the library models alike: its
// states, the transitions it reports, the permit a call carries from admission to its result,
// and how call outcomes are classified.
#include <cstdint>
#include <string_view>
#include <vector>

#include "breakerlab/core/outcome.h"
#include "breakerlab/core/time.h"

namespace breakerlab {

enum class BreakerState : std::uint8_t { closed, open, half_open };
std::string_view toString(BreakerState state);
// The breaker lane's state while the breaker is switched off (not a state of the machine: calls
// go straight through and nothing is counted).
inline constexpr std::string_view kBreakerDisabled = "disabled";

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
  } cause = Cause::failure_rate;
  // For trips: the window as it was, and when the first call of the failure episode started
  // (the first counted failure since the window last held none).
  std::uint32_t window_calls = 0;
  std::uint32_t window_failures = 0;
  Micros episode_start = 0;
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

// How a breaker sees a call's outcome. `failures` count against the dependency; `ignored` are
// neither success nor failure where the library has that notion (resilience4j
// ignoreExceptions, gobreaker IsExcluded, cockatiel's unhandled errors); everything else is a
// success. A client error is, by default, a business answer the application returns as a value.
struct OutcomeClassification {
  OutcomeSet failures{CallOutcome::failure, CallOutcome::timeout, CallOutcome::refused,
                      CallOutcome::server_error, CallOutcome::pool_exhausted};
  OutcomeSet ignored{};
  enum class Verdict : std::uint8_t { success, failure, ignored };
  Verdict classify(CallOutcome outcome) const {
    if (outcome == CallOutcome::failure) return Verdict::failure;  // every library counts it
    if (ignored.contains(outcome)) return Verdict::ignored;
    return failures.contains(outcome) ? Verdict::failure : Verdict::success;
  }
  // A log's `failure` always counts, listed or not.
  bool operator==(const OutcomeClassification& o) const {
    OutcomeSet a = failures, b = o.failures;
    a.insert(CallOutcome::failure);
    b.insert(CallOutcome::failure);
    return a == b && ignored == o.ignored;
  }
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
};

}  // namespace breakerlab
