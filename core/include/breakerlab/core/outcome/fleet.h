#pragma once
// A fleet of per-pod breakers (breaker.scope: per_pod): each pod's transitions and when it was in
// service, and what the report derives from them: the fleet at a glance (how many pods closed,
// open, half-open over time), a lane per pod, and the fleet's metrics. Pure functions of the
// run's record, tested with hand-made fleets (tests/core/outcome/fleet_test.cpp).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/breakers/breaker_types.h"
#include "breakerlab/core/inputs/lanes.h"

namespace breakerlab {

// A pod lane's state while the pod is out of service (not yet scaled out, or scaled in).
inline constexpr std::string_view kPodOutOfService = "no pod";

struct FleetBreakers {
  // A pod in service over [from, to) (to kNever: to the end of the run).
  struct Span {
    std::uint32_t pod = 0;
    Micros from = 0;
    Micros to = kNever;
    bool operator==(const Span&) const = default;
  };
  // How many pods in service were in each state from `at` on.
  struct Count {
    Micros at = 0;
    std::uint32_t closed = 0, open = 0, half_open = 0;
    bool operator==(const Count&) const = default;
  };

  std::vector<std::vector<BreakerTransition>> pods;  // per pod, in time order
  std::vector<Span> spans;
  // One breaker for every pod in service (breaker.scope: shared): `pods` holds only its
  // transitions, and a pod that enters service takes its state.
  bool shared = false;

  bool empty() const { return pods.empty(); }

  // The counts as a step function: one entry at every time they change (the first at the
  // earliest span's start).
  std::vector<Count> counts() const;

  // The fleet at a glance, as one breaker's transitions: open while any pod in service is open,
  // half-open while none is open and one is half-open, closed otherwise. "First pod open -> last
  // pod closed" is one open spell. A change a pod's breaker made carries that transition's cause
  // and episode; one that a pod's entering or leaving service made carries Cause::pods_scaled.
  std::vector<BreakerTransition> summary() const;

  // Each pod's lane over [start, end): its breaker's states, kPodOutOfService where it was out
  // of service. With a shared breaker, one lane per pod ever in service, each with the breaker's
  // states while that pod was in service.
  std::vector<Lane> lanes(Micros start, Micros end) const;

  // The fleet's lane "fleet" over [start, end), from the counts: "closed" while every pod in
  // service is closed, "all open" while every one is open, "3 of 40 open" while some are, and
  // "2 of 40 half-open" while none is open and some are half-open.
  Lane shareLane(Micros start, Micros end) const;
};

// The fleet's metrics over the window [start, end].
struct FleetMetrics {
  double pod_seconds_open = 0;           // summed over pods: time in service and open
  double any_pod_open_s = 0;             // time at least one pod in service was open
  double all_pods_open_s = 0;            // time every pod in service (at least one) was open
  std::uint32_t pod_trips = 0;           // closed -> open transitions over all pods
  std::optional<double> trip_spread_s;   // first trips: the last pod's minus the first pod's
  std::optional<double> close_spread_s;  // last closes: the last pod's minus the first pod's
};
FleetMetrics fleetMetrics(const FleetBreakers& fleet, Micros start, Micros end);

// Per pod, the time its breaker was not closed (its checkouts served from the fallback) while the
// dependency's health lane was `healthy` ("green"), over the pods in service at some time in the
// lanes (FleetBreakers::lanes, already clipped to the window): the most any pod spent so, and the
// mean over those pods. Nothing when no pod was in service.
struct PodCachedWhileHealthy {
  double max_s = 0;
  double mean_s = 0;
};
std::optional<PodCachedWhileHealthy> podCachedWhileHealthy(const std::vector<Lane>& pod_lanes,
                                                           const Lane& health,
                                                           std::string_view healthy = "green");

}  // namespace breakerlab
