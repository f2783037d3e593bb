#include "breakerlab/core/outcome/fleet.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "breakerlab/core/basics/breaker_state.h"

namespace breakerlab {

namespace {

// What happens to the fleet's counts at one time: pods leave service, pods enter it, breakers
// change state, in that order at equal times (a pod added at t has a new breaker that may act
// at t).
struct Step {
  Micros at;
  std::uint8_t order;  // 0 leave, 1 enter, 2 transition
  std::uint32_t pod;
  const BreakerTransition* transition;
  bool operator<(const Step& o) const {
    return std::tie(at, order, pod) < std::tie(o.at, o.order, o.pod);
  }
};

std::vector<Step> stepsOf(const FleetBreakers& fleet) {
  std::vector<Step> steps;
  for (const FleetBreakers::Span& s : fleet.spans) {
    steps.push_back({s.from, 1, s.pod, nullptr});
    if (s.to != kNever) steps.push_back({s.to, 0, s.pod, nullptr});
  }
  for (std::uint32_t pod = 0; pod < fleet.pods.size(); ++pod)
    for (const BreakerTransition& t : fleet.pods[pod]) steps.push_back({t.at, 2, pod, &t});
  std::stable_sort(steps.begin(), steps.end());
  return steps;
}

// A pod's breaker changed state.
struct PodTransition {
  std::uint32_t pod;
  const BreakerTransition* transition;
};

// Walks the steps time by time; `visit(counts, the pods' transitions at that time)` after each
// time. With a shared breaker, its transitions are every pod's in service.
template <class Visit>
void sweep(const FleetBreakers& fleet, Visit&& visit) {
  const std::vector<Step> steps = stepsOf(fleet);
  std::uint32_t pods = static_cast<std::uint32_t>(fleet.pods.size());
  for (const FleetBreakers::Span& s : fleet.spans) pods = std::max(pods, s.pod + 1);
  std::vector<BreakerState> state(pods, BreakerState::closed);
  std::vector<std::uint8_t> serving(pods, 0);
  FleetBreakers::Count count;
  auto counter = [&](BreakerState s) -> std::uint32_t& {
    return s == BreakerState::open
               ? count.open
               : (s == BreakerState::half_open ? count.half_open : count.closed);
  };
  auto change = [&](std::uint32_t pod, const BreakerTransition* t,
                    std::vector<PodTransition>& at_time) {
    if (serving[pod]) {
      --counter(state[pod]);
      ++counter(t->to);
      at_time.push_back({pod, t});
    }
    state[pod] = t->to;
  };
  std::vector<PodTransition> at_time;
  for (std::size_t i = 0; i < steps.size();) {
    const Micros at = steps[i].at;
    at_time.clear();
    for (; i < steps.size() && steps[i].at == at; ++i) {
      const Step& s = steps[i];
      switch (s.order) {
        case 0:
          if (serving[s.pod]) --counter(state[s.pod]);
          serving[s.pod] = 0;
          break;
        case 1:
          // A pod that enters service under a shared breaker takes the breaker's state.
          if (fleet.shared && !fleet.pods.empty()) state[s.pod] = state[0];
          if (!serving[s.pod]) ++counter(state[s.pod]);
          serving[s.pod] = 1;
          break;
        default:
          if (fleet.shared) {
            for (std::uint32_t pod = 0; pod < pods; ++pod) change(pod, s.transition, at_time);
            state[0] = s.transition->to;
          } else {
            change(s.pod, s.transition, at_time);
          }
      }
    }
    count.at = at;
    visit(static_cast<const FleetBreakers::Count&>(count),
          static_cast<const std::vector<PodTransition>&>(at_time));
  }
}

BreakerState fleetState(const FleetBreakers::Count& c) {
  if (c.open > 0) return BreakerState::open;
  if (c.half_open > 0) return BreakerState::half_open;
  return BreakerState::closed;
}

}  // namespace

std::vector<FleetBreakers::Count> FleetBreakers::counts() const {
  std::vector<Count> out;
  sweep(*this, [&](const Count& c, const auto&) {
    if (out.empty() || out.back().closed != c.closed || out.back().open != c.open ||
        out.back().half_open != c.half_open)
      out.push_back(c);
  });
  return out;
}

std::vector<BreakerTransition> FleetBreakers::summary() const {
  std::vector<BreakerTransition> out;
  BreakerState now = BreakerState::closed;
  sweep(*this, [&](const Count& c, const std::vector<PodTransition>& at_time) {
    const BreakerState next = fleetState(c);
    if (next == now) return;
    BreakerTransition t;
    t.at = c.at;
    t.cause = BreakerTransition::Cause::pods_scaled;
    t.episode_start = c.at;
    // The pod transition that made the fleet's: the last at this time into the new state.
    for (auto it = at_time.rbegin(); it != at_time.rend(); ++it) {
      if (it->transition->to == next) {
        t = *it->transition;
        break;
      }
    }
    t.from = now;
    t.to = next;
    out.push_back(t);
    now = next;
  });
  return out;
}

std::vector<Lane> FleetBreakers::lanes(Micros start, Micros end) const {
  if (pods.empty()) return {};
  // With a shared breaker every pod that was ever in service has a lane, each showing the one
  // breaker's states while that pod was in service.
  std::uint32_t count = static_cast<std::uint32_t>(pods.size());
  if (shared)
    for (const Span& s : spans) count = std::max(count, s.pod + 1);
  // Each pod's spans in service, in time order.
  std::vector<std::vector<Span>> spans_of(count);
  for (const Span& s : spans) spans_of[s.pod].push_back(s);
  std::vector<Lane> out(count);
  for (std::uint32_t pod = 0; pod < count; ++pod) {
    Lane& lane = out[pod];
    lane.name = "pod " + std::to_string(pod + 1);
    std::vector<Span>& mine = spans_of[pod];
    std::sort(mine.begin(), mine.end(),
              [](const Span& a, const Span& b) { return a.from < b.from; });
    BreakerState state = BreakerState::closed;
    std::size_t next = 0;
    const std::vector<BreakerTransition>& ts = pods[shared ? 0 : pod];
    // Cut points: span edges and transitions, clipped to the window.
    std::vector<Micros> cuts{start, end};
    for (const Span& s : mine) {
      cuts.push_back(std::clamp(s.from, start, end));
      cuts.push_back(std::clamp(s.to, start, end));
    }
    for (const BreakerTransition& t : ts) cuts.push_back(std::clamp(t.at, start, end));
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::size_t span = 0;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const Micros a = cuts[k], b = cuts[k + 1];
      while (next < ts.size() && ts[next].at <= a) state = ts[next++].to;
      while (span < mine.size() && mine[span].to <= a) ++span;
      const bool serving = span < mine.size() && mine[span].from <= a;
      lane.append(serving ? toString(state) : kPodOutOfService, a, b);
    }
  }
  return out;
}

std::optional<PodCachedWhileHealthy> podCachedWhileHealthy(const std::vector<Lane>& pod_lanes,
                                                           const Lane& health,
                                                           std::string_view healthy) {
  double sum = 0, most = 0;
  std::uint32_t in_service = 0;
  for (const Lane& lane : pod_lanes) {
    bool served = false;
    Micros cached = 0;
    auto h = health.intervals.begin();
    for (const LaneInterval& x : lane.intervals) {
      if (x.state == kPodOutOfService) continue;
      served = true;
      if (x.state == toString(BreakerState::closed)) continue;
      // Both lanes are in time order: walk the health lane once per pod lane.
      while (h != health.intervals.end() && h->to <= x.from) ++h;
      for (auto y = h; y != health.intervals.end() && y->from < x.to; ++y) {
        if (y->state != healthy) continue;
        const Micros from = std::max(x.from, y->from), to = std::min(x.to, y->to);
        if (to > from) cached += to - from;
      }
    }
    if (!served) continue;
    ++in_service;
    sum += toSeconds(cached);
    most = std::max(most, toSeconds(cached));
  }
  if (in_service == 0) return std::nullopt;
  return PodCachedWhileHealthy{most, sum / in_service};
}

Lane FleetBreakers::shareLane(Micros start, Micros end) const {
  Lane lane{"fleet", {}};
  const std::vector<Count> steps = counts();
  auto text = [](const Count& c) {
    const std::uint32_t total = c.closed + c.open + c.half_open;
    if (c.open > 0) {
      if (c.open == total) return std::string("all open");
      return std::to_string(c.open) + " of " + std::to_string(total) + " open";
    }
    if (c.half_open > 0)
      return std::to_string(c.half_open) + " of " + std::to_string(total) + " half-open";
    return std::string("closed");
  };
  std::string state = "closed";
  Micros since = start;
  for (const Count& c : steps) {
    if (c.at >= end) break;
    const std::string next = text(c);
    if (c.at > start && next != state) {
      lane.append(state, since, c.at);
      since = c.at;
    }
    state = next;
  }
  if (end > since) lane.append(state, since, end);
  return lane;
}

FleetMetrics fleetMetrics(const FleetBreakers& fleet, Micros start, Micros end) {
  FleetMetrics m;
  if (fleet.empty() || end <= start) return m;
  std::vector<std::optional<Micros>> first_trip, last_close;
  FleetBreakers::Count previous;
  bool have_previous = false;
  // Time-weighted from the count steps, clipped to the window.
  auto accrue = [&](Micros to) {
    if (!have_previous) return;
    const Micros a = std::max(previous.at, start), b = std::min(to, end);
    if (b <= a) return;
    const double s = toSeconds(b - a);
    m.pod_seconds_open += s * previous.open;
    if (previous.open > 0) m.any_pod_open_s += s;
    if (previous.open > 0 && previous.closed == 0 && previous.half_open == 0)
      m.all_pods_open_s += s;
  };
  sweep(fleet, [&](const FleetBreakers::Count& c, const std::vector<PodTransition>& at_time) {
    accrue(c.at);
    previous = c;
    have_previous = true;
    if (c.at < start || c.at > end) return;
    for (const PodTransition& pt : at_time) {
      if (pt.pod >= first_trip.size()) {
        first_trip.resize(pt.pod + 1);
        last_close.resize(pt.pod + 1);
      }
      const BreakerTransition& t = *pt.transition;
      if (t.from == BreakerState::closed && t.to == BreakerState::open) {
        ++m.pod_trips;
        if (!first_trip[pt.pod]) first_trip[pt.pod] = t.at;
      }
      if (t.to == BreakerState::closed) last_close[pt.pod] = t.at;
    }
  });
  accrue(end);
  auto spread = [](const std::vector<std::optional<Micros>>& times) -> std::optional<double> {
    std::optional<Micros> lo, hi;
    for (const auto& t : times) {
      if (!t) continue;
      lo = std::min(lo.value_or(*t), *t);
      hi = std::max(hi.value_or(*t), *t);
    }
    if (!lo) return std::nullopt;
    return toSeconds(*hi - *lo);
  };
  m.trip_spread_s = spread(first_trip);
  m.close_spread_s = spread(last_close);
  return m;
}

}  // namespace breakerlab
