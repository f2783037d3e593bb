#pragma once
// The parametric circuit breaker (docs/model.md, "Breaker semantics"). It sees only call
// admissions, call completions and the passage of time; the simulator and the breaker-only replay
// drive it.
#include <cstdint>
#include <vector>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/breakers/breaker_types.h"
#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

struct ProbeResult {
  Micros at = 0;
  std::uint32_t index = 0;  // 0-based within its half-open spell
  CallOutcome outcome = CallOutcome::success;
  bool counted_failure = false;
};

class CircuitBreaker {
 public:
  using Permit = BreakerPermit;
  static Permit admitted(std::uint32_t generation, bool probe = false, std::uint32_t index = 0) {
    Permit p = permitCall(generation, 0, index);
    p.probe = probe;
    return p;
  }

  explicit CircuitBreaker(const BreakerConfig& config, const HealthSignal* health = nullptr);

  BreakerState state() const { return state_; }
  // Continues with another config and health signal. Only for a breaker that never left the
  // closed state, and a config whose closed-state rules are the same (window, thresholds,
  // failure classes): the replay cache resumes a simulation at the window start with it.
  void rebind(const BreakerConfig& config, const HealthSignal* health) {
    config_ = config;
    health_ = health;
  }
  // The next time the breaker changes state by itself (open interval end, health poll).
  Micros nextTimer() const { return next_timer_; }
  // Fires the timer due at nextTimer(); call before anything else happens at or after it.
  void fireTimer();

  Permit acquire(Micros now) {
    if (state_ == BreakerState::closed) return admitted(generation_);
    if (state_ == BreakerState::open) return {};
    return acquireSlow(now);
  }
  void record(Micros now, const Permit& permit, CallOutcome outcome, Micros duration);

  const std::vector<BreakerTransition>& transitions() const { return transitions_; }
  void forgetTransitions() {
    transitions_.clear();
    probe_results_.clear();
  }
  const std::vector<ProbeResult>& probeResults() const { return probe_results_; }

 private:
  Permit acquireSlow(Micros now);
  void recordClosed(Micros now, bool failure, bool slow);
  void recordHalfOpen(Micros now, std::uint32_t index, CallOutcome outcome, bool failure,
                      bool slow);
  void transition(Micros now, BreakerState to, BreakerTransition::Cause cause);
  void scheduleOpenTimers(Micros now);
  void resetClosedWindow();
  Micros openInterval() const;

  BreakerConfig config_;
  const HealthSignal* health_;
  BreakerState state_ = BreakerState::closed;
  std::uint32_t generation_ = 0;
  Micros next_timer_ = kNever;

  // Closed-state window. Count: a ring of outcome flags. Time: one bucket per second.
  // Consecutive: only the running count.
  struct Bucket {
    std::int64_t second = -1;
    std::uint32_t calls = 0;
    std::uint32_t failures = 0;
    std::uint32_t slow = 0;
  };
  std::vector<std::uint8_t> ring_;  // bit 0 failure, bit 1 slow
  std::vector<Bucket> buckets_;
  std::uint32_t ring_next_ = 0;
  std::uint32_t window_calls_ = 0;
  std::uint32_t window_failures_ = 0;
  std::uint32_t window_slow_ = 0;
  std::uint32_t consecutive_ = 0;
  std::int64_t head_second_ = 0;  // time window: the newest bucket's second
  Micros episode_start_ = kNever;

  // Open state.
  std::uint32_t opens_in_a_row_ = 0;
  Micros open_until_ = kNever;
  Micros next_poll_ = kNever;

  // Half-open state.
  Micros half_open_since_ = 0;
  std::uint32_t probes_admitted_ = 0;
  std::uint32_t probes_done_ = 0;
  std::uint32_t probe_failures_ = 0;
  std::uint32_t probe_slow_ = 0;

  std::vector<BreakerTransition> transitions_;
  std::vector<ProbeResult> probe_results_;
};

// Feeds a call log straight through one breaker: the check against other implementations.
struct BreakerReplay {
  std::vector<bool> permitted;  // per call, in log order
  std::vector<BreakerTransition> transitions;
};

// Calls must be sorted by start. A permitted call's outcome is recorded at start + duration;
// completions come before admissions at the same instant.
BreakerReplay replayBreaker(const BreakerConfig& config, const std::vector<LoggedCall>& calls);

}  // namespace breakerlab
