#pragma once
// The recorded fleet against the replayed one, pod by pod (Recorded::pod_breakers beside
// Result::pod_breakers), and the fleet at a glance drawn from recorded pod lanes. Pure functions
// of lanes, tested with hand-made fleets (tests/core/outcome/pod_lanes_test.cpp).
//
// Pods pair by position: recorded lane k (importers order them by podNameLess) beside the
// replay's pod k+1 (the load balancer's k-th pod). A record of instances "a", "b", "c" is
// compared with the replay's pods 1, 2, 3.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/lanes.h"

namespace breakerlab {

// The name of the lane check over every pod (`{lane: every pod, matches: recorded}`), and the
// prefix of a check of one pod by its recorded name (`{lane: "pod:10.0.0.7:8080", ...}`).
inline constexpr std::string_view kEveryPodLane = "every pod";
inline constexpr std::string_view kPodLanePrefix = "pod:";

struct PodLaneComparison {
  struct Pod {
    std::string recorded;       // the recorded lane's name (the instance)
    std::string replayed;       // the replayed lane's name ("pod 3"); empty when the replay has no
                                // pod at this position
    bool states_match = false;  // the same states in the same order
    LaneComparison comparison;  // matches: states and every boundary within the tolerance
  };
  std::vector<Pod> pods;          // one per recorded pod lane, in order
  std::size_t matching = 0;       // pods whose comparison matches
  std::size_t states_match = 0;   // pods whose states line up (boundaries may be off)
  std::size_t replayed_pods = 0;  // lanes the replay has (more or fewer than recorded)
  // The worst boundary error over the pods whose states line up (0 when none does).
  Micros worst_boundary_error = 0;
  // Every recorded pod matches, and the replay has as many pods as the record (and at least one).
  bool allMatch() const {
    return !pods.empty() && matching == pods.size() && replayed_pods == pods.size();
  }
  // "3 of 4 pods match; worst boundary 2.5 s off; pod-3: interval 2: recorded open ..."
  std::string summary() const;
};

// The order importers give recorded pods: by name, numbers within names by value ("pod-2"
// before "pod-10", "9" before "10"), so that numbered instances pair with the replay's pods in
// their order. Names equal but for leading zeros are ordered as plain text.
bool podNameLess(std::string_view a, std::string_view b);

// Compares recorded pod lane k with replayed pod lane k (compareLanes within `tolerance`).
PodLaneComparison comparePodLanes(const std::vector<Lane>& recorded,
                                  const std::vector<Lane>& replayed, Micros tolerance);

// The fleet at a glance from pod lanes, as one breaker lane named `name`: "open" while any pod is
// open, "half-open" while none is open and one is half-open, "closed" otherwise (a pod out of
// service, kPodOutOfService or a gap, counts for nothing). Pods' states other than these three
// count as closed. Covers the union of the pods' intervals; empty without pods.
Lane fleetLaneOfPods(const std::vector<Lane>& pods, std::string name = "breaker");

}  // namespace breakerlab
