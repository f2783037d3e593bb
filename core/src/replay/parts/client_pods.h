#pragma once
// The client's pods behind the load balancer: each pod's workers and call threads, its
// connection pool and the waiters for both, its place in the round robin and its health-check
// counts. ClientPods owns that state and makes its transitions; each method says what happened
// (a worker taken or not, the waiter a freed connection goes to, a pod to move in or out of
// rotation) and the Simulation does the rest: the facts and levels it records, and the request's
// life that goes on from there. What the pods read of the config in force comes with each call
// (PodLimits, HealthCheckConfig): a timed change is seen at once, and no copy of it goes stale.
// All of it is plain data so that the lead-in's end state can be copied into a ReplayCache.
// The methods are small and defined here: the event loop calls them at every arrival and call,
// and they inline into it.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/config.h"
#include "replay/parts/in_flight.h"

namespace breakerlab {

// What the pods read of the config in force.
struct PodLimits {
  std::uint32_t workers;       // per pod; 0: unlimited, and no worker is counted
  std::uint32_t worker_queue;  // checkouts a pod queues while its workers are all busy
  std::uint32_t connections;   // per pod; UINT32_MAX: unlimited
  Micros max_wait;             // for a connection; 0: as long as it takes
};

// A checkout waiting for a worker.
struct WorkerWaiter {
  Micros arrival;
  std::uint32_t key;
  std::uint32_t record;
  std::uint32_t request;
};

// An attempt waiting for a connection. `call.at` is when it began to wait.
struct PoolWaiter {
  PendingCall call;
  Micros give_up_at;
  std::uint32_t generation;
  bool done;  // handed a connection, or gave up
};

class ClientPods {
 public:
  // A call thread comes free at `at` on `pod`.
  struct ThreadRelease {
    Micros at;
    std::uint16_t pod;
    bool operator>(const ThreadRelease& o) const { return at > o.at; }
  };

  // The outcome of asking a pod for a worker, and the busy workers the limit was compared with
  // (the Simulation notes each comparison: see WorkerLimitRun).
  struct WorkerAsk {
    bool taken;
    std::uint32_t busy;
  };

  // A pod's health check falls due.
  struct DueCheck {
    Micros at;
    std::uint32_t pod;
  };

  // What a pod's health check asks of its rotation.
  enum class RotationMove : std::uint8_t { none, join, leave };

  explicit ClientPods(std::uint32_t pods) : pods_(pods), in_rotation_(pods) {}

  // --- The load balancer -----------------------------------------------------------------

  // The next pod in rotation, round robin over the `serving` pods in service. Some pod must be in
  // rotation (inRotation()).
  std::uint32_t pickPod(std::uint32_t serving) {
    std::uint32_t pod;
    do {
      pod = round_robin_;
      round_robin_ = round_robin_ + 1 == serving ? 0 : round_robin_ + 1;
    } while (!pods_[pod].in_rotation);
    return pod;
  }

  // Where the round robin stands (the pod it tries next), or 0 with no pod in rotation.
  std::uint32_t roundRobinAt() const { return in_rotation_ > 0 ? round_robin_ : 0; }

  std::uint32_t inRotation() const { return in_rotation_; }

  // The pods ever in service (those scaled in are kept, out of rotation).
  std::size_t size() const { return pods_.size(); }

  // --- Workers ---------------------------------------------------------------------------

  // A worker of `pod` when one is free under the limit (which must not be 0, unlimited: then no
  // worker is counted).
  WorkerAsk takeWorker(std::uint32_t pod, const PodLimits& limits) {
    Pod& p = pods_[pod];
    if (p.workers_busy >= limits.workers) return {false, p.workers_busy};
    ++workers_busy_;
    return {true, p.workers_busy++};
  }

  // Queues a checkout that found no worker free. Whether the pod's queue had room.
  bool queueForWorker(std::uint32_t pod, const WorkerWaiter& waiter, const PodLimits& limits) {
    std::deque<WorkerWaiter>& queue = pods_[pod].worker_queue;
    if (queue.size() >= limits.worker_queue) return false;
    queue.push_back(waiter);
    return true;
  }

  // Whether a checkout of `pod` waits for a worker.
  bool anyWorkerWaiter(std::uint16_t pod) const { return !pods_[pod].worker_queue.empty(); }

  // The checkout a worker of `pod` goes to as it is released: the first queued (anyWorkerWaiter),
  // taken off the queue; it keeps the worker.
  WorkerWaiter nextWorkerWaiter(std::uint16_t pod) {
    std::deque<WorkerWaiter>& queue = pods_[pod].worker_queue;
    const WorkerWaiter waiter = queue.front();
    queue.pop_front();
    return waiter;
  }

  // A worker of `pod` becomes free. Returns the workers busy over all pods.
  std::uint32_t freeWorker(std::uint16_t pod) {
    --pods_[pod].workers_busy;
    return --workers_busy_;
  }

  std::uint32_t workersBusy() const { return workers_busy_; }

  // --- Call threads (WorkerConfig::call_threads) -----------------------------------------

  // A call's thread stays busy until `until`, then its worker is released.
  void holdThread(std::uint16_t pod, Micros until) {
    thread_releases_.push_back({until, pod});
    std::push_heap(thread_releases_.begin(), thread_releases_.end(), std::greater<>{});
  }

  Micros nextThreadRelease() const {
    return thread_releases_.empty() ? kNever : thread_releases_.front().at;
  }

  // The earliest call thread to come free, off the heap.
  ThreadRelease popThreadRelease() {
    std::pop_heap(thread_releases_.begin(), thread_releases_.end(), std::greater<>{});
    const ThreadRelease r = thread_releases_.back();
    thread_releases_.pop_back();
    return r;
  }

  // --- The connection pool ---------------------------------------------------------------

  // A connection of the call's pod, or a place in the pod's queue for one (with a give-up at
  // the max wait, if there is one). Whether it got one.
  bool takeConnection(const PendingCall& call, const PodLimits& limits) {
    Pod& p = pods_[call.pod];
    if (p.pool_busy < limits.connections) {
      ++p.pool_busy;
      ++pool_busy_;
      return true;
    }
    const Micros give_up_at = limits.max_wait > 0 ? call.at + limits.max_wait : kNever;
    const std::uint32_t w = addWaiter(call, give_up_at);
    p.pool_queue.push_back(w);
    if (limits.max_wait > 0) addGiveUp({w, pool_waiters_[w].generation, give_up_at});
    return false;
  }

  // A connection of `pod` comes back: to the pod's first live waiter, written to `waiter`
  // (true), or to the pool (false). A pool shrunk below what it has in use closes connections as
  // they come back. (The waiter is written to the caller's call, not returned in an optional: the
  // copy of a call costs, twice per connection handed on.)
  bool returnConnection(std::uint16_t pod, const PodLimits& limits, PendingCall& waiter) {
    Pod& p = pods_[pod];
    if (p.pool_busy <= limits.connections && !p.pool_queue.empty() &&
        nextConnectionWaiter(pod, waiter))
      return true;
    --p.pool_busy;
    --pool_busy_;
    return false;
  }

  // Whether `pod` has fewer connections in use than the limit (a grown pool opens new ones).
  bool belowConnectionLimit(std::uint16_t pod, const PodLimits& limits) const {
    return pods_[pod].pool_busy < limits.connections;
  }

  // A new connection of `pod` goes to a waiter (nextConnectionWaiter). Returns the connections
  // busy over all pods.
  std::uint32_t openConnection(std::uint16_t pod) {
    ++pods_[pod].pool_busy;
    return ++pool_busy_;
  }

  // The pod's first waiter that still waits, taken off its queue (the waiters gone before it
  // too) and written to `waiter`. Whether there was one.
  bool nextConnectionWaiter(std::uint16_t pod, PendingCall& waiter) {
    std::deque<std::uint32_t>& queue = pods_[pod].pool_queue;
    while (!queue.empty()) {
      const std::uint32_t i = queue.front();
      queue.pop_front();
      const bool waiting = !pool_waiters_[i].done;
      if (waiting) waiter = pool_waiters_[i].call;
      freeWaiter(i);
      if (waiting) return true;
    }
    return false;
  }

  std::uint32_t poolBusy() const { return pool_busy_; }

  Micros nextGiveUp() const { return give_ups_.empty() ? kNever : give_ups_.front().at; }

  // The earliest give-up, off its queue. When its waiter still waits, writes the waiter's
  // attempt as it stands when its max wait runs out (`at` the give-up, `duration` the wait) to
  // `call` and returns true; the waiter stays in its pod's queue, to be skipped there.
  bool popGiveUp(PendingCall& call) {
    const GiveUp g = give_ups_.front();
    give_ups_.pop_front();
    PoolWaiter& w = pool_waiters_[g.waiter];
    if (w.generation != g.generation || w.done) return false;
    w.done = true;
    call = w.call;
    call.at = g.at;
    call.duration = static_cast<std::int32_t>(g.at - w.call.at);
    return true;
  }

  // --- Health checks and rotation --------------------------------------------------------

  // Checks begin at `origin`, one pod at a time.
  void startChecks(Micros origin) {
    checks_origin_ = origin;
    checks_done_ = 0;
    next_check_at_ = origin;
  }

  // After the fleet is scaled at t: the turn starts again from the next check due, or from t.
  void restartChecks(Micros t) { startChecks(std::max(t, next_check_at_)); }

  Micros nextCheckAt() const { return next_check_at_; }
  std::uint64_t checksDone() const { return checks_done_; }

  // The check due now: its time and pod; the next is scheduled. Pods are checked in turn,
  // spread evenly over the interval among the `serving` pods in service.
  DueCheck takeDueCheck(const HealthCheckConfig& hc, std::uint32_t serving) {
    const DueCheck due{next_check_at_, static_cast<std::uint32_t>(checks_done_ % serving)};
    ++checks_done_;
    next_check_at_ = checks_origin_ + static_cast<Micros>(checks_done_) * hc.interval / serving;
    return due;
  }

  // The busy workers of `pod` (a check on the shared pool passes only below the limit).
  std::uint32_t workersBusyOn(std::uint32_t pod) const { return pods_[pod].workers_busy; }

  // Counts a check of `pod` that passed or failed; says whether the pod now joins or leaves the
  // rotation (setRotation makes it so).
  RotationMove countCheck(std::uint32_t pod, bool passed, const HealthCheckConfig& hc) {
    Pod& p = pods_[pod];
    if (passed) {
      p.failed_checks = 0;
      ++p.passed_checks;
      return !p.in_rotation && p.passed_checks >= hc.healthy_after ? RotationMove::join
                                                                   : RotationMove::none;
    }
    p.passed_checks = 0;
    ++p.failed_checks;
    return p.in_rotation && p.failed_checks >= hc.unhealthy_after ? RotationMove::leave
                                                                  : RotationMove::none;
  }

  // Puts `pod` in or out of rotation. Returns the pods in rotation.
  std::uint32_t setRotation(std::uint32_t pod, bool in) {
    pods_[pod].in_rotation = in;
    in_rotation_ += in ? 1 : -1;
    return in_rotation_;
  }

  // The fleet goes from `before` pods in service to `serving`: those added (or added back) join
  // the rotation with their check counts fresh, those scaled in leave it and keep their state.
  void scale(std::uint32_t serving, std::uint32_t before) {
    if (pods_.size() < serving) {
      // New pods join below, counted as they do.
      const std::size_t old_size = pods_.size();
      pods_.resize(serving);
      for (std::size_t i = old_size; i < serving; ++i) pods_[i].in_rotation = false;
    }
    for (std::uint32_t i = 0; i < pods_.size(); ++i) {
      Pod& p = pods_[i];
      const bool in_service = i < serving;
      if (in_service && i >= before) {
        p.failed_checks = p.passed_checks = 0;
        if (!p.in_rotation) {
          p.in_rotation = true;
          ++in_rotation_;
        }
      } else if (!in_service && p.in_rotation) {
        p.in_rotation = false;
        --in_rotation_;
      }
    }
    if (round_robin_ >= serving) round_robin_ = 0;
  }

  // No worker, connection or call thread busy, no connection waited for, every pod in rotation.
  bool idle() const {
    return workers_busy_ == 0 && pool_busy_ == 0 && give_ups_.empty() && thread_releases_.empty() &&
           in_rotation_ == pods_.size();
  }

 private:
  struct Pod {
    std::uint32_t workers_busy = 0;
    std::uint32_t pool_busy = 0;
    std::deque<WorkerWaiter> worker_queue;
    std::deque<std::uint32_t> pool_queue;  // indices into pool_waiters_, FIFO
    bool in_rotation = true;
    std::uint32_t failed_checks = 0;
    std::uint32_t passed_checks = 0;
  };

  struct GiveUp {
    std::uint32_t waiter;
    std::uint32_t generation;
    Micros at;
  };

  // Waiters mostly wait the same max_wait, so a new give-up goes at the back, inline; after a
  // change shortened max_wait it is put in its place, out of line.
  void addGiveUp(const GiveUp& g) {
    if (give_ups_.empty() || give_ups_.back().at <= g.at) [[likely]] {
      give_ups_.push_back(g);
      return;
    }
    insertGiveUp(g);
  }
  [[gnu::noinline]] void insertGiveUp(const GiveUp& g) {
    give_ups_.insert(std::upper_bound(give_ups_.begin(), give_ups_.end(), g,
                                      [](const GiveUp& a, const GiveUp& b) { return a.at < b.at; }),
                     g);
  }

  std::uint32_t addWaiter(const PendingCall& call, Micros give_up_at) {
    std::uint32_t i;
    if (free_waiters_.empty()) {
      i = static_cast<std::uint32_t>(pool_waiters_.size());
      pool_waiters_.push_back({call, give_up_at, 0, false});
    } else {
      i = free_waiters_.back();
      free_waiters_.pop_back();
      PoolWaiter& w = pool_waiters_[i];
      w.call = call;
      w.give_up_at = give_up_at;
      w.done = false;
    }
    return i;
  }

  // A waiter's slot is reused; its generation tells a give-up for the earlier waiter apart.
  void freeWaiter(std::uint32_t i) {
    ++pool_waiters_[i].generation;
    free_waiters_.push_back(i);
  }

  std::vector<Pod> pods_;
  std::uint32_t in_rotation_;
  std::uint32_t round_robin_ = 0;
  std::uint32_t workers_busy_ = 0;  // over all pods
  std::uint32_t pool_busy_ = 0;     // over all pods

  std::vector<PoolWaiter> pool_waiters_;
  std::vector<std::uint32_t> free_waiters_;
  std::deque<GiveUp> give_ups_;  // in time order

  // Call threads come free at these times: a min-heap.
  std::vector<ThreadRelease> thread_releases_;

  Micros checks_origin_ = 0;
  std::uint64_t checks_done_ = 0;
  Micros next_check_at_ = kNever;
};

}  // namespace breakerlab
