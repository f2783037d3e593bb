#pragma once
// Client-side adaptive throttling (Google's SRE book, "Handling Overload", "Client-side
// throttling"), one per client pod: over the last `window` the client counts the requests its
// application made (`requests`, those it refused itself included) and those the backend accepted
// (`accepts`), and refuses a new one locally with probability
//   max(0, (requests − K × accepts) / (requests + 1)).
// With the backend refusing everything the client still sends about K× what was accepted; while
// it accepts every request, nothing is refused.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

class AdaptiveThrottle {
 public:
  explicit AdaptiveThrottle(const ClientThrottlingConfig& config)
      : k_(config.k),
        seconds_(static_cast<std::size_t>(std::max<Micros>(config.window / kSecond, 1))) {}

  // The chance that a request made at t is refused, before it is counted.
  double rejectProbability(Micros t) {
    advance(t);
    const auto requests = static_cast<double>(requests_);
    return std::max(0.0, (requests - k_ * static_cast<double>(accepts_)) / (requests + 1));
  }
  // A request made at t (sent or refused here).
  void onRequest(Micros t) {
    advance(t)->requests += 1;
    requests_ += 1;
  }
  // A request the backend accepted, answered at t.
  void onAccept(Micros t) {
    advance(t)->accepts += 1;
    accepts_ += 1;
  }

 private:
  struct Bucket {
    std::int64_t second = kNoSecond;
    std::uint64_t requests = 0;
    std::uint64_t accepts = 0;
  };
  static constexpr std::int64_t kNoSecond = INT64_MIN;

  // The bucket of t's second; the buckets that slid out of the window leave the sums. The replay
  // hands events over in time order, so t never goes back.
  Bucket* advance(Micros t) {
    if (buckets_.empty()) buckets_.assign(seconds_, Bucket{});
    const std::int64_t second = t >= 0 ? t / kSecond : -((-t + kSecond - 1) / kSecond);
    const auto n = static_cast<std::int64_t>(buckets_.size());
    Bucket& b = buckets_[static_cast<std::size_t>(((second % n) + n) % n)];
    if (b.second != second) {
      if (newest_ != kNoSecond && second - newest_ >= n) {
        // Idle for a whole window: every bucket is stale.
        for (Bucket& old : buckets_) old = Bucket{};
        requests_ = accepts_ = 0;
      } else {
        // The seconds between the newest one and t held nothing since: clear their buckets.
        for (std::int64_t s = newest_ == kNoSecond ? second : newest_ + 1; s <= second; ++s) {
          Bucket& old = buckets_[static_cast<std::size_t>(((s % n) + n) % n)];
          requests_ -= old.requests;
          accepts_ -= old.accepts;
          old = Bucket{};
        }
      }
      b.second = second;
      newest_ = second;
    }
    return &b;
  }

  double k_;
  std::size_t seconds_;
  std::vector<Bucket> buckets_;
  std::int64_t newest_ = kNoSecond;
  std::uint64_t requests_ = 0, accepts_ = 0;  // the sums over the window's buckets
};

}  // namespace breakerlab
