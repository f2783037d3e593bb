#include "pod_breaker_inference.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "breakerlab/core/basics/breaker_state.h"
#include "breakerlab/core/outcome/fleet.h"

namespace breakerlab::data_detail {

PodBreakerInference::PodBreakerInference(std::vector<std::string> pod_names, std::uint32_t probes)
    : names_(std::move(pod_names)),
      probes_(std::max<std::uint32_t>(1, probes)),
      pods_(names_.size()) {}

void PodBreakerInference::enter(Pod& pod, State state, Micros at) {
  pod.state = state;
  if (state == State::open) pod.open_since = at;
  pod.changes.emplace_back(state, at);
}

void PodBreakerInference::add(std::uint32_t pod, Micros at, Micros end, PodEvidence evidence,
                              Micros asked) {
  Pod& p = pods_[pod];
  const bool rejected = evidence == PodEvidence::rejected;
  rejections_ += rejected ? 1 : 0;
  if (evidence != PodEvidence::retry) {
    if (p.state != State::none && at > p.last_request) {
      const auto gap = static_cast<std::uint64_t>(at - p.last_request);
      const int power = std::bit_width(gap) - 1;  // gap >= 1
      const int fraction = power >= 4 ? static_cast<int>((gap >> (power - 4)) & 15)
                                      : static_cast<int>((gap << (4 - power)) & 15);
      ++gap_counts_[static_cast<std::size_t>(power * 16 + fraction)];
      ++gaps_;
    }
    p.last_request = std::max(p.last_request, at);
  }
  if (p.state == State::none) {
    p.first = at;
    p.last_end = end;
    enter(p, rejected ? State::open : State::closed, at);
    return;
  }
  p.last_end = std::max(p.last_end, end);
  switch (p.state) {
    case State::closed:
      if (rejected) enter(p, State::open, at);
      break;
    case State::open:
      if (evidence == PodEvidence::let_through && asked >= p.open_since) {
        enter(p, State::half_open, at);
        p.probes = 1;
        p.probes_end = end;
      }
      break;
    case State::half_open:
      if (evidence == PodEvidence::retry) {
        p.probes_end = std::max(p.probes_end, end);
      } else if (rejected) {
        // Once every permit was used and the probes have ended, a rejection is a probe that
        // failed. Before, it is the permits in use, or the probes' spacing (breaker.probe_spacing).
        if (p.probes >= probes_ && at >= p.probes_end) enter(p, State::open, p.probes_end);
      } else if (p.probes < probes_ && at < p.probes_end) {
        ++p.probes;  // one of the permits
        p.probes_end = std::max(p.probes_end, end);
      } else if (p.probes < probes_) {
        // The probes so far have ended and the breaker still lets requests through: it is
        // waiting for its other permits to be used.
        ++p.probes;
        p.probes_end = end;
      } else {
        // More requests let through than the half-open breaker permits: it had closed.
        enter(p, State::closed, std::min(at, p.probes_end));
      }
      break;
    case State::none:
      break;
  }
}

Micros PodBreakerInference::requestGapQuantile(double q) const {
  if (gaps_ == 0) return 0;
  const auto wanted = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(gaps_)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < gap_counts_.size(); ++b) {
    seen += gap_counts_[b];
    if (seen >= std::max<std::uint64_t>(wanted, 1)) {
      // The bucket's upper end: (16 + fraction + 1) / 16 * 2^power.
      const int power = static_cast<int>(b / 16), fraction = static_cast<int>(b % 16);
      const auto upper =
          static_cast<Micros>(std::ldexp(static_cast<double>(16 + fraction + 1), power - 4));
      // In whole 10 ms: the tolerance a report and an incident file show ("2630ms", not
      // "2621440us").
      constexpr Micros kStep = 10 * kMillisecond;
      return (upper + kStep - 1) / kStep * kStep;
    }
  }
  return kNever;
}

std::vector<Lane> PodBreakerInference::lanes(Micros window_start, Micros window_end) const {
  auto name = [](State s) {
    switch (s) {
      case State::open:
        return toString(BreakerState::open);
      case State::half_open:
        return toString(BreakerState::half_open);
      default:
        return toString(BreakerState::closed);
    }
  };
  std::vector<Lane> out;
  out.reserve(pods_.size());
  for (std::size_t k = 0; k < pods_.size(); ++k) {
    const Pod& p = pods_[k];
    Lane lane;
    lane.name = names_[k];
    if (p.changes.empty() || window_end <= window_start) {
      if (window_end > window_start) lane.append(kPodOutOfService, window_start, window_end);
      out.push_back(std::move(lane));
      continue;
    }
    const Micros begin = std::clamp(p.first - window_start > kPodJoinGap ? p.first : window_start,
                                    window_start, window_end);
    const Micros end = std::clamp(window_end - p.last_end > kPodJoinGap ? p.last_end : window_end,
                                  begin, window_end);
    if (begin > window_start) lane.append(kPodOutOfService, window_start, begin);
    for (std::size_t i = 0; i < p.changes.size(); ++i) {
      const Micros from = i == 0 ? begin : std::clamp(p.changes[i].second, begin, end);
      const Micros to =
          i + 1 < p.changes.size() ? std::clamp(p.changes[i + 1].second, begin, end) : end;
      if (from < to) lane.append(name(p.changes[i].first), from, to);
    }
    if (end < window_end) lane.append(kPodOutOfService, end, window_end);
    out.push_back(std::move(lane));
  }
  return out;
}

}  // namespace breakerlab::data_detail
