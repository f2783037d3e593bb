#pragma once
// The part every library model shares: the state it reports, its transitions, the calls it has
// released from waiting, and the failure episode that times a trip.
#include <cstdint>
#include <vector>

#include "breakerlab/core/breakers/breaker_types.h"

namespace breakerlab {

class BreakerModelBase {
 public:
  // The state as the library itself would report it right now (a lazy library still says open
  // after its wait has ended, until a call or result makes it look).
  BreakerState state() const { return state_; }
  const std::vector<BreakerTransition>& transitions() const { return transitions_; }
  // Tokens of held calls the breaker has answered since the caller last emptied this list. The
  // caller asks acquire() again for each, in order: the library re-runs them then.
  std::vector<std::uint32_t>& released() { return released_; }
  void forgetTransitions() { transitions_.clear(); }

 protected:
  void report(Micros now, BreakerState to, BreakerTransition::Cause cause,
              std::uint32_t window_calls = 0, std::uint32_t window_failures = 0) {
    BreakerTransition t{now, state_, to, cause};
    if (state_ == BreakerState::closed) {
      t.window_calls = window_calls;
      t.window_failures = window_failures;
      t.episode_start = episode_start_ == kNever ? now : episode_start_;
    }
    transitions_.push_back(t);
    state_ = to;
    if (to == BreakerState::closed) episode_start_ = kNever;
  }
  // A counted failure in the closed state of a call that started at `call_start`.
  void noteFailure(Micros call_start) {
    if (episode_start_ == kNever) episode_start_ = call_start;
  }
  void endEpisode() { episode_start_ = kNever; }

  BreakerState state_ = BreakerState::closed;
  std::vector<BreakerTransition> transitions_;
  std::vector<std::uint32_t> released_;
  Micros episode_start_ = kNever;
};

// Permits as the models hand them out.
inline BreakerPermit permitCall(std::uint32_t generation = 0, std::uint8_t kind = 0,
                                std::uint32_t slot = 0) {
  BreakerPermit p;
  p.permitted = true;
  p.kind = kind;
  p.probe_index = slot;
  p.generation = generation;
  return p;
}
inline BreakerPermit rejectCall() {
  return BreakerPermit{};
}
inline BreakerPermit holdCall() {
  BreakerPermit p;
  p.waiting = true;
  return p;
}

}  // namespace breakerlab
