#pragma once
// Lanes: a named row of state intervals over time, as drawn in the timing view.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// How far a replayed lane is from the recorded one, however different: over the time both
// cover, how long each recorded state was replayed as itself and as each other state, and
// where the replay put each of the record's edges.
struct LaneStateAgreement {
  std::string state;    // a recorded state, in the order the record first has it
  Micros recorded = 0;  // how long the record has it, within the span both lanes cover
  Micros agreed = 0;    // of which the replay has it too
  // The rest, by the state the replay has instead, in the order first met.
  std::vector<std::pair<std::string, Micros>> replayed_as;
  bool operator==(const LaneStateAgreement&) const = default;
};
struct LaneEdgeOffset {
  Micros at = 0;  // the recorded edge: `from` ends, `to` begins
  std::string from, to;
  // The replay's edge into `to` nearest to `at` (the earlier of two as near), minus `at`;
  // nullopt when the replay never enters `to` after another state.
  std::optional<Micros> offset;
  bool operator==(const LaneEdgeOffset&) const = default;
};
struct LaneAgreement {
  Micros span = 0;       // the time both lanes cover
  Micros disagreed = 0;  // of which they have different states
  std::vector<LaneStateAgreement> states;
  std::vector<LaneEdgeOffset> edges;  // the record's, in order
  bool operator==(const LaneAgreement&) const = default;
  // "820 s of 3120 s disagree: slow (660 s recorded) replayed as failed 660 s; ... Edges:
  // fresh→slow at 180 s not replayed; slow→failed at 840 s replayed 660 s early; ..."
  std::string summary() const;
};
LaneAgreement laneAgreement(const Lane& recorded, const Lane& replayed);

}  // namespace breakerlab
