// JSON reports: what `breakerlab-cli replay --json` and `breaker --json` print.
#include "breakerlab/data/report_json.h"

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/outcome/pod_lanes.h"

namespace breakerlab {

namespace {
using nlohmann::json;

json laneToJson(const Lane& lane) {
  json out = json::array();
  for (const auto& i : lane.intervals) {
    json item = {{"state", i.state}, {"from", toSeconds(i.from)}, {"to", toSeconds(i.to)}};
    if (!i.label.empty()) item["label"] = i.label;
    out.push_back(std::move(item));
  }
  return out;
}

json seriesToJson(const std::vector<std::uint32_t>& series) {
  return json(series);
}

json checkToJson(const ExpectationResult& r) {
  json item = {{"passed", r.passed}, {"actual", r.actual}};
  item["text"] = r.expectation != nullptr ? r.expectation->text : std::string();
  item["line"] = r.expectation != nullptr ? r.expectation->line : 0;
  return item;
}

json checksToJson(const std::vector<ExpectationResult>& results) {
  json out = json::array();
  for (const ExpectationResult& r : results) out.push_back(checkToJson(r));
  return out;
}
}  // namespace

json podComparisonToJson(const Incident& incident, const Result& result) {
  // Within the incident's `every pod` check, else its breaker lane check, else 1 s.
  Micros within = kSecond;
  bool found = false;
  for (const Expectation& e : incident.expect)
    if (e.kind == Expectation::Kind::lane &&
        (e.lane == kEveryPodLane || (!found && e.lane == "breaker"))) {
      within = e.within;
      found = found || e.lane == kEveryPodLane;
    }
  const PodLaneComparison c =
      comparePodLanes(incident.recorded.pod_breakers, result.pod_breakers, within);
  json pods = json::array();
  for (const PodLaneComparison::Pod& p : c.pods) {
    json item = {{"recorded", p.recorded},
                 {"replayed", p.replayed.empty() ? json(nullptr) : json(p.replayed)},
                 {"matches", p.comparison.matches},
                 {"states_match", p.states_match}};
    if (p.states_match)
      item["worst_boundary_error_s"] = toSeconds(p.comparison.worst_boundary_error);
    if (!p.comparison.matches) item["explanation"] = p.comparison.explanation;
    pods.push_back(std::move(item));
  }
  return {{"within_s", toSeconds(within)},
          {"recorded_pods", c.pods.size()},
          {"replayed_pods", c.replayed_pods},
          {"pods_matching", c.matching},
          {"pods_states_match", c.states_match},
          {"worst_boundary_error_s", toSeconds(c.worst_boundary_error)},
          {"all_match", c.allMatch()},
          {"summary", c.summary()},
          {"pods", std::move(pods)}};
}

json metricsToJson(const Metrics& metrics) {
  json out = json::object();
  for (const MetricInfo& info : metricRegistry()) {
    const auto value = info.get(metrics);
    out[std::string(info.name)] = value ? json(*value) : json(nullptr);
  }
  return out;
}

json replayToJson(const Incident& incident, const Result& result, const Checks& checks) {
  json report;
  report["format"] = kReportFormat;
  report["incident"] = {{"id", incident.id}, {"title", incident.title}};

  report["metrics"] = metricsToJson(result.metrics);

  report["lanes"] = {{"breaker", laneToJson(result.breaker)},
                     {"dependency", laneToJson(result.dependency)},
                     {"health", laneToJson(result.health)},
                     {"checkout", laneToJson(result.checkout)},
                     {"pods", laneToJson(result.pods)}};
  // Per-pod breakers: each pod's lane (empty with one breaker for the fleet).
  json pod_lanes = json::array();
  for (const Lane& lane : result.pod_breakers) pod_lanes.push_back(laneToJson(lane));
  report["pod_lanes"] = std::move(pod_lanes);
  json recorded = json::object();
  for (const Lane& lane : incident.recorded.lanes) recorded[lane.name] = laneToJson(lane);
  report["recorded_lanes"] = std::move(recorded);
  // The recorded fleet, pod by pod, and how the replay's pods compare with it.
  if (!incident.recorded.pod_breakers.empty()) {
    json recorded_pods = json::array();
    for (const Lane& lane : incident.recorded.pod_breakers)
      recorded_pods.push_back({{"pod", lane.name}, {"lane", laneToJson(lane)}});
    report["recorded_pod_lanes"] = std::move(recorded_pods);
    report["pod_comparison"] = podComparisonToJson(incident, result);
  }

  json events = json::array();
  for (const Event& e : result.events)
    events.push_back({{"at", toSeconds(e.at)},
                      {"kind", std::string(toString(e.kind))},
                      {"lane", e.lane},
                      {"label", e.label}});
  report["events"] = std::move(events);

  report["calibration"] = checksToJson(checks.calibration);
  report["checks"] = checksToJson(checks.checks);
  if (!checks.checks_of.empty()) report["checks_of"] = checks.checks_of;
  json expectations = checksToJson(checks.calibration);
  for (const ExpectationResult& r : checks.checks) expectations.push_back(checkToJson(r));
  report["expectations"] = std::move(expectations);
  const GoalComparison comparison = checks.goalComparison();
  json goals = checksToJson(checks.goals);
  for (std::size_t i = 0; i < checks.goals.size() && i < checks.baseline_goals.size(); ++i) {
    goals[i]["deployed_passed"] = checks.baseline_goals[i].passed;
    goals[i]["deployed_actual"] = checks.baseline_goals[i].actual;
  }
  report["goals"] = {{"total", comparison.total},
                     {"met", comparison.met},
                     {"deployed_met", comparison.baseline_met},
                     {"verdict", std::string(toString(comparison.verdict))},
                     {"results", std::move(goals)}};

  const SecondSeries& s = result.per_second;
  report["per_second"] = {{"checkouts", seriesToJson(s.checkouts)},
                          {"fresh", seriesToJson(s.fresh)},
                          {"cached", seriesToJson(s.cached)},
                          {"failed", seriesToJson(s.failed)},
                          {"dependency_calls", seriesToJson(s.dependency_calls)},
                          {"dependency_failures", seriesToJson(s.dependency_failures)},
                          {"workers_busy", seriesToJson(s.workers_busy)},
                          {"pool_busy", seriesToJson(s.pool_busy)},
                          {"pending_retries", seriesToJson(s.pending_retries)},
                          {"dependency_load", seriesToJson(s.dependency_load)},
                          {"dependency_busy", seriesToJson(s.dependency_busy)},
                          {"pods_in_rotation", seriesToJson(s.pods_in_rotation)}};
  return report;
}

json breakerReplayToJson(const std::vector<LoggedCall>& calls, const BreakerReplay& replay) {
  json report;
  report["format"] = kBreakerReportFormat;
  json items = json::array();
  std::size_t permitted = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const bool ok = i < replay.permitted.size() && replay.permitted[i];
    permitted += ok ? 1 : 0;
    items.push_back({{"index", i},
                     {"start", toSeconds(calls[i].start)},
                     {"duration", toSeconds(calls[i].duration)},
                     {"outcome", std::string(toString(calls[i].outcome))},
                     {"permitted", ok}});
  }
  report["calls"] = std::move(items);
  json transitions = json::array();
  for (const BreakerTransition& t : replay.transitions)
    transitions.push_back({{"at", toSeconds(t.at)},
                           {"from", std::string(toString(t.from))},
                           {"to", std::string(toString(t.to))},
                           {"cause", std::string(toString(t.cause))}});
  report["transitions"] = std::move(transitions);
  report["summary"] = {
      {"calls", calls.size()}, {"permitted", permitted}, {"rejected", calls.size() - permitted}};
  return report;
}

}  // namespace breakerlab
