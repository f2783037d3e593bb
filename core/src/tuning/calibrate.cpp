#include "breakerlab/core/tuning/calibrate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "breakerlab/core/replay/simulate.h"

namespace breakerlab {

namespace {

double& shareOf(OutcomeMix& mix, FittedShare::Outcome o) {
  switch (o) {
    case FittedShare::Outcome::timeout:
      return mix.timeout;
    case FittedShare::Outcome::refused:
      return mix.refused;
    case FittedShare::Outcome::server_error:
      return mix.server_error;
  }
  return mix.timeout;
}

// The other classes keep their shares; the fitted one takes what is left at most.
void apply(Incident& inc, const FittedShare& f) {
  DependencySegment& s = inc.dependency.segments[f.segment];
  auto set = [&](OutcomeMix& mix, double value) {
    double& x = shareOf(mix, f.outcome);
    const double others = mix.total() - x;
    x = std::clamp(value, 0.0, std::max(0.0, 1.0 - others));
  };
  set(s.mix_start, f.start);
  set(s.mix_end, f.end);
}

// Ordered: states first, then the worst error, then the total.
struct Score {
  std::size_t mismatches = std::numeric_limits<std::size_t>::max();
  std::size_t failed_checks = std::numeric_limits<std::size_t>::max();
  Micros worst = kNever;
  Micros total = kNever;
  bool operator<(const Score& o) const {
    return std::tie(mismatches, failed_checks, worst, total) <
           std::tie(o.mismatches, o.failed_checks, o.worst, o.total);
  }
};

}  // namespace

LaneDistance laneDistance(const Lane& recorded, const Lane& replayed) {
  // Compare the sequences of states, merging repeats; boundaries are where the state changes.
  auto runs = [](const Lane& lane) {
    std::vector<LaneInterval> out;
    for (const LaneInterval& i : lane.intervals) {
      if (!out.empty() && out.back().state == i.state && out.back().to == i.from) {
        out.back().to = i.to;
      } else {
        out.push_back(i);
      }
    }
    return out;
  };
  const auto a = runs(recorded);
  const auto b = runs(replayed);
  LaneDistance d;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (a[i].state != b[i].state) ++d.state_mismatches;
  d.state_mismatches += std::max(a.size(), b.size()) - n;
  d.states_match = d.state_mismatches == 0;
  for (std::size_t i = 1; i < n; ++i) {
    const Micros e = std::llabs(a[i].from - b[i].from);
    d.worst = std::max(d.worst, e);
    d.total += e;
  }
  return d;
}

namespace {
constexpr std::size_t kCoarseRunsPerShare = 66;  // pairs of tenths with start <= end
constexpr std::size_t kFineRunsPerShare = 121;   // hundredths ±5 around the best, both ends
// With one share a second round would repeat the first.
int calibrationRounds(std::size_t shares) {
  return shares > 1 ? 2 : 1;
}
}  // namespace

std::size_t plannedCalibrationRuns(std::size_t shares) {
  return static_cast<std::size_t>(calibrationRounds(shares)) * shares * kCoarseRunsPerShare +
         shares * kFineRunsPerShare;
}

CalibrationResult calibrateShares(Incident& incident, const Config& config,
                                  std::vector<FittedShare> shares, const Lane& target,
                                  const std::vector<Expectation>& checks,
                                  const std::function<bool(double)>& progress) {
  CalibrationResult result;
  if (shares.empty()) return result;
  Score best_score;
  std::vector<FittedShare> best = shares;
  auto tryCandidate = [&](const std::vector<FittedShare>& candidate) {
    for (const FittedShare& f : candidate) apply(incident, f);
    const Result r = simulate(incident, config);
    ++result.runs;
    LaneDistance d = laneDistance(target, r.breaker);
    // A recorded fleet: each pod's lane against the replay's pod at its position, too.
    const std::vector<Lane>& pods = incident.recorded.pod_breakers;
    for (std::size_t p = 0; p < pods.size(); ++p) {
      if (p >= r.pod_breakers.size()) {
        d.state_mismatches += std::max<std::size_t>(pods[p].intervals.size(), 1);
        continue;
      }
      const LaneDistance pod = laneDistance(pods[p], r.pod_breakers[p]);
      d.state_mismatches += pod.state_mismatches;
      d.worst = std::max(d.worst, pod.worst);
      d.total += pod.total;
    }
    d.states_match = d.state_mismatches == 0;
    std::size_t failed = 0;
    if (!checks.empty())
      for (const ExpectationResult& e : evaluate(checks, incident, r)) failed += e.passed ? 0 : 1;
    Score s{d.state_mismatches, failed, d.states_match ? d.worst : kNever,
            d.states_match ? d.total : kNever};
    if (s < best_score) {
      best_score = s;
      best = candidate;
    }
  };

  // A coarse grid of (start <= end) in tenths, one share at a time while the others keep their
  // best values, twice round; then a finer grid in hundredths around the best.
  const std::size_t k = shares.size();
  const int rounds = calibrationRounds(k);
  const std::size_t planned = plannedCalibrationRuns(k);
  std::size_t done = 0;
  auto keep_going = [&]() {
    ++done;
    if (progress && !progress(static_cast<double>(done) / static_cast<double>(planned))) {
      result.stopped = true;
      return false;
    }
    return true;
  };
  for (FittedShare& f : shares) f.start = f.end = 1.0;  // until fitted: the row's full failure
  best = shares;
  for (int round = 0; round < rounds && !result.stopped; ++round) {
    for (std::size_t p = 0; p < k && !result.stopped; ++p) {
      std::vector<FittedShare> candidate = best;
      for (int a = 0; a <= 10 && !result.stopped; ++a)
        for (int b = a; b <= 10 && !result.stopped; ++b) {
          candidate[p].start = a / 10.0;
          candidate[p].end = b / 10.0;
          tryCandidate(candidate);
          if (!keep_going()) break;
        }
    }
  }
  for (std::size_t p = 0; p < k && !result.stopped; ++p) {
    std::vector<FittedShare> candidate = best;
    const double s0 = best[p].start, e0 = best[p].end;
    for (int a = -5; a <= 5 && !result.stopped; ++a)
      for (int b = -5; b <= 5 && !result.stopped; ++b) {
        const double s = std::round((s0 + a / 100.0) * 100) / 100;
        const double e = std::round((e0 + b / 100.0) * 100) / 100;
        if (s < 0 || e > 1 || s > e) {
          if (!keep_going()) break;
          continue;
        }
        candidate[p].start = s;
        candidate[p].end = e;
        tryCandidate(candidate);
        if (!keep_going()) break;
      }
  }

  for (const FittedShare& f : best) apply(incident, f);
  result.shares = best;
  result.lane_matches = best_score.mismatches == 0;
  result.expectations_failed = checks.empty() ? 0 : best_score.failed_checks;
  if (result.lane_matches) {
    result.worst_boundary_error = best_score.worst;
    result.total_boundary_error = best_score.total;
  } else {
    result.explanation =
        "no share makes the replayed breaker lane go through the recorded "
        "states in order (" +
        std::to_string(best_score.mismatches) + " states differ at best)";
  }
  return result;
}

}  // namespace breakerlab
