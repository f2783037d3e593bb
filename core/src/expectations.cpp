#include "breakerlab/core/expectations.h"

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

ExpectationResult evaluateLane(const Expectation& e, const Incident& incident,
                               const Result& result) {
  ExpectationResult r{&e, false, {}};
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
    r.actual = c.explanation;
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
    ExpectationResult r{&e, false, {}};
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

bool allPassed(const std::vector<ExpectationResult>& results) {
  for (const ExpectationResult& r : results)
    if (!r.passed) return false;
  return true;
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
