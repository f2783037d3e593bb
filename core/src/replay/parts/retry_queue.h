#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "replay/parts/in_flight.h"

namespace breakerlab {

// Attempts waiting for their backoff to end, earliest first (ties in the order they were
// scheduled).
class RetryQueue {
 public:
  bool empty() const { return heap_.empty(); }
  Micros nextAt() const { return heap_.empty() ? kNever : heap_.front().call.at; }
  void push(const PendingCall& c) {
    heap_.push_back({c, seq_++});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  PendingCall pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    PendingCall c = heap_.back().call;
    heap_.pop_back();
    return c;
  }

 private:
  struct Entry {
    PendingCall call;
    std::uint64_t seq;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.call.at != b.call.at ? a.call.at > b.call.at : a.seq > b.seq;
    }
  };
  std::vector<Entry> heap_;
  std::uint64_t seq_ = 0;

 public:
  std::size_t size() const { return heap_.size(); }
};

}  // namespace breakerlab
