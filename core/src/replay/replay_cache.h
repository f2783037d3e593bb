#pragma once
// The replay cache's lead-in snapshot: the simulation's state right after the lead-in, and when
// it may stand in for replaying the lead-in again.
#include <cstdint>
#include <memory>
#include <vector>

#include "breakerlab/core/breakers/breaker_model.h"
#include "breakerlab/core/replay/simulate.h"
#include "dependency/dependency_model.h"
#include "dependency/traffic_model.h"
#include "outcome/run_facts.h"
#include "replay/parts/breaker_fleet.h"
#include "replay/parts/client_pods.h"
#include "replay/parts/client_state.h"
#include "replay/parts/held_call.h"
#include "replay/parts/in_flight.h"
#include "replay/parts/price_cache.h"
#include "replay/parts/retry_loop.h"
#include "replay/run_shape.h"

namespace breakerlab {

// What the lead-in's calls asked of the timeouts and the retry policy. When no attempt failed,
// neither the retry policy nor a timeout longer than every call acted: the same lead-in happens
// under any retry policy and any timeouts that still outlast its longest attempt and request.
struct LeadInTimes {
  bool failures = false;       // an attempt failed, was rejected or ran into a timeout
  Micros longest_attempt = 0;  // the longest answer of an attempt (those still in flight too)
  Micros longest_request = 0;  // from a request's arrival to its latest attempt's answer
  bool outlastedBy(const TimeoutConfig& t) const {
    return !failures && longest_attempt < t.attempt && (t.total == 0 || longest_request < t.total);
  }
};

// What of `config` a lead-in can have exercised: the config with every field the lead-in cannot
// have read set to its default. Fields are compared unless listed here, so that a field added to
// Config later can never make a stale lead-in look reusable. What the lead-in cannot read: the
// open and half-open rules of a breaker that never left closed (BreakerLab's own model), the
// other libraries' options when BreakerLab's model runs, and the fallback cache unless pricing
// is cache-first (otherwise the lead-in's requests are not counted, so nothing reads it), and,
// with `calls_outlasted` (no attempt failed and the timeouts of both configs compared outlast
// every call), the timeouts and the retry policy but its budget, token bucket and throttling
// (which every request feeds).
Config leadInView(Config config, bool breaker_moved, bool calls_outlasted = false);

// A finished replay that would have gone the same under other worker limits per pod: every
// comparison of a pod's busy workers with its limit (a worker for an arrival or a call, a health
// check on the shared pool) came out as it did for each limit in [workers_lo, workers_hi]. Nothing
// else of the run reads the limit but the capacity in the report, so a replay with such a limit
// is this run with its report built again. Kept only for runs without timed changes.
struct WorkerLimitRun {
  const Incident* incident;
  std::uint64_t seed;
  Micros lead_in;
  Config config;  // the run's, workers.per_pod 0
  std::uint32_t workers_lo, workers_hi;
  ReportParts parts;  // what the run followed: it serves replays asking for no more
  RunFacts facts;     // as the report reads them, worker_capacity aside
  Result result;      // records and series; the report not yet built

  static Config keyOf(Config config) {
    config.workers.per_pod = 0;
    return config;
  }
  bool serves(const Incident& i, const Config& c, ReportParts wanted) const {
    return incident == &i && seed == i.seed && lead_in == i.traffic.lead_in &&
           c.workers.per_pod >= workers_lo && c.workers.per_pod <= workers_hi &&
           parts.contains(wanted) && keyOf(c) == config;
  }
};

// A finished replay whose tail other runs of its config under other worker limits may join. The
// runs of a map row differ only in that limit, and once an incident is over they settle into the
// same quiet run: at a second at which no request is under way, every pod is in rotation with no
// worker busy and the dependency's servers are idle, two such runs are the same run but for the
// round robin's place, if the same health checks are to come. From there they go on alike while
// every pod's busy workers stay below both limits and no pod leaves rotation: every arrival finds
// a worker and every check passes on whichever pod the round robin gives it, and the pods are
// alike. A run that joins this one at such a second keeps its own records and counters so far and
// takes this run's records and counter gains from there on. Kept only for runs whose report reads
// nothing but the records and those counters (no levels or series over time), without timed
// changes, breaker, fallback cache, connection pool, retry budget or background retries.
struct TailRun {
  struct Checkpoint {
    bool quiet = false;         // the run was quiet at this second
    std::uint32_t records = 0;  // checkouts that arrived before it
    FactCounters counters{};    // the run's counters there
    Micros next_check_at = 0;   // the health checks to come
    std::uint64_t checks_done = 0;
    std::uint64_t admissions = 0;  // calls admitted to the calls in flight before it
    // From this second to the end of the run: the most workers any pod had busy, and whether no
    // comparison with the limit found a pod full (with none, no check failed, so every pod
    // stayed in rotation). While the run goes on, each holds what the stretch to the next quiet
    // second saw; keeping the run takes them over the rest of it.
    std::uint32_t busy_peak = 0;
    bool joinable = false;
  };
  const Incident* incident;
  std::uint64_t seed;
  Micros lead_in;
  Config config;  // the run's, workers.per_pod 0
  ReportParts parts;
  std::vector<Checkpoint> seconds;  // per second of the window, from its start
  std::vector<CheckoutRecord> records;
  FactCounters counters{};
  std::uint64_t admissions = 0;

  bool serves(const Incident& i, const Config& c, ReportParts wanted) const {
    return incident == &i && seed == i.seed && lead_in == i.traffic.lead_in && parts == wanted &&
           WorkerLimitRun::keyOf(c) == config;
  }
};

// How many replays on this thread joined a TailRun (for tests and benchmarks).
std::uint64_t& tailJoins();

// How many replays on this thread a WorkerLimitRun has served (for tests and benchmarks).
std::uint64_t& workerLimitReuses();

// The simulation's state right after the lead-in. The cache's fallback settings are not part of
// it unless pricing is cache-first: otherwise the lead-in's requests are not counted, so nothing
// in it reads the cache.
struct ReplayCache::Snapshot {
  const Incident* incident;
  std::uint64_t seed;
  Micros lead_in;
  Config config;
  RunShape shape;
  bool breaker_moved;  // the breaker left the closed state during the lead-in
  LeadInTimes times;
  BreakerFleet breakers;
  DependencyModel dependency;
  std::vector<PriceCache> caches;
  InFlight in_flight;
  RetryLoop retries;
  ClientState client;
  ClientPods pods;
  std::vector<HeldCall> held;
  std::vector<std::uint32_t> free_held;
  std::uint64_t lead_in_requests;
  // The window's arrivals, drawn by the first replay that needed them; they outlive the lead-in
  // (a new snapshot takes them over) and are checked against the incident before each use.
  std::shared_ptr<const WindowArrivals> arrivals = nullptr;
  // The worker limits the lead-in's comparisons allow (see WorkerLimitRun).
  std::uint32_t workers_lo = 1, workers_hi = UINT32_MAX;
  // The last replay that serves other worker limits; a new snapshot takes it over too.
  std::shared_ptr<const WorkerLimitRun> worker_limit_run = nullptr;
  // The last replay whose tail others may join; a new snapshot takes it over too.
  std::shared_ptr<const TailRun> tail_run = nullptr;

  bool serves(const Incident& i, const Config& c, const RunShape& run_shape) const;
};

}  // namespace breakerlab
