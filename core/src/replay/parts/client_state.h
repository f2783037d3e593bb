#pragma once
// The client side of the model besides the breaker: pods behind a load balancer, each with
// worker slots and a connection pool, the waiters for both, and cache-first refreshes. All of
// it is plain data so that the lead-in's end state can be copied into a ReplayCache.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "dependency/dependency_servers.h"
#include "replay/parts/in_flight.h"

namespace breakerlab {

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

struct Pod {
  std::uint32_t workers_busy = 0;
  std::uint32_t pool_busy = 0;
  std::deque<WorkerWaiter> worker_queue;
  std::deque<std::uint32_t> pool_queue;  // indices into ClientState::pool_waiters, FIFO
  bool in_rotation = true;
  std::uint32_t failed_checks = 0;
  std::uint32_t passed_checks = 0;
};

struct ClientState {
  explicit ClientState(std::uint32_t pods, std::uint32_t keys, const DependencyCapacity& capacity)
      : pods(pods),
        in_rotation(pods),
        refreshing(keys, 0),
        refreshed_at(keys, kNever),
        servers(capacity) {}

  std::vector<Pod> pods;
  std::uint32_t in_rotation;
  std::uint32_t round_robin = 0;
  std::uint32_t workers_busy = 0;  // over all pods
  std::uint32_t pool_busy = 0;
  std::uint32_t calls_in_flight = 0;

  std::vector<PoolWaiter> pool_waiters;
  std::vector<std::uint32_t> free_waiters;
  struct GiveUp {
    std::uint32_t waiter;
    std::uint32_t generation;
    Micros at;
  };
  std::deque<GiveUp> give_ups;  // in time order
  // Waiters mostly wait the same max_wait, so a new give-up goes at the back; after a change
  // shortened max_wait it is put in its place.
  void addGiveUp(const GiveUp& g) {
    if (give_ups.empty() || give_ups.back().at <= g.at) {
      give_ups.push_back(g);
      return;
    }
    give_ups.insert(std::upper_bound(give_ups.begin(), give_ups.end(), g,
                                     [](const GiveUp& a, const GiveUp& b) { return a.at < b.at; }),
                    g);
  }

  Micros checks_origin = 0;
  std::uint64_t checks_done = 0;
  Micros next_check_at = kNever;

  std::vector<std::uint8_t> refreshing;  // per key: a background refresh is in flight
  std::vector<Micros> refreshed_at;      // per key: when the last refresh started
  std::uint32_t refreshes = 0;           // refresh request ids

  DependencyServers servers;

  // Call threads (WorkerConfig::call_threads) come free at these times: a min-heap.
  struct ThreadRelease {
    Micros at;
    std::uint16_t pod;
    bool operator>(const ThreadRelease& o) const { return at > o.at; }
  };
  std::vector<ThreadRelease> thread_releases;
  Micros nextThreadRelease() const {
    return thread_releases.empty() ? kNever : thread_releases.front().at;
  }

  Micros nextGiveUp() const { return give_ups.empty() ? kNever : give_ups.front().at; }

  std::uint32_t addWaiter(const PendingCall& call, Micros give_up_at) {
    std::uint32_t i;
    if (free_waiters.empty()) {
      i = static_cast<std::uint32_t>(pool_waiters.size());
      pool_waiters.push_back({call, give_up_at, 0, false});
    } else {
      i = free_waiters.back();
      free_waiters.pop_back();
      PoolWaiter& w = pool_waiters[i];
      w.call = call;
      w.give_up_at = give_up_at;
      w.done = false;
    }
    return i;
  }
  void freeWaiter(std::uint32_t i) {
    ++pool_waiters[i].generation;
    free_waiters.push_back(i);
  }
};

}  // namespace breakerlab
