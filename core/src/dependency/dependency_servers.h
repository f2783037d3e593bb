#pragma once
// A dependency with a concurrency ceiling, first come first served. Calls reach it in time
// order, so when each will be served is known at arrival: the c-server FIFO recursion, with a
// min-heap of the times the servers come free. Later arrivals never change an earlier call's
// fate, which lets the event loop schedule its completion at once.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

class DependencyServers {
 public:
  // `ceiling_moves`: timed changes may move the ceiling (setCeiling), so the run keeps the ends
  // of the calls ahead that the heap of servers no longer holds.
  explicit DependencyServers(const DependencyCapacity& capacity, bool ceiling_moves = false)
      : capacity_(capacity), ceiling_(capacity.concurrency), keep_ahead_(ceiling_moves) {
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
  // Mean busy servers in each second of the recorded span, as a share of the ceiling in force
  // (0..1; a second in which the ceiling changed: of its mean).
  std::vector<double> utilization() const {
    if (capacity_.concurrency == 0) return {};  // no ceiling to be a share of
    std::vector<double> u(usage_.size());
    if (ceilings_.empty()) {
      for (std::size_t i = 0; i < u.size(); ++i)
        u[i] = std::min(1.0, usage_[i] / (static_cast<double>(kSecond) * capacity_.concurrency));
      return u;
    }
    // Server-microseconds the ceilings allow in each second, as they changed.
    std::size_t next = 0;
    std::uint32_t ceiling = capacity_.concurrency;
    for (std::size_t i = 0; i < u.size(); ++i) {
      Micros from = usage_start_ + static_cast<Micros>(i) * kSecond;
      const Micros to = from + kSecond;
      double room = 0;
      for (; next < ceilings_.size() && ceilings_[next].first < to; ++next) {
        const Micros at = std::max(from, ceilings_[next].first);
        room += static_cast<double>(at - from) * ceiling;
        from = at;
        ceiling = ceilings_[next].second;
      }
      room += static_cast<double>(to - from) * ceiling;
      u[i] = std::min(1.0, usage_[i] / room);
    }
    return u;
  }

  // Whether every server is free by t: calls arriving from t on find the dependency as if it had
  // never been called, whatever it worked on before.
  bool idleAt(Micros t) const {
    const auto done = [t](Micros free_at) { return free_at <= t; };
    return std::all_of(free_at_.begin(), free_at_.end(), done) &&
           std::all_of(held_.begin(), held_.end(), done) &&
           std::all_of(ahead_.begin(), ahead_.end(), done);
  }

  // From t on the ceiling is `ceiling` (dependency.capacity.scale; the run was set up with
  // ceiling_moves): what was admitted before keeps its start and end. Queue: a call starts once
  // fewer than the ceiling of the calls admitted before it are unfinished. Under one ceiling that
  // is when the earliest of the `ceiling` servers comes free, and the heap holds just those: the
  // `ceiling` latest ends. A lower ceiling moves the earliest of them to the other unfinished
  // ends (ahead_); a higher one takes the latest of those back. Share: later arrivals stretch by
  // the calls held over the new ceiling.
  void setCeiling(Micros t, std::uint32_t ceiling) {
    if (ceiling == ceiling_) return;
    ceiling_ = ceiling;
    ceilings_.push_back({t, ceiling});
    if (capacity_.discipline != CapacityDiscipline::queue) return;
    forgetEndedBy(t);
    while (free_at_.size() > ceiling_) {
      noteAhead(free_at_.front(), t);
      popEarliest();
    }
    while (free_at_.size() < ceiling_ && !ahead_.empty()) {
      addServer(ahead_.back());
      ahead_.pop_back();
    }
  }

  struct Admission {
    Micros wait;      // queueing before service starts
    bool queue_full;  // waited the dependency's queue timeout: answered 503 at that point
  };

  // A call arriving at t needing `service` (kNever: it hangs) whose client gives up after
  // `patience`. Returns how long it queues; books the server it will hold.
  // Always inlined into the event loop, as it was before the ceiling could move (callgrind on
  // 14 Aug's replay: out of line, with replaceEarliest, it cost 1.3% more instructions).
  [[gnu::always_inline]] Admission admit(Micros t, Micros service, Micros patience) {
    if (capacity_.discipline == CapacityDiscipline::share) return share(t, service, patience);
    if (capacity_.discipline == CapacityDiscipline::load) return load(t, service, patience);
    Micros begins = t;
    const bool full = free_at_.size() >= ceiling_;
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
      if (keep_ahead_) [[unlikely]]
        keepEarliestAhead(t);
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

  // An end the heap lets go of that is still to come counts for the calls arriving until then.
  // It is never earlier than the ends kept (each is the heap's earliest when it leaves, and the
  // heap's earliest never falls below them), so ahead_ stays sorted.
  void noteAhead(Micros end, Micros t) {
    if (end > t) ahead_.push_back(end);
  }
  // Out of line: the deque's code inlined into admit() kept admit() itself from being inlined
  // into the event loop, 1.6% more instructions on 14 Aug's replay, which never moves a ceiling.
  [[gnu::noinline]] void keepEarliestAhead(Micros t) {
    forgetEndedBy(t);
    noteAhead(free_at_.front(), t);
  }
  void forgetEndedBy(Micros t) {
    while (!ahead_.empty() && ahead_.front() <= t) ahead_.pop_front();
  }

  // The server that comes free first leaves the heap.
  void popEarliest() {
    const Micros last = free_at_.back();
    free_at_.pop_back();
    if (!free_at_.empty()) replaceEarliest(last);
  }

  // The server that came free first takes the new call. `done` is never below the earliest (the
  // call begins no sooner) and usually belongs near the bottom, so the hole left by the earliest
  // goes down the path of least children to a leaf, and `done` rises from there to its place
  // (Floyd's).
  [[gnu::always_inline]] void replaceEarliest(Micros done) {
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
    const double load = static_cast<double>(held_.size() + 1) / ceiling_;
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
  std::uint32_t ceiling_;  // in force: capacity_.concurrency until a timed change scales it
  // The ceiling's timed changes (when, the new ceiling), for utilization().
  std::vector<std::pair<Micros, std::uint32_t>> ceilings_;
  // Queue, when the ceiling moves: the ends still to come of the calls admitted that the heap
  // does not hold, ascending, none later than the heap's earliest.
  bool keep_ahead_;
  std::deque<Micros> ahead_;
  Micros usage_start_ = 0, usage_end_ = 0;
  std::vector<double> usage_;    // server-microseconds per second
  std::vector<Micros> free_at_;  // the busy servers' free times, a 4-ary min-heap
  std::vector<Micros> held_;     // share: min-heap of when the held calls end
};

}  // namespace breakerlab
