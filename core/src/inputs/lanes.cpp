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

namespace {

std::string laneSecondsText(Micros t) {
  std::ostringstream s;
  s << toSeconds(t) << " s";
  return s.str();
}

// The lane's edges: where one state ends and another begins at the same time.
std::vector<LaneEdgeOffset> laneEdgesOf(const Lane& lane) {
  std::vector<LaneEdgeOffset> out;
  const auto& v = lane.intervals;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i - 1].to == v[i].from && v[i - 1].state != v[i].state)
      out.push_back({v[i].from, v[i - 1].state, v[i].state, std::nullopt});
  return out;
}

}  // namespace

LaneAgreement laneAgreement(const Lane& recorded, const Lane& replayed) {
  LaneAgreement out;
  for (const LaneInterval& i : recorded.intervals)
    if (std::none_of(out.states.begin(), out.states.end(),
                     [&](const LaneStateAgreement& s) { return s.state == i.state; }))
      out.states.push_back({i.state, 0, 0, {}});
  // Between two consecutive boundaries of either lane, each lane holds one state (or none).
  std::vector<Micros> cuts;
  for (const Lane* lane : {&recorded, &replayed})
    for (const LaneInterval& i : lane->intervals) cuts.insert(cuts.end(), {i.from, i.to});
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    const std::string_view was = recorded.stateAt(cuts[k - 1]);
    const std::string_view now = replayed.stateAt(cuts[k - 1]);
    if (was.empty() || now.empty()) continue;
    const Micros d = cuts[k] - cuts[k - 1];
    out.span += d;
    LaneStateAgreement& s =
        *std::find_if(out.states.begin(), out.states.end(),
                      [&](const LaneStateAgreement& x) { return x.state == was; });
    s.recorded += d;
    if (was == now) {
      s.agreed += d;
      continue;
    }
    out.disagreed += d;
    auto other = std::find_if(s.replayed_as.begin(), s.replayed_as.end(),
                              [&](const auto& x) { return x.first == now; });
    if (other == s.replayed_as.end())
      s.replayed_as.emplace_back(std::string(now), d);
    else
      other->second += d;
  }
  const std::vector<LaneEdgeOffset> replayed_edges = laneEdgesOf(replayed);
  out.edges = laneEdgesOf(recorded);
  for (LaneEdgeOffset& e : out.edges)
    for (const LaneEdgeOffset& r : replayed_edges)
      if (r.to == e.to && (!e.offset || std::llabs(r.at - e.at) < std::llabs(*e.offset)))
        e.offset = r.at - e.at;
  return out;
}

std::string LaneAgreement::summary() const {
  std::string out = laneSecondsText(disagreed) + " of " + laneSecondsText(span) + " disagree";
  std::string states_text;
  for (const LaneStateAgreement& s : states) {
    if (s.replayed_as.empty()) continue;
    states_text += (states_text.empty() ? ": " : "; ") + s.state + " (" +
                   laneSecondsText(s.recorded) + " recorded) replayed as";
    for (std::size_t i = 0; i < s.replayed_as.size(); ++i)
      states_text += (i == 0 ? " " : ", ") + s.replayed_as[i].first + " " +
                     laneSecondsText(s.replayed_as[i].second);
  }
  out += states_text;
  if (!edges.empty()) {
    out += ". Edges:";
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const LaneEdgeOffset& e = edges[i];
      out +=
          std::string(i == 0 ? " " : "; ") + e.from + "→" + e.to + " at " + laneSecondsText(e.at);
      if (!e.offset)
        out += " not replayed";
      else if (*e.offset == 0)
        out += " replayed at it";
      else
        out += " replayed " + laneSecondsText(std::llabs(*e.offset)) +
               (*e.offset < 0 ? " early" : " late");
    }
  }
  return out;
}

}  // namespace breakerlab
