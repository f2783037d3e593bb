#include "breakerlab/core/outcome/pod_lanes.h"

#include <algorithm>
#include <sstream>

#include "breakerlab/core/outcome/fleet.h"

namespace breakerlab {

namespace {

bool sameStates(const Lane& a, const Lane& b) {
  if (a.intervals.size() != b.intervals.size()) return false;
  for (std::size_t i = 0; i < a.intervals.size(); ++i)
    if (a.intervals[i].state != b.intervals[i].state) return false;
  return true;
}

std::string seconds(Micros t) {
  std::ostringstream s;
  s << toSeconds(t);
  return s.str();
}

}  // namespace

bool podNameLess(std::string_view a, std::string_view b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      // Runs of digits compare by value: without leading zeros, the longer is larger.
      std::size_t ai = i, bj = j;
      while (ai < a.size() && a[ai] == '0') ++ai;
      while (bj < b.size() && b[bj] == '0') ++bj;
      std::size_t ae = ai, be = bj;
      while (ae < a.size() && digit(a[ae])) ++ae;
      while (be < b.size() && digit(b[be])) ++be;
      if (ae - ai != be - bj) return ae - ai < be - bj;
      const int c = a.substr(ai, ae - ai).compare(b.substr(bj, be - bj));
      if (c != 0) return c < 0;
      i = ae;
      j = be;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  // Lexicographic over tokens (a character, or a run of digits by its value): a strict weak
  // order, made total by plain text where the tokens are equal ("01" and "1").
  if (i == a.size() && j == b.size()) return a < b;
  return i == a.size();
}

PodLaneComparison comparePodLanes(const std::vector<Lane>& recorded,
                                  const std::vector<Lane>& replayed, Micros tolerance) {
  PodLaneComparison out;
  out.replayed_pods = replayed.size();
  out.pods.reserve(recorded.size());
  for (std::size_t k = 0; k < recorded.size(); ++k) {
    PodLaneComparison::Pod pod;
    pod.recorded = recorded[k].name;
    if (k < replayed.size()) {
      pod.replayed = replayed[k].name;
      pod.comparison = compareLanes(recorded[k], replayed[k], tolerance);
      pod.states_match = sameStates(recorded[k], replayed[k]);
    } else {
      pod.comparison.explanation = "the replay has no pod " + std::to_string(k + 1) + " (" +
                                   std::to_string(replayed.size()) + " pods replayed)";
    }
    if (pod.comparison.matches) ++out.matching;
    if (pod.states_match) {
      ++out.states_match;
      out.worst_boundary_error =
          std::max(out.worst_boundary_error, pod.comparison.worst_boundary_error);
    }
    out.pods.push_back(std::move(pod));
  }
  return out;
}

std::string PodLaneComparison::summary() const {
  if (pods.empty()) return "no recorded pod lanes";
  std::string out = std::to_string(matching) + " of " + std::to_string(pods.size()) +
                    (pods.size() == 1 ? " pod matches" : " pods match");
  if (states_match > 0) out += "; worst boundary " + seconds(worst_boundary_error) + " s off";
  if (replayed_pods != pods.size())
    out += "; " + std::to_string(replayed_pods) + " pods replayed, " + std::to_string(pods.size()) +
           " recorded";
  for (const Pod& p : pods)
    if (!p.comparison.matches) {
      out += "; " + p.recorded + ": " + p.comparison.explanation;
      break;  // the first that differs; the JSON report lists every pod
    }
  return out;
}

Lane fleetLaneOfPods(const std::vector<Lane>& pods, std::string name) {
  Lane lane;
  lane.name = std::move(name);
  std::vector<Micros> cuts;
  for (const Lane& p : pods)
    for (const LaneInterval& i : p.intervals) {
      cuts.push_back(i.from);
      cuts.push_back(i.to);
    }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  // One cursor per pod: its intervals are sorted and do not overlap.
  std::vector<std::size_t> at(pods.size(), 0);
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const Micros from = cuts[c], to = cuts[c + 1];
    bool any = false, open = false, half_open = false;
    for (std::size_t k = 0; k < pods.size(); ++k) {
      const std::vector<LaneInterval>& is = pods[k].intervals;
      while (at[k] < is.size() && is[at[k]].to <= from) ++at[k];
      if (at[k] >= is.size() || is[at[k]].from > from) continue;  // a gap: not in service
      const std::string& s = is[at[k]].state;
      if (s == kPodOutOfService) continue;
      any = true;
      open = open || s == "open";
      half_open = half_open || s == "half-open";
    }
    if (!any) {
      // Between pods' lanes: nothing to draw, unless the lane goes on after.
      continue;
    }
    lane.append(open ? "open" : half_open ? "half-open" : "closed", from, to);
  }
  return lane;
}

}  // namespace breakerlab
