#pragma once
// nodeshift/opossum 10.0.0 (lib/circuit.js, lib/status.js, lib/semaphore.js), call for call:
// every fire() counts in the window's denominator (rejections included), the trip is evaluated
// only on failures with a strict >, the window is never reset, buckets rotate on a timer from
// the breaker's creation, half-open is timer-driven and lets one call through, any success
// while half-open closes it and any failure reopens it, and opossum's own per-call timeout and
// capacity semaphore turn slow or excess calls into failures.
#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/inputs/native/opossum_settings.h"

namespace breakerlab {

// Node's setTimeout/setInterval: a delay below 1 ms or above 2^31 - 1 ms becomes 1 ms.
Micros nodeTimerDelay(Micros delay);

class OpossumModel : public BreakerModelBase {
 public:
  OpossumModel(const OpossumOptions& options, Micros created_at);

  BreakerPermit acquire(Micros now, std::uint32_t token);
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration);
  Micros nextTimer() const;
  Micros nextStateTimer() const { return reset_at_; }
  void fireTimer();
  // Bucket rotations due at or before `through` and before any other timer, all at once.
  bool skipIdleTimers(Micros through);

  // The rolling window's totals (stats.fires, stats.failures).
  std::uint64_t windowFires() const { return fires_; }
  std::uint64_t windowFailures() const { return failures_; }

 private:
  enum Kind : std::uint8_t { kRunning = 1, kProbe = 2 };
  struct Bucket {
    std::uint64_t fires = 0;
    std::uint64_t failures = 0;
  };
  struct CallTimer {
    Micros at;
    std::uint64_t seq;
    std::uint32_t slot;
    std::uint32_t generation;
    bool operator>(const CallTimer& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Slot {
    std::uint32_t generation = 0;
    bool active = false;
    bool timed_out = false;
    bool probe = false;
    Micros started = 0;
  };

  void fail(Micros now, Micros call_start, bool from_probe);
  void open(Micros now, BreakerTransition::Cause cause);
  void close(Micros now, BreakerTransition::Cause cause);
  void rotate();
  void success(Micros now, bool from_probe);
  void popStaleTimers() const;
  std::uint32_t takeSlot();

  OpossumOptions options_;
  Micros bucket_interval_;
  Micros reset_delay_;
  Micros timeout_delay_;  // 0 = no per-call timer
  bool pending_close_ = false;
  bool warming_up_;
  std::uint64_t in_use_ = 0;  // semaphore permits taken

  std::vector<Bucket> buckets_;  // buckets_[head_] is the current one
  std::size_t head_ = 0;
  std::uint64_t fires_ = 0;
  std::uint64_t failures_ = 0;

  // Timers, ordered by (time, the order they were set), as Node runs them.
  std::uint64_t seq_ = 0;
  Micros rotate_at_;
  std::uint64_t rotate_seq_;
  Micros warm_up_ends_ = kNever;
  std::uint64_t warm_up_seq_ = 0;
  Micros reset_at_ = kNever;
  std::uint64_t reset_seq_ = 0;
  // Timers of calls that have completed stay until they reach the top (mutable: nextTimer()
  // drops them so that it never reports a time at which nothing happens).
  mutable std::priority_queue<CallTimer, std::vector<CallTimer>, std::greater<>> call_timers_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
};

}  // namespace breakerlab
