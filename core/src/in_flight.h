#pragma once
// The calls in flight, popped in completion order with ties in admission order.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "breakerlab/core/breaker.h"
#include "breakerlab/core/outcome.h"
#include "breakerlab/core/time.h"

namespace breakerlab {

struct PendingCall {
  Micros at;  // completion time
  Micros start;
  std::uint32_t key;
  std::uint32_t record;
  CircuitBreaker::Permit permit;
  CallOutcome outcome;
};

// A monotone priority queue (radix heap): every pushed key is at least the last popped key,
// which holds for completion times in a discrete-event simulation. Push is O(1); pop moves each
// entry down at most 64 buckets over its life, cheaper than a binary heap's branchy sifts.
// Entries with equal keys pop in push order.
template <typename Value>
class RadixQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(std::uint64_t key, const Value& value) {
    buckets_[bucketOf(key)].push_back({key, value});
    ++size_;
  }

  // The smallest key; the queue must not be empty.
  std::uint64_t topKey() {
    settle();
    return buckets_[0][head_].key;
  }
  const Value& top() {
    settle();
    return buckets_[0][head_].value;
  }
  void pop() {
    settle();
    ++head_;
    --size_;
    if (head_ == buckets_[0].size()) {
      buckets_[0].clear();
      head_ = 0;
    }
  }

 private:
  struct Entry {
    std::uint64_t key;
    Value value;
  };
  int bucketOf(std::uint64_t key) const {
    return key == last_ ? 0 : 64 - std::countl_zero(key ^ last_);
  }
  // Makes bucket 0 hold the entries with the smallest key.
  void settle() {
    if (head_ < buckets_[0].size()) return;
    int i = 1;
    while (buckets_[i].empty()) ++i;
    auto& from = buckets_[i];
    std::uint64_t smallest = from[0].key;
    for (const auto& e : from) smallest = std::min(smallest, e.key);
    last_ = smallest;
    for (const auto& e : from) buckets_[bucketOf(e.key)].push_back(e);  // in push order
    from.clear();
  }

  std::array<std::vector<Entry>, 65> buckets_;
  std::size_t head_ = 0;  // bucket 0 is consumed from the front: FIFO among equal keys
  std::uint64_t last_ = 0;
  std::size_t size_ = 0;
};

// Calls go to one of three queues, and pop merges their heads by (completion time, admission):
// - timeouts, which all last exactly the attempt timeout and start in order, so they complete
//   in FIFO order;
// - a sorted run: any other call completing no earlier than the run's last call (with fixed
//   latencies, every call);
// - the radix queue for the rest, holding 16-byte references into a slot array.
class InFlight {
 public:
  explicit InFlight(Micros origin) : origin_(origin) {}

  void pushTimeout(const PendingCall& c) { timeouts_.push({c, next_seq_++}); }
  void push(const PendingCall& c) {
    if (run_.empty() || c.at >= run_.back().call.at) {
      run_.push({c, next_seq_++});
      return;
    }
    std::uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back(c);
    } else {
      slot = free_.back();
      free_.pop_back();
      slots_[slot] = c;
    }
    queue_.push(static_cast<std::uint64_t>(c.at - origin_), {slot, next_seq_++});
  }
  bool empty() const { return timeouts_.empty() && run_.empty() && queue_.empty(); }
  Micros nextAt() {
    Micros t = kNever;
    if (!timeouts_.empty()) t = timeouts_.front().call.at;
    if (!run_.empty()) t = std::min(t, run_.front().call.at);
    if (!queue_.empty()) t = std::min(t, origin_ + static_cast<Micros>(queue_.topKey()));
    return t;
  }
  PendingCall pop() {
    // Candidates as (time, admission); admission numbers of calls in flight together are
    // close, so they compare correctly as a wrapping difference.
    enum { kTimeouts, kRun, kQueue } from = kTimeouts;
    Micros best_at = kNever;
    std::uint64_t best_seq = 0;
    auto consider = [&](Micros at, std::uint64_t seq, auto source) {
      if (best_at == kNever || at < best_at || (at == best_at && seq < best_seq)) {
        best_at = at;
        best_seq = seq;
        from = source;
      }
    };
    if (!timeouts_.empty()) consider(timeouts_.front().call.at, timeouts_.front().seq, kTimeouts);
    if (!run_.empty()) consider(run_.front().call.at, run_.front().seq, kRun);
    if (!queue_.empty()) {
      consider(origin_ + static_cast<Micros>(queue_.topKey()), queue_.top().seq, kQueue);
    }
    switch (from) {
      case kTimeouts:
        return timeouts_.pop().call;
      case kRun:
        return run_.pop().call;
      case kQueue:
        break;
    }
    const std::uint32_t slot = queue_.top().slot;
    queue_.pop();
    free_.push_back(slot);
    return slots_[slot];
  }

 private:
  struct Sequenced {
    PendingCall call;
    std::uint64_t seq;
  };
  struct SlotRef {
    std::uint32_t slot;
    std::uint64_t seq;
  };
  // A FIFO over a vector. The consumed prefix is dropped once it is the larger half, so memory
  // stays proportional to the calls in flight even when the queue never drains.
  class Fifo {
   public:
    bool empty() const { return head_ == items_.size(); }
    const Sequenced& front() const { return items_[head_]; }
    const Sequenced& back() const { return items_.back(); }
    void push(const Sequenced& s) { items_.push_back(s); }
    Sequenced pop() {
      Sequenced s = items_[head_++];
      if (head_ == items_.size()) {
        items_.clear();
        head_ = 0;
      } else if (head_ >= 4096 && 2 * head_ >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
      return s;
    }

   private:
    std::vector<Sequenced> items_;
    std::size_t head_ = 0;
  };

  Micros origin_;
  std::uint64_t next_seq_ = 0;
  Fifo timeouts_;
  Fifo run_;
  RadixQueue<SlotRef> queue_;
  std::vector<PendingCall> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace breakerlab
