#include "text_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/values.h"

namespace breakerlab::cli {

namespace {
std::string padded(std::string_view text, std::size_t width) {
  std::string out(text);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

std::string decimals(double v, int max_decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", max_decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

void printLane(std::ostream& out, std::string_view name, const Lane& lane) {
  out << "  " << name << ": "
      << (lane.intervals.empty() ? "(empty)" : laneText(lane, kLaneIntervalsShown)) << '\n';
}
}  // namespace

std::string laneText(const Lane& lane, std::size_t max_intervals) {
  std::string text;
  const std::size_t shown = std::min(max_intervals, lane.intervals.size());
  for (std::size_t k = 0; k < shown; ++k) {
    const LaneInterval& i = lane.intervals[k];
    if (!text.empty()) text += " | ";
    text +=
        i.state + " " + decimals(toSeconds(i.from), 2) + "\u2013" + decimals(toSeconds(i.to), 2);
  }
  if (shown == lane.intervals.size()) return text;
  // The rest as time in each state, in the order the states first appear after the cut.
  struct Total {
    std::string state;
    Micros time = 0;
    std::size_t spells = 0;
  };
  std::vector<Total> totals;
  for (std::size_t k = shown; k < lane.intervals.size(); ++k) {
    const LaneInterval& i = lane.intervals[k];
    auto it = std::find_if(totals.begin(), totals.end(),
                           [&](const Total& t) { return t.state == i.state; });
    if (it == totals.end()) it = totals.insert(totals.end(), Total{i.state, 0, 0});
    it->time += i.to - i.from;
    ++it->spells;
  }
  text += " | \u2026 " + std::to_string(lane.intervals.size() - shown) + " more to " +
          decimals(toSeconds(lane.intervals.back().to), 2) + " (";
  for (std::size_t k = 0; k < totals.size(); ++k) {
    if (k > 0) text += ", ";
    text += totals[k].state + " " + decimals(toSeconds(totals[k].time), 2) + " s in " +
            std::to_string(totals[k].spells);
  }
  text += "; --json lists every interval)";
  return text;
}

std::string metricText(const MetricInfo& info, const std::optional<double>& value) {
  if (!value) return "\u2014 (not defined in this run)";
  std::string text = decimals(*value, 3);
  if (!info.unit.empty()) text += " " + std::string(info.unit);
  return text;
}

void printReport(std::ostream& out, const Incident& incident, const std::string& config_label,
                 const Result& result, const Checks& checks) {
  out << incident.id << ": " << incident.title << '\n';
  out << "config: " << config_label << "; seed " << incident.seed << "; window "
      << formatSeconds(incident.start) << "\u2013" << formatSeconds(incident.end) << " s";
  if (incident.clock_start)
    out << " (" << formatClockTime(*incident.clock_start + incident.start) << "\u2013"
        << formatClockTime(*incident.clock_start + incident.end) << " UTC, t = 0 at "
        << formatUtcTimestamp(*incident.clock_start) << ")";
  out << '\n';

  out << "\nMetrics\n";
  std::size_t width = 0;
  for (const MetricInfo& info : metricRegistry()) width = std::max(width, info.name.size());
  for (const MetricInfo& info : metricRegistry())
    out << "  " << padded(info.name, width + 2) << metricText(info, info.get(result.metrics))
        << '\n';

  out << "\nLanes (seconds)\n";
  const std::pair<std::string_view, const Lane*> replayed[] = {{"breaker", &result.breaker},
                                                               {"dependency", &result.dependency},
                                                               {"health", &result.health},
                                                               {"checkout", &result.checkout}};
  for (const auto& [name, lane] : replayed) {
    printLane(out, name, *lane);
    if (const Lane* rec = incident.recorded.lane(name))
      printLane(out, std::string(name) + " (recorded)", *rec);
  }
  for (const Lane& rec : incident.recorded.lanes) {
    if (result.lane(rec.name) == nullptr) printLane(out, rec.name + " (recorded)", rec);
  }

  out << "\nEvents\n";
  if (result.events.empty()) out << "  (none)\n";
  for (const Event& e : result.events) {
    char at[32];
    std::snprintf(at, sizeof at, "%8.3f", toSeconds(e.at));
    out << "  " << at << "  " << padded(toString(e.kind), 13) << padded(e.lane, 12) << e.label
        << '\n';
  }

  const auto printChecks = [&](std::string_view title,
                               const std::vector<ExpectationResult>& results) {
    if (results.empty()) return;
    out << '\n' << title << '\n';
    for (const ExpectationResult& r : results) {
      out << "  " << (r.passed ? "PASS" : "FAIL") << "  " << r.expectation->text << "  (actual "
          << r.actual << ")";
      if (r.expectation->line > 0) out << "  [line " << r.expectation->line << "]";
      out << '\n';
    }
  };
  printChecks("Calibration (the incident's expect:, on the deployed config's replay)",
              checks.calibration);
  printChecks("Checks (" + checks.checks_of + ", on this config)", checks.checks);
  if (!checks.goals.empty()) {
    out << "\nGoals (the incident's goals:, on this config; deployed beside)\n";
    for (std::size_t i = 0; i < checks.goals.size(); ++i) {
      const ExpectationResult& r = checks.goals[i];
      out << "  " << (r.passed ? "met    " : "NOT MET") << "  " << r.expectation->text
          << "  (actual " << r.actual;
      if (i < checks.baseline_goals.size())
        out << "; deployed " << checks.baseline_goals[i].actual
            << (checks.baseline_goals[i].passed ? ", met" : ", not met");
      out << ")";
      if (r.expectation->line > 0) out << "  [line " << r.expectation->line << "]";
      out << '\n';
    }
  }
  const std::size_t checked = checks.calibration.size() + checks.checks.size();
  if (checked == 0 && checks.goals.empty()) out << "\nExpectations\n  (none)\n";
  if (checked > 0 || !checks.goals.empty()) out << '\n';
  if (checked > 0) {
    std::size_t passed = 0;
    for (const auto* group : {&checks.calibration, &checks.checks})
      for (const ExpectationResult& r : *group) passed += r.passed ? 1 : 0;
    out << passed << " of " << checked << " expectations passed\n";
  }
  if (!checks.goals.empty())
    out << goalVerdictText(
               checks.goalComparison(),
               regressedMetricsText(checks.regressions, dependencyWords(incident.dependency.name)))
        << '\n';
}

}  // namespace breakerlab::cli
