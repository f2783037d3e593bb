#pragma once
// The client fleet's breakers: one shared by every pod (`breaker.scope: shared`, a distributed
// breaker), or one per pod, as every library keeps it in its process (`per_pod`). The simulation
// asks the breaker of a call's pod; this class keeps the breakers' next timers in order so that
// the event loop sees one next timer whatever the fleet's size, and fires them in time order
// (equal times: the lowest pod first).
//
// With one breaker (shared scope, or a fleet of one pod) every call goes straight to it: the
// timer heap is never used, and a run is the run of the single-breaker simulator bit for bit.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "breakerlab/core/breakers/breaker_model.h"

namespace breakerlab {

class BreakerFleet {
 public:
  BreakerFleet(const BreakerConfig& generic, const NativeBreakers& native,
               const HealthSignal* health, Micros created_at, std::uint32_t count)
      : breakers_(std::max<std::uint32_t>(count, 1), Breaker(generic, native, health, created_at)),
        born_(breakers_.size(), std::numeric_limits<Micros>::min()) {
    if (breakers_.size() > 1) {
      scheduled_.assign(breakers_.size(), kNever);
      listed_.assign(breakers_.size(), 0);
      for (std::uint32_t i = 0; i < breakers_.size(); ++i) touched(i);
    }
  }

  std::uint32_t size() const { return static_cast<std::uint32_t>(breakers_.size()); }
  bool single() const { return breakers_.size() == 1; }

  // The breaker that decides for `pod` (pod 0's is the shared one).
  std::uint32_t indexOf(std::uint16_t pod) const { return single() ? 0u : pod; }
  const Breaker& of(std::uint16_t pod) const { return breakers_[indexOf(pod)]; }
  const Breaker& at(std::uint32_t i) const { return breakers_[i]; }
  const Breaker& first() const { return breakers_.front(); }

  BreakerPermit acquire(std::uint16_t pod, Micros now, std::uint32_t token = 0) {
    const std::uint32_t i = indexOf(pod);
    const BreakerPermit permit = breakers_[i].acquire(now, token);
    touched(i);
    return permit;
  }
  void record(std::uint16_t pod, Micros now, const BreakerPermit& permit, CallOutcome outcome,
              Micros duration) {
    const std::uint32_t i = indexOf(pod);
    breakers_[i].record(now, permit, outcome, duration);
    touched(i);
  }
  void connected(std::uint16_t pod, Micros now, const BreakerPermit& permit) {
    const std::uint32_t i = indexOf(pod);
    breakers_[i].connected(now, permit);
    touched(i);
  }

  // When the pod's breaker was made: a call that started before it belongs to an earlier one
  // (a pod scaled in and out again, or a breaker switched on) and is not recorded.
  Micros bornAt(std::uint16_t pod) const { return born_[indexOf(pod)]; }
  void setBorn(Micros at) { born_.assign(born_.size(), at); }

  // The earliest timer of any breaker.
  Micros nextTimer() const {
    if (single()) return breakers_.front().nextTimer();
    dropStale();
    return timers_.empty() ? kNever : timers_.front().at;
  }

  // Moves the due breaker's idle periodic timers up to `through` (Breaker::skipIdleTimers); the
  // other breakers' timers cannot touch it. Call only when nextTimer() is due.
  bool skipIdleTimers(Micros through) {
    const std::uint32_t i = due();
    const bool moved = breakers_[i].skipIdleTimers(through);
    if (moved) touched(i);
    return moved;
  }
  // Fires the earliest timer.
  void fireTimer() {
    const std::uint32_t i = due();
    breakers_[i].fireTimer();
    touched(i);
  }

  // A new breaker for `pod` (a scaled-out pod, or every pod when a breaker is switched on), closed
  // and empty, that sees only the calls that start at or after `at`. Its predecessor's
  // transitions are handed to `retire` first.
  template <class Retire>
  void replace(std::uint32_t i, const BreakerConfig& generic, const NativeBreakers& native,
               const HealthSignal* health, Micros at, Retire&& retire) {
    retire(i, breakers_[i]);
    breakers_[i] = Breaker(generic, native, health, at);
    born_[i] = at;
    touched(i);
  }

  // Tokens of held calls the breakers have now answered, breaker by breaker (cockatiel).
  // `serve(tokens)` is called until no breaker has any left.
  template <class Serve>
  void serveReleased(Serve&& serve) {
    if (single()) {
      std::vector<std::uint32_t>& released = breakers_.front().released();
      while (!released.empty()) {
        scratch_.clear();
        scratch_.swap(released);
        serve(scratch_);
      }
      return;
    }
    while (!releasing_.empty()) {
      const std::uint32_t i = releasing_.back();
      std::vector<std::uint32_t>& released = breakers_[i].released();
      if (released.empty()) {
        releasing_.pop_back();
        listed_[i] = 0;
        continue;
      }
      scratch_.clear();
      scratch_.swap(released);
      serve(scratch_);
    }
  }

  // Every breaker continues with another config (a lead-in snapshot restored).
  void rebind(const BreakerConfig& config, const HealthSignal* health) {
    for (Breaker& b : breakers_) b.rebind(config, health);
  }

  bool anyTransitions() const {
    for (const Breaker& b : breakers_)
      if (!b.transitions().empty()) return true;
    return false;
  }

 private:
  struct Timer {
    Micros at;
    std::uint32_t breaker;
    // A min-heap on (at, breaker): equal times fire the lowest breaker first.
    bool operator>(const Timer& o) const { return at != o.at ? at > o.at : breaker > o.breaker; }
  };

  // After a breaker was called: its next timer goes on the heap (an entry whose time is no
  // longer the breaker's is dropped when it comes to the top), and a breaker with released calls
  // is listed for serveReleased.
  void touched(std::uint32_t i) {
    if (single()) return;
    const Micros t = breakers_[i].nextTimer();
    if (t != kNever && t != scheduled_[i]) {
      scheduled_[i] = t;
      timers_.push_back({t, i});
      std::push_heap(timers_.begin(), timers_.end(), std::greater<>{});
    }
    if (!listed_[i] && !breakers_[i].released().empty()) {
      listed_[i] = 1;
      releasing_.push_back(i);
    }
  }

  void dropStale() const {
    while (!timers_.empty() &&
           breakers_[timers_.front().breaker].nextTimer() != timers_.front().at) {
      std::pop_heap(timers_.begin(), timers_.end(), std::greater<>{});
      const Timer stale = timers_.back();
      timers_.pop_back();
      if (scheduled_[stale.breaker] == stale.at) scheduled_[stale.breaker] = kNever;
    }
  }

  // The breaker whose timer is due: the heap's top, left there (once the breaker has acted its
  // entry no longer matches its next timer and is dropped).
  std::uint32_t due() const {
    if (single()) return 0;
    dropStale();
    return timers_.front().breaker;
  }

  std::vector<Breaker> breakers_;
  std::vector<Micros> born_;
  // The timer heap keeps entries that went stale (the breaker's next timer moved); they are
  // dropped as they reach the top. `scheduled_` is the time of each breaker's live entry.
  mutable std::vector<Timer> timers_;
  mutable std::vector<Micros> scheduled_;
  std::vector<std::uint8_t> listed_;
  std::vector<std::uint32_t> releasing_;
  std::vector<std::uint32_t> scratch_;
};

}  // namespace breakerlab
