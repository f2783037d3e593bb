#pragma once
// An incident: the traffic, the dependency's behaviour over time, the config as deployed and
// what was recorded, all already parsed (the data library reads files into this).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/lanes.h"
#include "breakerlab/core/inputs/recorded_calls.h"
#include "breakerlab/core/inputs/timed_change.h"

namespace breakerlab {

enum class ArrivalProcess : std::uint8_t { uniform, poisson, recorded };

// Requests per second over [from, to), rising linearly from rps_from to rps_to.
struct RatePiece {
  Micros from = 0;
  Micros to = 0;
  double rps_from = 0;
  double rps_to = 0;
  bool operator==(const RatePiece&) const = default;
};

struct KeyDistribution {
  std::uint32_t count = 1;  // distinct keys (SKUs)
  double zipf = 0.0;        // 0 = uniform; key k has weight 1/(k+1)^zipf
};

struct Traffic {
  ArrivalProcess arrivals = ArrivalProcess::uniform;
  std::vector<RatePiece> rate;   // uniform and poisson
  std::vector<Micros> recorded;  // recorded: arrival times, ascending
  // recorded: each arrival's key (a request log's); empty: keys are drawn from `keys`.
  std::vector<std::uint32_t> recorded_keys;
  KeyDistribution keys;
  Micros lead_in = 60 * kSecond;  // warm-up before t=0 at the t=0 rate (fills the cache)
};

enum class Health : std::uint8_t { green, red };

// How the dependency answers a call started at time t within a segment.
struct LatencyModel {
  enum class Kind : std::uint8_t { fixed, lognormal, exponential } kind = Kind::fixed;
  Micros p50 = 10 * kMillisecond;  // the value itself when fixed; the mean when exponential
  Micros p99 = 10 * kMillisecond;
};

// Probabilities (0..1) of each failure class; the rest is success.
struct OutcomeMix {
  double timeout = 0;
  double refused = 0;
  double server_error = 0;
  double client_error = 0;
  double total() const { return timeout + refused + server_error + client_error; }
};

// The dependency over [from, to). Values move linearly from *_start at `from` to *_end at
// `to` (equal when the segment has no ramp).
struct DependencySegment {
  std::string state;  // e.g. "healthy", "timing out", "connection refused"
  Micros from = 0;
  Micros to = 0;
  Health health = Health::green;
  LatencyModel latency_start;
  LatencyModel latency_end;
  OutcomeMix mix_start;
  OutcomeMix mix_end;
  Micros refused_latency = 1 * kMillisecond;  // how fast a refused connection fails
  // Probability (0..1) that a retry gets the same answer as the request's first attempt: the
  // trouble follows the request (its card issuer, its query) rather than the attempt.
  double retry_correlation = 0;
};

struct HealthSpan {
  Micros from = 0;
  Micros to = 0;
  Health health = Health::green;
};

// A ceiling on the calls the dependency works on at once, shared by every client (its database
// pool, a provider-side connection limit). Calls beyond it queue first come, first served, so
// latency grows with load. A call that waits `queue_timeout` is answered 503 (server_error).
// A call the client gave up on is still worked on when `keeps_working` (the work was not
// cancelled), so abandoned attempts and their retries add load, and a hung call holds its
// server for the client's timeout from when it reached one. Cancelled work stops when the
// client gives up.
// queue: first come, first served on `concurrency` servers. share: every call starts at once
// and shares the servers (processor sharing): its work stretches by the calls held beyond the
// ceiling when it arrives, max(1, held / concurrency); nothing queues.
// load: no ceiling; a call's latency grows by `per_call` for every call the dependency holds
// when it arrives (base + k × calls in service, Brooker's minimal metastable model), abandoned
// calls counting while `keeps_working`.
enum class CapacityDiscipline : std::uint8_t { queue, share, load };

struct DependencyCapacity {
  std::uint32_t concurrency = 0;  // 0 = unlimited
  CapacityDiscipline discipline = CapacityDiscipline::queue;
  Micros queue_timeout = 0;  // 0 = calls wait as long as it takes
  bool keeps_working = true;
  Micros per_call = 0;  // load: latency added per call in service

  // Whether there is a ceiling that a factor can scale (scenario.capacity.scale,
  // dependency.capacity.scale): a concurrency, under discipline queue or share (load has none).
  bool hasCeiling() const { return concurrency > 0 && discipline != CapacityDiscipline::load; }
  // The ceiling times `factor`, rounded, at least 1; no ceiling (0) stays 0.
  std::uint32_t scaledConcurrency(double factor) const;
};

// Why a timed change cannot scale a dependency without hasCeiling(): said by validate(Incident)
// and by the incident reader at the key.
inline constexpr std::string_view kNoCeilingToScale =
    "dependency.capacity.scale needs a concurrency ceiling to scale: the dependency has no "
    "capacity.concurrency, or its discipline is load (a latency per call in service, no ceiling)";

struct Dependency {
  std::string name = "dependency";
  std::vector<DependencySegment> segments;  // contiguous, covering the window
  std::vector<HealthSpan> health;           // what the health check reports; green outside
  DependencyCapacity capacity;
  // A request log's calls: when set, they answer the replay's calls instead of the segments
  // (which then only draw the lanes), one per Traffic::recorded arrival. Shared, because a log
  // holds millions of calls and incidents are copied.
  std::shared_ptr<const RecordedCalls> calls;
  // Where `calls` came from, so an incident file can point at the log instead of holding it
  // (`dependency.recorded_calls` in breakerlab/1).
  struct CallsSource {
    std::string file;     // as written in the incident file (relative to it) or given
    std::string format;   // "csv" or "jsonl"
    std::string mapping;  // `--map` text; empty: the usual column names
  } calls_source;
};

// How the checkout lane is drawn from per-request outcomes.
struct CheckoutLaneRule {
  Micros bucket = kSecond;
  Micros slow_latency = 500 * kMillisecond;  // a checkout slower than this is "slow"
  double slow_share = 0.10;                  // bucket is "slow" when this share is slow
  double failed_share = 0.10;                // bucket is "failed" when this share failed
};

struct RecordedEvent {
  Micros at = 0;
  std::string label;
  std::string lane;
};

struct Bracket {
  Micros from = 0;
  Micros to = 0;
  std::string label;
};

struct Recorded {
  std::vector<Lane> lanes;  // named "breaker", "dependency", "checkout"
  // The fleet as recorded, one breaker lane per pod (a Prometheus series per instance, a request
  // log's pod column, OTLP spans' service.instance.id): lane k stands beside the replay's pod k
  // (Result::pod_breakers[k]); its name is the instance as recorded ("10.0.0.7:8080",
  // "checkout-7f9c-x2"). Empty when the record has no per-pod breaker.
  std::vector<Lane> pod_breakers;
  std::vector<RecordedEvent> events;
  std::vector<Bracket> brackets;
  const Lane* lane(std::string_view name) const;
};

enum class CompareOp : std::uint8_t { eq, ne, lt, le, gt, ge };

// One `expect:` line: a metric compared with a value (with an optional tolerance, absolute
// or relative), or a replayed lane that must match the recorded one within a time tolerance.
struct Expectation {
  std::string text;  // as written, for reports
  int line = 0;      // in the source file, for reports
  enum class Kind : std::uint8_t { metric, lane } kind = Kind::metric;
  std::string metric;
  CompareOp op = CompareOp::eq;
  double value = 0;
  double tolerance = 0;  // absolute, or fraction of value when tolerance_relative
  bool tolerance_relative = false;
  std::string lane;
  Micros within = 0;
};

// A named alternative config (a remediation, a proposed fix) with its own expectations.
struct WhatIf {
  std::string name;
  std::string description;
  Config config;
  std::vector<Expectation> expect;
  // The incident's timed changes as this what-if has them (added, removed, moved); nullopt:
  // the incident's own.
  std::optional<std::vector<TimedChange>> changes;
};

struct Incident {
  std::string id;
  std::string title;
  std::string summary;
  std::string source;  // the document it was built from
  Micros start = 0;
  Micros end = 60 * kSecond;
  // The wall clock at t = 0 (UTC, microseconds since 1970-01-01), when the file gives `start:`.
  std::optional<Micros> clock_start;
  // The time of day (UTC, microseconds after midnight) at t = 0 when a document gives it without
  // its date ("t=0 is 14:02:00"): the time axis reads the clock (issue #33), nothing is dated
  // by it. Not written to breakerlab/1, whose `start:` is a whole timestamp.
  std::optional<Micros> clock_of_day;
  std::uint64_t seed = 1;
  Traffic traffic;
  Dependency dependency;
  CheckoutLaneRule checkout_lane;
  Config deployed;
  // What the operators changed during the window, applied on top of the config replayed.
  std::vector<TimedChange> changes;
  std::vector<WhatIf> what_ifs;
  Recorded recorded;
  // Calibration: what the record says of the deployed config, checked against its replay (a
  // lane that matches the recorded one, the document's counts). A tuned config is not held to
  // these: they say whether the model reproduces the incident.
  std::vector<Expectation> expect;
  // What a good config must achieve (the document's action items, its "good outcome"), checked
  // against the config being tuned. Metric comparisons only: a lane that matches the record
  // is calibration, never a goal.
  std::vector<Expectation> goals;

  const WhatIf* whatIf(std::string_view name) const;
};

// The first problem that makes the incident unusable, or an empty string.
std::string validate(const Incident& incident);

}  // namespace breakerlab
