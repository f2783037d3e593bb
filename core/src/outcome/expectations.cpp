#include "breakerlab/core/outcome/expectations.h"

#include "breakerlab/core/outcome/pod_lanes.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace breakerlab {

std::string_view toString(CompareOp op) {
  switch (op) {
    case CompareOp::eq:
      return "==";
    case CompareOp::ne:
      return "!=";
    case CompareOp::lt:
      return "<";
    case CompareOp::le:
      return "<=";
    case CompareOp::gt:
      return ">";
    case CompareOp::ge:
      return ">=";
  }
  return "?";
}

namespace {
bool compare(double actual, const Expectation& e) {
  const double tol = e.tolerance_relative ? std::abs(e.value) * e.tolerance : e.tolerance;
  switch (e.op) {
    case CompareOp::eq:
      return std::abs(actual - e.value) <= tol;
    case CompareOp::ne:
      return std::abs(actual - e.value) > tol;
    case CompareOp::lt:
      return actual < e.value + tol;
    case CompareOp::le:
      return actual <= e.value + tol;
    case CompareOp::gt:
      return actual > e.value - tol;
    case CompareOp::ge:
      return actual >= e.value - tol;
  }
  return false;
}

// `lane: every pod` (each recorded pod lane against the replay's pod at its position) or
// `lane: "pod:NAME"` (the recorded pod lane NAME against the replay's pod at its position).
ExpectationResult evaluatePodLanes(const Expectation& e, const Incident& incident,
                                   const Result& result) {
  ExpectationResult r{&e, false, {}, {}};
  const std::vector<Lane>& recorded = incident.recorded.pod_breakers;
  if (e.lane == kEveryPodLane) {
    const PodLaneComparison c = comparePodLanes(recorded, result.pod_breakers, e.within);
    r.passed = c.allMatch();
    r.actual = c.summary();
    return r;
  }
  const std::string_view name = std::string_view(e.lane).substr(kPodLanePrefix.size());
  const auto it =
      std::find_if(recorded.begin(), recorded.end(), [&](const Lane& l) { return l.name == name; });
  if (it == recorded.end()) {
    r.actual = "no recorded pod lane '" + std::string(name) + "'";
    return r;
  }
  const std::size_t k = static_cast<std::size_t>(it - recorded.begin());
  if (k >= result.pod_breakers.size()) {
    r.actual = "the replay has no pod " + std::to_string(k + 1) + " (" +
               std::to_string(result.pod_breakers.size()) + " pods replayed)";
    return r;
  }
  const LaneComparison c = compareLanes(*it, result.pod_breakers[k], e.within);
  r.passed = c.matches;
  if (c.matches) {
    std::ostringstream s;
    s << "matches " << result.pod_breakers[k].name << "; worst boundary "
      << toSeconds(c.worst_boundary_error) << " s off";
    r.actual = s.str();
  } else {
    r.actual = result.pod_breakers[k].name + ": " + c.explanation;
  }
  return r;
}

ExpectationResult evaluateLane(const Expectation& e, const Incident& incident,
                               const Result& result) {
  if (e.lane == kEveryPodLane || e.lane.starts_with(kPodLanePrefix))
    return evaluatePodLanes(e, incident, result);
  ExpectationResult r{&e, false, {}, {}};
  const Lane* recorded = incident.recorded.lane(e.lane);
  const Lane* replayed = result.lane(e.lane);
  if (recorded == nullptr || replayed == nullptr) {
    r.actual = "no " + std::string(recorded == nullptr ? "recorded" : "replayed") + " lane '" +
               e.lane + "'";
    return r;
  }
  const LaneComparison c = compareLanes(*recorded, *replayed, e.within);
  r.passed = c.matches;
  if (c.matches) {
    std::ostringstream s;
    s << "matches; worst boundary " << toSeconds(c.worst_boundary_error) << " s off";
    r.actual = s.str();
  } else {
    // How far off, not only the first difference: a replay that misses a state can still be
    // close or far from the record.
    r.actual = c.explanation + "; " + laneAgreement(*recorded, *replayed).summary();
  }
  return r;
}
}  // namespace

std::vector<ExpectationResult> evaluate(const std::vector<Expectation>& expectations,
                                        const Incident& incident, const Result& result) {
  std::vector<ExpectationResult> out;
  out.reserve(expectations.size());
  for (const auto& e : expectations) {
    if (e.kind == Expectation::Kind::lane) {
      out.push_back(evaluateLane(e, incident, result));
      continue;
    }
    ExpectationResult r{&e, false, {}, {}};
    const MetricInfo* info = findMetric(e.metric);
    if (info == nullptr) {
      r.actual = "unknown metric";
    } else if (auto v = info->get(result.metrics); !v) {
      r.actual = "not defined in this run";
    } else {
      std::ostringstream s;
      s << *v;
      r.actual = s.str();
      r.passed = compare(*v, e);
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ExpectationResult> evaluateCalibration(const std::vector<Expectation>& expect,
                                                   const Incident& incident, const Result& result) {
  std::vector<ExpectationResult> out = evaluate(expect, incident, result);
  constexpr std::string_view kLane = "checkout";
  const bool checked = std::any_of(expect.begin(), expect.end(), [&](const Expectation& e) {
    return e.kind == Expectation::Kind::lane && e.lane == kLane;
  });
  if (checked || incident.recorded.lane(kLane) == nullptr || result.lane(kLane) == nullptr)
    return out;
  auto implied = std::make_shared<Expectation>();
  implied->kind = Expectation::Kind::lane;
  implied->lane = kLane;
  implied->within = incident.checkout_lane.bucket;
  std::ostringstream text;
  text << "lane checkout matches recorded within " << toSeconds(implied->within)
       << " s (one bucket; implied by the recorded lane)";
  implied->text = text.str();
  ExpectationResult r = evaluateLane(*implied, incident, result);
  if (r.passed)
    r.actual += "; " + laneAgreement(*incident.recorded.lane(kLane), *result.lane(kLane)).summary();
  r.implied = std::move(implied);
  out.push_back(std::move(r));
  return out;
}

bool allPassed(const std::vector<ExpectationResult>& results) {
  for (const ExpectationResult& r : results)
    if (!r.passed) return false;
  return true;
}

double shortfall(const Expectation& e, const Incident& incident, const Result& result) {
  if (e.kind == Expectation::Kind::lane) return evaluateLane(e, incident, result).passed ? 0 : 1;
  const MetricInfo* info = findMetric(e.metric);
  const std::optional<double> v = info != nullptr ? info->get(result.metrics) : std::nullopt;
  if (!v) return 1;
  if (compare(*v, e)) return 0;
  const double tol = e.tolerance_relative ? std::abs(e.value) * e.tolerance : e.tolerance;
  const double scale = std::max(std::abs(e.value), 1.0);
  double distance = 1;
  switch (e.op) {
    case CompareOp::eq:
      distance = (std::abs(*v - e.value) - tol) / scale;
      break;
    case CompareOp::ne:
      return 1;
    case CompareOp::lt:
    case CompareOp::le:
      distance = (*v - (e.value + tol)) / scale;
      break;
    case CompareOp::gt:
    case CompareOp::ge:
      distance = ((e.value - tol) - *v) / scale;
      break;
  }
  return std::max(distance, 1e-9);
}

std::optional<std::uint64_t> failedCheckoutsAllowed(const std::vector<Expectation>& goals) {
  std::optional<std::uint64_t> allowed;
  for (const Expectation& e : goals) {
    if (e.kind != Expectation::Kind::metric || e.metric != "failed_checkouts") continue;
    const double tol = e.tolerance_relative ? std::abs(e.value) * e.tolerance : e.tolerance;
    double most = -1;  // the largest count that passes
    switch (e.op) {
      case CompareOp::eq:
      case CompareOp::le:
        most = std::floor(e.value + tol);
        break;
      case CompareOp::lt:
        most = std::ceil(e.value + tol) - 1;
        break;
      default:
        continue;  // a lower bound or != is not decided by the first failures
    }
    if (most < 0) most = 0;  // met by no count: any run fails it; stop at the first failure
    const auto n = static_cast<std::uint64_t>(std::min(most, 1e18));
    allowed = allowed ? std::min(*allowed, n) : n;
  }
  return allowed;
}

GoalComparison compareGoals(const std::vector<ExpectationResult>& current,
                            const std::vector<ExpectationResult>& baseline) {
  GoalComparison c;
  c.total = current.size();
  bool same_ones = current.size() == baseline.size();
  for (std::size_t i = 0; i < current.size(); ++i) {
    c.met += current[i].passed ? 1 : 0;
    if (i < baseline.size() && baseline[i].passed != current[i].passed) same_ones = false;
  }
  for (const ExpectationResult& r : baseline) c.baseline_met += r.passed ? 1 : 0;
  using V = GoalComparison::Verdict;
  if (c.total == 0) {
    c.verdict = V::none;
  } else if (c.met != c.baseline_met) {
    c.verdict = c.met > c.baseline_met ? V::better : V::worse;
  } else {
    c.verdict = same_ones ? V::same : V::mixed;
  }
  return c;
}

std::string_view toString(GoalComparison::Verdict verdict) {
  switch (verdict) {
    case GoalComparison::Verdict::none:
      return "none";
    case GoalComparison::Verdict::better:
      return "better";
    case GoalComparison::Verdict::same:
      return "same";
    case GoalComparison::Verdict::mixed:
      return "mixed";
    case GoalComparison::Verdict::worse:
      return "worse";
  }
  return "?";
}

}  // namespace breakerlab
