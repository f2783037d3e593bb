#pragma once
// A dependency with a concurrency ceiling, first come first served. Calls reach it in time
// order, so when each will be served is known at arrival: the c-server FIFO recursion, with a
// min-heap of the times the servers come free. Later arrivals never change an earlier call's
// fate, which lets the event loop schedule its completion at once.
#include <algorithm>
#include <functional>
#include <vector>

#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

class DependencyServers {
 public:
  explicit DependencyServers(const DependencyCapacity& capacity) : capacity_(capacity) {
    free_at_.reserve(capacity.concurrency);
  }
  bool limited() const {
    return capacity_.concurrency > 0 || capacity_.discipline == CapacityDiscipline::load;
  }

  // Records server time per second of [start, end) from now on, for utilization.
  void recordUsage(Micros start, Micros end) {
    usage_start_ = start;
    usage_end_ = end;
    usage_.assign(static_cast<std::size_t>((end - start + kSecond - 1) / kSecond), 0.0);
  }
  // Mean busy servers in each second of the recorded span, as a share of the ceiling (0..1).
  std::vector<double> utilization() const {
    if (capacity_.concurrency == 0) return {};  // no ceiling to be a share of
    std::vector<double> u(usage_.size());
    for (std::size_t i = 0; i < u.size(); ++i)
      u[i] = std::min(1.0, usage_[i] / (static_cast<double>(kSecond) * capacity_.concurrency));
    return u;
  }

  // Whether every server is free by t: calls arriving from t on find the dependency as if it had
  // never been called, whatever it worked on before.
  bool idleAt(Micros t) const {
    const auto done = [t](Micros free_at) { return free_at <= t; };
    return std::all_of(free_at_.begin(), free_at_.end(), done) &&
           std::all_of(held_.begin(), held_.end(), done);
  }

  struct Admission {
    Micros wait;      // queueing before service starts
    bool queue_full;  // waited the dependency's queue timeout: answered 503 at that point
  };

  // A call arriving at t needing `service` (kNever: it hangs) whose client gives up after
  // `patience`. Returns how long it queues; books the server it will hold.
  Admission admit(Micros t, Micros service, Micros patience) {
    if (capacity_.discipline == CapacityDiscipline::share) return share(t, service, patience);
    if (capacity_.discipline == CapacityDiscipline::load) return load(t, service, patience);
    Micros begins = t;
    const bool full = free_at_.size() >= capacity_.concurrency;
    if (full) begins = std::max(t, free_at_.front());
    const Micros wait = begins - t;
    if (capacity_.queue_timeout > 0 && wait >= capacity_.queue_timeout) return {wait, true};
    const bool abandoned_in_queue = wait >= patience;
    // A cancelled call that never reached a server holds nothing.
    if (abandoned_in_queue && !capacity_.keeps_working) return {wait, false};
    Micros done;
    if (service == kNever) {
      // A hung call holds its server as long as a client waits for an answer; the dependency
      // cannot tell that this client already left unless the work is cancelled.
      done = capacity_.keeps_working ? begins + patience : t + patience;
    } else {
      done = begins + service;
      if (!capacity_.keeps_working) done = std::min(done, t + patience);
    }
    if (!usage_.empty()) recordBusy(begins, done);
    if (full) {
      replaceEarliest(done);
    } else {
      addServer(done);
    }
    return {wait, false};
  }

 private:
  // The busy servers' free times are a 4-ary min-heap (children of i at 4i+1 .. 4i+4): half the
  // levels of a binary heap for the dozens of servers a dependency has, and only the earliest is
  // ever read, so which layout holds them changes no answer.
  static constexpr std::size_t kArity = 4;

  void addServer(Micros done) {
    free_at_.push_back(done);
    Micros* h = free_at_.data();
    std::size_t i = free_at_.size() - 1;
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (h[parent] <= done) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = done;
  }

  // The server that came free first takes the new call. `done` is never below the earliest (the
  // call begins no sooner) and usually belongs near the bottom, so the hole left by the earliest
  // goes down the path of least children to a leaf, and `done` rises from there to its place
  // (Floyd's).
  void replaceEarliest(Micros done) {
    const std::size_t n = free_at_.size();
    Micros* h = free_at_.data();
    std::size_t i = 0;
    for (std::size_t first = 1; first < n; first = kArity * i + 1) {
      std::size_t least = first;
      if (first + kArity <= n) {
        // Four children: the least of two pairs, without a branch per child.
        const std::size_t a = first + static_cast<std::size_t>(h[first + 1] < h[first]);
        const std::size_t b = first + 2 + static_cast<std::size_t>(h[first + 3] < h[first + 2]);
        least = h[b] < h[a] ? b : a;
      } else {
        for (std::size_t c = first + 1; c < n; ++c)
          if (h[c] < h[least]) least = c;
      }
      h[i] = h[least];
      i = least;
    }
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (h[parent] <= done) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = done;
  }

  // Processor sharing, frozen at arrival: the call's work stretches by the calls held now.
  // Returns the stretch as extra "wait" so the caller adds it to the answer's latency.
  Admission share(Micros t, Micros service, Micros patience) {
    while (!held_.empty() && held_.front() <= t) {
      std::pop_heap(held_.begin(), held_.end(), std::greater<>{});
      held_.pop_back();
    }
    const double load = static_cast<double>(held_.size() + 1) / capacity_.concurrency;
    Micros stretched = service;
    if (service != kNever && load > 1)
      stretched = static_cast<Micros>(static_cast<double>(service) * load + 0.5);
    Micros done = service == kNever ? t + patience : t + stretched;
    if (!capacity_.keeps_working) done = std::min(done, t + patience);
    held_.push_back(done);
    std::push_heap(held_.begin(), held_.end(), std::greater<>{});
    // Utilization counts each held call as a server (clipped to the ceiling in utilization()).
    if (!usage_.empty()) recordBusy(t, done);
    return {service == kNever ? 0 : stretched - service, false};
  }
  // Load-dependent latency, frozen at arrival: the calls held now each add per_call.
  Admission load(Micros t, Micros service, Micros patience) {
    while (!held_.empty() && held_.front() <= t) {
      std::pop_heap(held_.begin(), held_.end(), std::greater<>{});
      held_.pop_back();
    }
    const Micros extra = capacity_.per_call * static_cast<Micros>(held_.size());
    Micros done = service == kNever ? t + patience : t + service + extra;
    if (!capacity_.keeps_working) done = std::min(done, t + patience);
    held_.push_back(done);
    std::push_heap(held_.begin(), held_.end(), std::greater<>{});
    return {service == kNever ? 0 : extra, false};
  }

  void recordBusy(Micros from, Micros to) {
    from = std::max(from, usage_start_);
    to = std::min(to, usage_end_);
    if (to <= from) return;
    auto second = static_cast<std::size_t>((from - usage_start_) / kSecond);
    Micros end_of_second = usage_start_ + static_cast<Micros>(second + 1) * kSecond;
    while (to > from) {
      const Micros boundary = std::min(to, end_of_second);
      usage_[second] += static_cast<double>(boundary - from);
      from = boundary;
      ++second;
      end_of_second += kSecond;
    }
  }

  DependencyCapacity capacity_;
  Micros usage_start_ = 0, usage_end_ = 0;
  std::vector<double> usage_;    // server-microseconds per second
  std::vector<Micros> free_at_;  // the busy servers' free times, a 4-ary min-heap
  std::vector<Micros> held_;     // share: min-heap of when the held calls end
};

}  // namespace breakerlab
