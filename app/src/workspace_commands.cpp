// `replay --workspace FILE [--save-run NAME]` and `runs FILE [--incident ID] [--json]`.
#include <algorithm>
#include <charconv>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/workspace.h"
#include "breakerlab/data/workspace_run.h"
#include "commands.h"

namespace breakerlab::cli {

namespace {

std::string orDash(const std::optional<double>& value, int decimals) {
  if (!value) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << *value;
  return out.str();
}

std::string goalsText(const RunSummary& r) {
  if (r.goals_total == 0) return "-";
  return std::to_string(r.goals_met) + "/" + std::to_string(r.goals_total);
}

std::string calibrationText(const RunSummary& r) {
  if (!r.calibration_passed) return "-";
  return *r.calibration_passed ? "ok" : "FAILED";
}

// A workspace error is bad input to the command (exit 2), said the way the workspace says it.
[[noreturn]] void rethrowAsUsage(const WorkspaceError& e) {
  throw UsageError(e.what());
}

}  // namespace

std::int64_t recordRun(const std::string& workspace_file, const std::string& run_name,
                       const ImportedIncident& opened, const std::filesystem::path& document,
                       const RunInputs& inputs, const Incident& replayed, const Result& result,
                       const Checks& checks) {
  try {
    Workspace ws = Workspace::open(workspace_file);
    const std::int64_t incident = addIncidentOnce(ws, storedIncidentOf(opened, document));
    NewRun run;
    run.incident_id = incident;
    run.name = run_name;
    run.inputs = inputs;
    run.metrics_json = metricsJsonOf(replayed, result);
    run.checks = storedChecksOf(checks);
    return ws.saveRun(run);
  } catch (const WorkspaceError& e) {
    rethrowAsUsage(e);
  }
}

int runRuns(const RunsOptions& options, std::ostream& out) {
  RunFilter filter;
  filter.limit = options.limit;
  try {
    const Workspace ws = Workspace::open(options.workspace, Workspace::Access::read_only);
    if (!options.incident.empty()) {
      // An incident's id in the workspace, else (part of) its name or title: "0908" is a name.
      std::int64_t id = 0;
      const char* first = options.incident.data();
      const char* last = first + options.incident.size();
      const auto [end, ec] = std::from_chars(first, last, id);
      const std::vector<IncidentSummary> incidents = ws.incidents();
      const bool is_id = ec == std::errc() && end == last &&
                         std::any_of(incidents.begin(), incidents.end(),
                                     [&](const IncidentSummary& i) { return i.id == id; });
      if (is_id) {
        filter.incident_id = id;
      } else {
        filter.incident_text = options.incident;
      }
    }
    std::vector<RunSummary> runs = ws.runs(filter);
    if (options.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const RunSummary& r : runs) {
        nlohmann::json item = {{"id", r.id},
                               {"incident_id", r.incident_id},
                               {"incident", r.incident_name},
                               {"name", r.name},
                               {"config", r.config_name},
                               {"library", r.library},
                               {"seed", std::to_string(r.seed)},
                               {"created_at", r.created_at},
                               {"goals_met", r.goals_met},
                               {"goals_total", r.goals_total},
                               {"has_note", r.has_note}};
        item["failed_checkouts"] =
            r.failed_checkouts ? nlohmann::json(*r.failed_checkouts) : nlohmann::json(nullptr);
        item["cached_while_healthy_s"] = r.cached_while_healthy_s
                                             ? nlohmann::json(*r.cached_while_healthy_s)
                                             : nlohmann::json(nullptr);
        item["calibration_passed"] =
            r.calibration_passed ? nlohmann::json(*r.calibration_passed) : nlohmann::json(nullptr);
        list.push_back(std::move(item));
      }
      out << nlohmann::json{{"format", "breakerlab-runs/1"},
                            {"workspace", options.workspace},
                            {"runs", std::move(list)}}
                 .dump(2)
          << '\n';
      return kExitOk;
    }
    if (runs.empty()) {
      out << "No runs in " << options.workspace
          << (filter.incident_id || !filter.incident_text.empty() ? " for that incident" : "")
          << ". Save one with: breakerlab-cli replay INCIDENT --workspace " << options.workspace
          << " --save-run NAME\n";
      return kExitOk;
    }
    out << std::left << std::setw(6) << "run" << std::setw(25) << "saved (UTC)" << std::setw(34)
        << "incident" << std::setw(24) << "name" << std::setw(13) << "library" << std::right
        << std::setw(8) << "failed" << std::setw(11) << "cached" << std::setw(7) << "goals"
        << std::setw(8) << "calib." << '\n';
    for (const RunSummary& r : runs) {
      const std::string name = r.name.empty() ? r.config_name : r.name;
      out << std::left << std::setw(6) << r.id << std::setw(25) << r.created_at << std::setw(34)
          << clipText(r.incident_name, 32) << std::setw(24)
          << clipText(name.empty() ? "-" : name, 22) << std::setw(13) << r.library << std::right
          << std::setw(8) << orDash(r.failed_checkouts, 0) << std::setw(11)
          << orDash(r.cached_while_healthy_s, 1) << std::setw(7) << goalsText(r) << std::setw(8)
          << calibrationText(r) << '\n';
    }
    out << runs.size() << (runs.size() == 1 ? " run" : " runs")
        << ", newest first.\nfailed: failed checkouts; cached: seconds of cached prices while the "
           "dependency was healthy; goals: met of the incident's goals; calib.: calibration "
           "checks.\n";
    return kExitOk;
  } catch (const WorkspaceError& e) {
    rethrowAsUsage(e);
  }
}

}  // namespace breakerlab::cli
