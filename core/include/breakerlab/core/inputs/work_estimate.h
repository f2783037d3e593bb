#pragma once
// How much a replay will cost, known before it runs: a file can ask for 1e8 requests per second
// over a week, and the simulator would try. The CLI and the workbench refuse a replay whose
// estimate is above a limit, naming the keys that drive it.
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

// The default limit on the simulated work of one replay: requests times their attempts, plus
// the timer events that run without requests. About a minute of simulation on one core.
inline constexpr double kDefaultMaxSimulatedRequests = 200e6;

// Bounds on what an incident allocates, checked by validate(Incident) and, with positions, by
// the readers.
inline constexpr std::uint32_t kMaxKeys = 10'000'000;            // traffic.keys.count
inline constexpr std::uint64_t kMaxCheckoutBuckets = 1'000'000;  // window / checkout_lane.bucket
inline constexpr Micros kMaxLeadIn = 7 * 24 * 3600 * kSecond;    // traffic.lead_in
inline constexpr Micros kMaxWindow = 7 * 24 * 3600 * kSecond;    // window.to - window.from

// One term of the estimate with the keys it comes from, e.g.
// "traffic.rate[0].rps 1e+08 over window 60 s = 6e+09 requests".
struct WorkTerm {
  std::string text;
  double amount = 0;
};

struct WorkEstimate {
  double window_arrivals = 0;   // checkouts arriving in the window
  double lead_in_arrivals = 0;  // before it, at the rate in force at the window start
  double refreshes = 0;         // background refreshes (cache_first), at most one per checkout
  std::uint32_t max_attempts = 1;
  double timer_events = 0;  // health checks, early-probe polls
  // (arrivals + refreshes) × max_attempts + timer_events: what the limit is compared with.
  double simulated_requests = 0;
  double checkout_buckets = 0;
  std::uint32_t keys = 1;
  // The terms behind simulated_requests, largest first.
  std::vector<WorkTerm> terms;

  // "traffic.rate[0].rps 1e+08 over window 60 s = 6e+09 requests + traffic.lead_in 60 s at
  // 1e+08 rps = 6e+09 requests; × retry.max_attempts 3 = 3.6e+10 simulated requests"
  std::string explain() const;
};

// An upper bound on the work of simulate(incident, config). Cheap: linear in the rate pieces (and
// the recorded times). Requires validate(incident) and validate(config) to be empty.
WorkEstimate estimateWork(const Incident& incident, const Config& config);

// The estimate of the most expensive of the incident's deployed config and its what-ifs, with
// which one it is ("deployed" or "what-if 'early-probe'") in `label`.
WorkEstimate largestWork(const Incident& incident, std::string* label = nullptr);

// Empty when the estimate is within `max_requests`; otherwise "the replay would simulate <n>
// requests[ and timer events], above the limit of <max>: <explain()>". The caller adds how to
// raise the limit.
std::string workLimitProblem(const WorkEstimate& estimate, double max_requests);

}  // namespace breakerlab
