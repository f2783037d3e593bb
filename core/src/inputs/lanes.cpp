#include "breakerlab/core/inputs/lanes.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace breakerlab {

std::string_view Lane::stateAt(Micros t) const {
  auto it = std::upper_bound(intervals.begin(), intervals.end(), t,
                             [](Micros v, const LaneInterval& i) { return v < i.from; });
  if (it == intervals.begin()) return {};
  --it;
  return t < it->to ? std::string_view(it->state) : std::string_view();
}

void Lane::append(std::string_view state, Micros from, Micros to) {
  if (to <= from) return;
  if (!intervals.empty() && intervals.back().state == state && intervals.back().to == from) {
    intervals.back().to = to;
    return;
  }
  intervals.push_back({std::string(state), from, to, {}});
}

LaneComparison compareLanes(const Lane& recorded, const Lane& replayed, Micros tolerance) {
  LaneComparison out;
  auto seconds = [](Micros t) {
    std::ostringstream s;
    s << toSeconds(t);
    return s.str();
  };
  const auto& a = recorded.intervals;
  const auto& b = replayed.intervals;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i].state != b[i].state) {
      out.explanation = "interval " + std::to_string(i + 1) + ": recorded " + a[i].state +
                        " from " + seconds(a[i].from) + " s, replayed " + b[i].state + " from " +
                        seconds(b[i].from) + " s";
      return out;
    }
    for (auto [x, y] : {std::pair{a[i].from, b[i].from}, std::pair{a[i].to, b[i].to}}) {
      out.worst_boundary_error =
          std::max(out.worst_boundary_error, static_cast<Micros>(std::llabs(x - y)));
    }
  }
  if (a.size() != b.size()) {
    out.explanation = "recorded has " + std::to_string(a.size()) + " intervals, replayed " +
                      std::to_string(b.size());
    return out;
  }
  out.matches = out.worst_boundary_error <= tolerance;
  if (!out.matches) {
    out.explanation = "a boundary is " + seconds(out.worst_boundary_error) + " s off (tolerance " +
                      seconds(tolerance) + " s)";
  }
  return out;
}

}  // namespace breakerlab
