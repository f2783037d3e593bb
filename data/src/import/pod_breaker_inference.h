#pragma once
// A pod's breaker as its calls show it. A request log (or a trace) with a pod column records, per
// pod, the calls its breaker let through and the requests it rejected ("rejected",
// "short_circuited", CallNotPermittedException...), but not the breaker's state. From those rows
// alone, each pod's lane reads:
//  - open from a rejection that follows a call let through: the trip came between that call's end
//    and the rejection, so the boundary is as precise as the pod's spacing of requests;
//  - half-open from the first request let through after rejections (the probe) that arrived
//    after the first of them (one that arrived before may have been let through before the trip
//    and waited for a worker or a connection). The breaker lets
//    `probes` requests through while half-open (breaker.probes: resilience4j's
//    permittedNumberOfCallsInHalfOpenState; one for opossum, cockatiel and gobreaker's default)
//    and decides once they have ended: a rejection before is its permits in use (or the spacing
//    of its probes);
//  - then closed from the probes' end if the pod's next request is let through (or from that
//    request, if the breaker let through more than its probes before they ended), or open again
//    from the probes' end if the next is rejected (a probe failed);
//  - a retry (a request's later attempt) may not have asked the breaker at all (a retry inside
//    the breaker's call, as resilience4j's Retry outside a CircuitBreaker), so it never opens a
//    half-open spell; while half-open it holds the decision until it ends (the breaker waits for
//    the whole call, or it is one of the permits);
//  - kPodOutOfService (the pod not in service) before its first row and after its last call's end
//    where these are more than kPodJoinGap from the window's ends (a pod scaled out or in);
//    closer, the pod was there all along and merely idle.
// Pure: tested with hand-made rows (tests/data/import/pod_breaker_inference_test.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/lanes.h"

namespace breakerlab::data_detail {

enum class PodEvidence : std::uint8_t {
  let_through,  // a request's first call
  retry,        // a later attempt's call
  rejected,     // an attempt the breaker rejected
};

// A pod silent for longer than this at the start (end) of the window joined later (left
// earlier): at 0.75 requests a second per pod (30 a second over 40 pods) a pod in service is
// silent for 10 s with a chance of e^-7.5, 1 in 1,800.
inline constexpr Micros kPodJoinGap = 10 * kSecond;

class PodBreakerInference {
 public:
  // `probes`: how many requests the breaker lets through while half-open (at least 1).
  PodBreakerInference(std::vector<std::string> pod_names, std::uint32_t probes);

  // A row of pod `pod` (an index into the names): a call over [at, end), or an attempt rejected
  // at `at` (end == at). Rows in start order, the pods interleaved. `asked`: the earliest the
  // breaker may have let the call through, at most `at` (a request's arrival: a call that waited
  // for a worker or a connection was let through before it started).
  void add(std::uint32_t pod, Micros at, Micros end, PodEvidence evidence, Micros asked);
  void add(std::uint32_t pod, Micros at, Micros end, PodEvidence evidence) {
    add(pod, at, end, evidence, at);
  }

  std::uint64_t rejections() const { return rejections_; }

  // The gap between a pod's consecutive requests (first calls and rejections) that a share `q`
  // of the gaps do not exceed, rounded up to within 1/16 of its power of two and then to whole
  // 10 ms; 0 without gaps.
  // A boundary is read at the pod's first request after it, so this bounds its error.
  Micros requestGapQuantile(double q) const;

  // One lane per pod, in the names' order, over [window_start, window_end).
  std::vector<Lane> lanes(Micros window_start, Micros window_end) const;

 private:
  enum class State : std::uint8_t { none, closed, open, half_open };
  struct Pod {
    State state = State::none;
    Micros first = 0;
    Micros last_end = 0;       // the latest end of its rows
    Micros open_since = 0;     // open: the rejection that opened the spell
    Micros last_request = 0;   // the latest first call's or rejection's start
    Micros probes_end = 0;     // half-open: when the calls let through since the probe have ended
    std::uint32_t probes = 0;  // half-open: requests let through so far
    std::vector<std::pair<State, Micros>> changes;  // state from time, in order
  };
  static void enter(Pod& pod, State state, Micros at);

  std::vector<std::string> names_;
  std::uint32_t probes_;
  std::vector<Pod> pods_;
  std::uint64_t rejections_ = 0;
  // Gaps by their power of two and the next four bits: 64 x 16 buckets.
  std::vector<std::uint64_t> gap_counts_ = std::vector<std::uint64_t>(64 * 16, 0);
  std::uint64_t gaps_ = 0;
};

}  // namespace breakerlab::data_detail
