#pragma once
// Fitting what a postmortem does not state (the share of calls that failed across a span of
// "timing out", rising as the failover progressed) so that the replay reproduces what it
// recorded: the breaker's lane. Deterministic: a fixed search over the shares, the incident's
// own seed.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"

namespace breakerlab {

// One free parameter: the share of `outcome` calls in dependency segment `segment`, at its start
// and at its end (a linear ramp; equal when the search finds no ramp better).
struct FittedShare {
  std::size_t segment = 0;
  enum class Outcome { timeout, refused, server_error } outcome = Outcome::timeout;
  double start = 0;  // the fit, 0..1
  double end = 0;
};

struct CalibrationResult {
  std::vector<FittedShare> shares;  // the fitted values
  bool lane_matches = false;        // same states in the same order as the recorded lane
  Micros worst_boundary_error = 0;  // of the best fit, when the states match
  Micros total_boundary_error = 0;
  std::size_t expectations_failed = 0;  // of `checks`, by the best fit
  std::size_t runs = 0;                 // replays tried
  bool stopped = false;                 // the progress callback asked to stop
  std::string explanation;              // how the best fit still differs, if it does
};

// How far the replayed lane is from the recorded one: whether the states line up, and the
// boundary errors when they do.
struct LaneDistance {
  bool states_match = false;
  Micros worst = 0;
  Micros total = 0;
  std::size_t state_mismatches = 0;
};
LaneDistance laneDistance(const Lane& recorded, const Lane& replayed);

// Fits `shares` (their segment and outcome; start and end are overwritten) so that replaying
// `incident` with `config` gives a breaker lane closest to `target`: first states in the same
// order, then the fewest failed `checks` (what else the document states, such as the time to
// trip: of the many shares that give the same lane, the ones that also agree with it), then the
// smallest worst boundary error, then the smallest total. When the incident records the fleet
// pod by pod (Recorded::pod_breakers), each pod's lane counts beside `target`: states that differ
// and boundary errors are summed over the breaker lane and every pod. Writes the best fit
// into the incident's segments. `progress` gets the share of the search done; returning false
// stops it (the best so far is kept).
// How many replays calibrateShares plans for `shares` shares (it stops early only when asked).
std::size_t plannedCalibrationRuns(std::size_t shares);

CalibrationResult calibrateShares(Incident& incident, const Config& config,
                                  std::vector<FittedShare> shares, const Lane& target,
                                  const std::vector<Expectation>& checks = {},
                                  const std::function<bool(double)>& progress = {});

}  // namespace breakerlab
