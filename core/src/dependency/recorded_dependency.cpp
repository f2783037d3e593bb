#include "dependency/recorded_dependency.h"

#include <algorithm>

namespace breakerlab {

RecordedDependency::RecordedDependency(std::shared_ptr<const RecordedCalls> calls,
                                       std::size_t first_arrival,
                                       const std::vector<DependencySegment>& segments)
    : calls_(std::move(calls)), first_arrival_(first_arrival) {
  if (calls_ == nullptr) return;
  const std::vector<Micros>& start = calls_->start;
  for (std::size_t i = 1; i < segments.size(); ++i) {
    if (!segment_from_.empty() && segments[i].from <= segment_from_.back()) continue;
    segment_from_.push_back(segments[i].from);
    segment_first_call_.push_back(static_cast<std::size_t>(
        std::lower_bound(start.begin(), start.end(), segments[i].from) - start.begin()));
  }
}

DependencyAnswer RecordedDependency::answerOf(std::uint32_t call) const {
  const CallOutcome outcome = calls_->outcome[call];
  // The log says only that the client stopped waiting: to the replay it is a hang, so a longer
  // timeout still times out (when, the log cannot tell).
  if (outcome == CallOutcome::timeout) return {CallOutcome::timeout, kNever};
  return {outcome, static_cast<Micros>(calls_->duration[call])};
}

DependencyAnswer RecordedDependency::answer(Micros t, const CounterRng& rng, Stream stream,
                                            std::uint64_t request, std::uint32_t attempt) const {
  const RecordedCalls& c = *calls_;
  if (stream == Stream::window) {
    const std::uint64_t arrival = request + first_arrival_;
    if (arrival < c.first_of_request.size()) {
      for (std::uint32_t i = c.first_of_request[arrival]; i != RecordedCalls::kNone;
           i = c.next_of_request[i]) {
        if (c.attempt[i] < attempt) continue;
        if (c.attempt[i] == attempt && std::abs(c.start[i] - t) <= kSameCallWindow)
          return answerOf(i);
        break;
      }
    }
  }
  // The recorded calls of t's segment (before the first: the first's; after the last: the
  // last's), or all of them when the segment has none.
  std::size_t first = 0, last = c.start.size();
  const auto segment = static_cast<std::size_t>(
      std::upper_bound(segment_from_.begin(), segment_from_.end(), t) - segment_from_.begin());
  if (segment > 0) first = segment_first_call_[segment - 1];
  if (segment < segment_first_call_.size()) last = segment_first_call_[segment];
  if (first >= last) first = 0, last = c.start.size();
  const auto at = static_cast<std::size_t>(
      std::lower_bound(c.start.begin() + static_cast<std::ptrdiff_t>(first),
                       c.start.begin() + static_cast<std::ptrdiff_t>(last), t) -
      c.start.begin());
  // The kNeighbours calls around `at`, inside [first, last).
  const std::size_t half = kNeighbours / 2;
  std::size_t hi = std::min(last, std::max(at, first + half) + half);
  const std::size_t lo = hi - first > kNeighbours ? hi - kNeighbours : first;
  hi = std::min(last, lo + kNeighbours);
  const double u = rng.uniform(stream, request, attempt, Purpose::outcome);
  const auto pick =
      std::min(hi - 1, lo + static_cast<std::size_t>(u * static_cast<double>(hi - lo)));
  return answerOf(static_cast<std::uint32_t>(pick));
}

std::string validate(const RecordedCalls& calls, std::size_t arrivals) {
  const std::size_t n = calls.start.size();
  if (calls.duration.size() != n || calls.outcome.size() != n || calls.attempt.size() != n ||
      calls.next_of_request.size() != n)
    return "recorded calls: columns of different lengths";
  if (calls.first_of_request.size() != arrivals)
    return "recorded calls: one first call per recorded arrival is needed";
  if (!std::is_sorted(calls.start.begin(), calls.start.end()))
    return "recorded calls: not sorted by start";
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t next = calls.next_of_request[i];
    if (next != RecordedCalls::kNone && (next >= n || calls.attempt[next] <= calls.attempt[i]))
      return "recorded calls: a request's next call must be a later attempt";
    switch (calls.outcome[i]) {
      case CallOutcome::pool_exhausted:
      case CallOutcome::failure:
        return "recorded calls: only answers of the dependency can be recorded";
      default:
        break;
    }
  }
  for (const std::uint32_t first : calls.first_of_request)
    if (first != RecordedCalls::kNone && first >= n) return "recorded calls: a link out of range";
  return {};
}

}  // namespace breakerlab
