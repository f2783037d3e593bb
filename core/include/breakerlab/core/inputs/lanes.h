#pragma once
// Lanes: a named row of state intervals over time, as drawn in the timing view.
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/time.h"

namespace breakerlab {

struct LaneInterval {
  std::string state;
  Micros from = 0;
  Micros to = 0;
  std::string label;  // display text when it differs from the state (recorded lanes)
  bool operator==(const LaneInterval&) const = default;
};

struct Lane {
  std::string name;
  std::vector<LaneInterval> intervals;
  bool operator==(const Lane&) const = default;

  // The state at time t, or an empty view outside the lane.
  std::string_view stateAt(Micros t) const;
  // Appends [from, to) in `state`, merging with the previous interval when it has the same state.
  void append(std::string_view state, Micros from, Micros to);
};

struct LaneComparison {
  bool matches = false;
  Micros worst_boundary_error = 0;
  std::string explanation;  // what differs, when it does not match
};

// Same states in the same order, and every boundary within `tolerance`.
LaneComparison compareLanes(const Lane& recorded, const Lane& replayed, Micros tolerance);

}  // namespace breakerlab
