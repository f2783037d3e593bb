#pragma once
// What one replay produces: every checkout's outcome, the lanes, the events, per-second series
// and the metrics.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/lanes.h"
#include "breakerlab/core/outcome/fleet.h"
#include "breakerlab/core/outcome/metrics.h"

namespace breakerlab {

enum class CheckoutOutcome : std::uint8_t { fresh, cached, failed };
enum class FailReason : std::uint8_t {
  none,
  cache_miss,    // the call failed or was rejected and the cache had no young-enough price
  client_error,  // the dependency gave a business answer (4xx); nothing to fall back on
  no_worker,     // every worker busy and the worker queue full (503 from the client service)
  no_pod,        // the load balancer had no pod in rotation (502)
};

std::string_view toString(CheckoutOutcome outcome);
std::string_view toString(FailReason reason);

// One checkout, 16 bytes: the run keeps one per request.
struct CheckoutRecord {
  Micros arrival = 0;
  std::int32_t latency_us = 0;
  CheckoutOutcome outcome = CheckoutOutcome::fresh;
  FailReason reason = FailReason::none;
  bool breaker_closed = true;  // breaker state seen at arrival
  std::uint8_t reserved = 0;
  bool operator==(const CheckoutRecord&) const = default;
};
static_assert(sizeof(CheckoutRecord) == 16);

enum class EventKind : std::uint8_t {
  trip,       // closed -> open
  reopen,     // half-open -> open
  half_open,  // open -> half-open
  close,      // half-open -> closed
  probe,      // a half-open probe completed
  health_green,
  health_red,
  pod_ejected,   // the load balancer took a client pod out of rotation
  pod_returned,  // and put it back
  change,        // a timed change of the config (an operator's action)
};
std::string_view toString(EventKind kind);

struct Event {
  Micros at = 0;
  EventKind kind = EventKind::trip;
  std::string lane;
  std::string label;
};

// Counts per whole second of the window, indexed from the window start.
struct SecondSeries {
  std::vector<std::uint32_t> checkouts;
  std::vector<std::uint32_t> fresh;
  std::vector<std::uint32_t> cached;
  std::vector<std::uint32_t> failed;
  std::vector<std::uint32_t> dependency_calls;
  std::vector<std::uint32_t> dependency_failures;
  // Peaks (and for pods, the minimum) within each second; empty when the run has no such
  // resource (unlimited workers or pool, one pod without health checks).
  std::vector<std::uint32_t> workers_busy;     // over all pods
  std::vector<std::uint32_t> pool_busy;        // connections in use over all pods
  std::vector<std::uint32_t> pending_retries;  // attempts waiting out their backoff
  std::vector<std::uint32_t> dependency_load;  // calls in flight: sent and not yet answered
  std::vector<std::uint32_t> dependency_busy;  // % of a capped dependency's ceiling in use (mean)
  std::vector<std::uint32_t> pods_in_rotation;

  // Every series, for code that treats them alike (truncating, comparing).
  std::array<std::vector<std::uint32_t>*, 12> all() {
    return {&checkouts,           &fresh,           &cached,    &failed,          &dependency_calls,
            &dependency_failures, &workers_busy,    &pool_busy, &pending_retries, &dependency_load,
            &dependency_busy,     &pods_in_rotation};
  }
};

struct Result {
  std::vector<CheckoutRecord> checkouts;  // in arrival order
  Lane breaker;
  Lane dependency;
  Lane health;
  Lane checkout;
  Lane pods;  // pods in rotation ("8 of 8"); empty without health checks
  // Per-pod breakers (breaker.scope: per_pod, more than one pod): each pod's lane, and how many
  // pods were closed, open and half-open over time. Empty with one breaker.
  std::vector<Lane> pod_breakers;
  Lane fleet;  // FleetBreakers::shareLane: how many pods are open; empty with one breaker
  std::vector<FleetBreakers::Count> fleet_counts;
  std::vector<Event> events;
  SecondSeries per_second;
  Metrics metrics;
  std::uint64_t simulated_requests = 0;  // the window's checkouts plus the lead-in's requests

  const Lane* lane(std::string_view name) const;
};

}  // namespace breakerlab
