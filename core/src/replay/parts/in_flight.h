#pragma once
// The calls in flight, popped in completion order with ties in admission order.
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/breakers/breaker.h"
#include "replay/parts/fifo_queue.h"

namespace breakerlab {

// One attempt of a request, in flight (or, on the retry queue, waiting to start).
struct PendingCall {
  Micros at;             // completion time (on the retry queue: when the attempt starts)
  Micros request_start;  // arrival: for the deadline and the checkout's latency
  std::uint32_t key;
  std::uint32_t record;   // the checkout, kLeadInRecord or kRefreshRecord
  std::uint32_t request;  // the random-number key of the request
  std::int32_t duration;  // of this attempt (at most the attempt timeout)
  CircuitBreaker::Permit permit;
  CallOutcome outcome;
  std::uint8_t attempt;   // 0 = the first call of the request
  std::uint16_t pod = 0;  // the client pod whose worker and pool the request uses

  Micros start() const { return at - duration; }
};
static_assert(sizeof(PendingCall) == 48);
inline constexpr std::uint32_t kLeadInRecord = 0xffffffffu;
// A background refresh of cache-first pricing: no checkout waits for it.
inline constexpr std::uint32_t kRefreshRecord = 0xfffffffeu;
inline constexpr bool isCheckout(std::uint32_t record) {
  return record < kRefreshRecord;
}

// Calls that complete within `span` of their start, ordered by a 64-bit key that packs the
// completion time above the admission number: a timing wheel. Buckets are 2^shift microseconds
// wide and the wheel spans more than `span`, so a bucket holds one lap only. Pushing links a node
// into its bucket (O(1)); when the cursor reaches a bucket, its few nodes are gathered and sorted
// (about rate x width of them). In steady state every bucket receives as many completions as
// arrive in its width, whatever the latency distribution.
//
// The caller promises that a call is pushed at its start time `now` only after every call
// completing at or before `now` was popped; the cursor may then jump over idle time. Peeking
// (top) may move the cursor past `now` without consuming; an earlier push steps it back.
class TimingWheel {
 public:
  struct Entry {
    std::uint64_t key;  // (completion - origin) << 24 | admission number mod 2^24
    std::uint32_t slot;
  };

  TimingWheel(Micros origin, Micros span) : origin_(origin) {
    const auto longest = static_cast<std::uint64_t>(std::max<Micros>(span, 1));
    while ((longest >> shift_) > kMaxBuckets - 2) ++shift_;
    std::size_t buckets = 64;
    while (buckets < (longest >> shift_) + 2) buckets *= 2;
    mask_ = buckets - 1;
    heads_.assign(buckets, kNone);
    occupied_.assign(buckets / 64, 0);
  }

  bool empty() const { return size_ == 0; }
  std::uint64_t keyOf(Micros at, std::uint64_t admission) const {
    return (static_cast<std::uint64_t>(at - origin_) << 24) | (admission & 0xffffff);
  }

  [[gnu::always_inline]] void push(Micros now, const Entry& e) {
    const std::uint64_t now_bucket = bucketOfTime(now);
    if (size_ == 0 || now_bucket > cursor_) {
      // Everything up to `now` has been popped, so the active bucket is used up.
      current_.clear();
      head_ = 0;
      cursor_ = now_bucket;
      active_ = false;
    }
    const std::uint64_t b = bucketOfKey(e.key);
    if (b < cursor_) {
      // A peek moved the cursor ahead without consuming; return its batch to its bucket.
      for (const Entry& x : current_) link(cursor_, x);
      current_.clear();
      head_ = 0;
      cursor_ = b;
      active_ = false;
    }
    ++size_;
    if (b == cursor_ && active_) {
      const auto pos =
          std::upper_bound(current_.begin() + static_cast<std::ptrdiff_t>(head_), current_.end(),
                           e.key, [](std::uint64_t k, const Entry& x) { return k < x.key; });
      current_.insert(pos, e);
      return;
    }
    link(b, e);
  }

  // The least entry; the wheel must not be empty.
  const Entry& top() {
    settle();
    return current_[head_];
  }
  void pop() {
    settle();
    ++head_;
    --size_;
  }

 private:
  static constexpr std::uint64_t kMaxBuckets = 2048;
  // Buckets at least 2^15 us (33 ms) wide. Narrower ones held about one call each at the rates of
  // the bundled incidents (a few hundred calls a second), and gathering and sorting a bucket for
  // each call cost more than sorting a few together; pop order is by key whatever the width.
  static constexpr int kMinShift = 15;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Node {
    Entry entry;
    std::uint32_t next;
  };

  std::uint64_t bucketOfTime(Micros t) const {
    return static_cast<std::uint64_t>(t - origin_) >> shift_;
  }
  std::uint64_t bucketOfKey(std::uint64_t key) const { return key >> (24 + shift_); }

  [[gnu::always_inline]] void link(std::uint64_t b, const Entry& e) {
    std::uint32_t node;
    if (free_ != kNone) {
      node = free_;
      free_ = nodes_[node].next;
    } else {
      node = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back({});
    }
    const std::size_t i = b & mask_;
    nodes_[node] = {e, heads_[i]};
    heads_[i] = node;
    occupied_[i / 64] |= std::uint64_t{1} << (i % 64);
  }

  // Gathers bucket b's nodes into the sorted active batch.
  void activate(std::uint64_t b) {
    const std::size_t i = b & mask_;
    current_.clear();
    head_ = 0;
    for (std::uint32_t n = heads_[i]; n != kNone;) {
      current_.push_back(nodes_[n].entry);
      const std::uint32_t next = nodes_[n].next;
      nodes_[n].next = free_;
      free_ = n;
      n = next;
    }
    heads_[i] = kNone;
    occupied_[i / 64] &= ~(std::uint64_t{1} << (i % 64));
    std::sort(current_.begin(), current_.end(),
              [](const Entry& x, const Entry& y) { return x.key < y.key; });
    cursor_ = b;
    active_ = true;
  }

  // The active batch has an entry, or is made from the next bucket that holds some.
  [[gnu::always_inline]] void settle() {
    if (active_ && head_ < current_.size()) [[likely]]
      return;
    settleNext();
  }
  [[gnu::noinline]] void settleNext() {
    const std::size_t i = cursor_ & mask_;
    if (!active_ && heads_[i] != kNone) {
      activate(cursor_);
      return;
    }
    activate(cursor_ + distanceToNextOccupied());
  }

  // Ring distance from the cursor to the next bucket holding nodes (the cursor's own is empty).
  std::uint64_t distanceToNextOccupied() const {
    const std::size_t from = cursor_ & mask_;
    const std::size_t words = occupied_.size();
    std::size_t word = from / 64;
    std::uint64_t bits = occupied_[word] & (~std::uint64_t{0} << (from % 64));
    for (std::size_t scanned = 0; bits == 0 && scanned <= words; ++scanned) {
      word = (word + 1) % words;
      bits = occupied_[word];
    }
    const std::size_t found = word * 64 + static_cast<std::size_t>(std::countr_zero(bits));
    return (found - from) & mask_;
  }

  Micros origin_;
  int shift_ = kMinShift;
  std::uint64_t mask_ = 0;
  std::vector<std::uint32_t> heads_;
  std::vector<std::uint64_t> occupied_;
  std::vector<Node> nodes_;
  std::uint32_t free_ = kNone;
  std::vector<Entry> current_;  // the cursor bucket's entries, sorted, from head_ on
  std::size_t head_ = 0;
  std::uint64_t cursor_ = 0;
  bool active_ = false;
  std::size_t size_ = 0;
};

// Calls in flight, popped in completion order with ties in admission order. Timeouts all last
// exactly the attempt timeout and start in order, so they complete in FIFO order and go to a
// ring; calls with sampled latencies (shorter than the timeout) go to the timing wheel, holding
// 16-byte references into a slot array. Ties between equal completion times follow admission
// numbers; inside the wheel those are compared modulo 2^24, which is exact unless two calls
// that complete in the same microsecond straddle a 2^24 boundary (then still deterministic).
class InFlight {
 public:
  // `origin`: no call completes before it (the lead-in's start); `timeout`: every call pushed
  // with push() completes within it.
  InFlight(Micros origin, Micros timeout) : origin_(origin), wheel_(origin, timeout) {}

  // Rebuilds the wheel to span `timeout` for the calls still in flight at `now` (a lead-in
  // snapshot resumed under a longer or shorter timeout). Pop order depends on the keys only, so
  // it is unchanged; every call in flight must complete within the new span, and none may be a
  // timeout on the FIFO.
  void respan(Micros now, Micros timeout) {
    assert(timeouts_.empty());
    std::vector<bool> is_free(slots_.size(), false);
    for (const std::uint32_t slot : free_) is_free[slot] = true;
    TimingWheel wheel(origin_, timeout);
    for (std::uint32_t slot = 0; slot < slots_.size(); ++slot) {
      if (is_free[slot]) continue;
      wheel.push(now, {wheel.keyOf(slots_[slot].call.at, slots_[slot].seq), slot});
    }
    wheel_ = std::move(wheel);
  }

  void pushTimeout(const PendingCall& c) { timeouts_.push({c, next_seq_++}); }
  void push(const PendingCall& c) {
    std::uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back({c, 0});
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    slots_[slot] = {c, next_seq_};
    wheel_.push(c.start(), {wheel_.keyOf(c.at, next_seq_), slot});
    ++next_seq_;
  }
  bool empty() const { return timeouts_.empty() && wheel_.empty(); }
  // Calls admitted so far. Ties in completion time go in admission order as the wheel keeps it,
  // modulo 2^24 (kAdmissionWrap): runs that admit the same calls from some point on pop them
  // alike only while neither count passes that.
  std::uint64_t admissions() const { return next_seq_; }
  static constexpr std::uint64_t kAdmissionWrap = std::uint64_t{1} << 24;
  Micros nextAt() {
    Micros t = kNever;
    if (!timeouts_.empty()) t = timeouts_.front().call.at;
    if (!wheel_.empty()) t = std::min(t, slots_[wheel_.top().slot].call.at);
    return t;
  }
  [[gnu::always_inline]] PendingCall pop() {
    if (!timeouts_.empty()) {
      bool from_timeouts = wheel_.empty();
      if (!from_timeouts) {
        const Sequenced& a = timeouts_.front();
        const Sequenced& b = slots_[wheel_.top().slot];
        from_timeouts = a.call.at != b.call.at ? a.call.at < b.call.at : a.seq < b.seq;
      }
      if (from_timeouts) return timeouts_.pop().call;
    }
    const std::uint32_t slot = wheel_.top().slot;
    wheel_.pop();
    free_.push_back(slot);
    return slots_[slot].call;
  }

 private:
  struct Sequenced {
    PendingCall call;
    std::uint64_t seq;
  };
  Micros origin_;
  std::uint64_t next_seq_ = 0;
  FifoQueue<Sequenced> timeouts_;
  TimingWheel wheel_;
  std::vector<Sequenced> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace breakerlab
