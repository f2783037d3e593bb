#pragma once
// From replays to the report: each run's lanes drawn and the metrics formatted as the workbench
// shows them, then the report's sections built (data/report.h). Shared by `breakerlab-cli
// report` and File > Export Report.
#include <optional>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/data/report.h"

namespace breakerlab::app {

// One config of the report, replayed.
struct ReportRun {
  std::string title;        // "Deployed config", "What-if early-probe", "tuned.yaml"
  std::string description;  // one line under the title; may be empty
  Incident incident;        // as replayed: the what-if's timed changes, a scenario
  Config config;
  Result result;
  // Calibration (the first run's is the report's), goals with the deployed config's beside,
  // the config's own checks.
  Checks checks;
};

// `runs[0]` is the deployed config's. `opened` is the incident as opened (its title, window,
// calibration), from the file named `opened_file`. Needs a QApplication (the lanes are drawn
// by the workbench's view). Throws std::invalid_argument when a config cannot be exported to
// `target`.
ReportDocument assembleReport(const Incident& opened, const std::string& opened_file,
                              const std::optional<ImportReport>& import, ExportTarget target,
                              const std::vector<ReportRun>& runs);

// The target a report's diff uses when none is asked for: the library the first config that
// follows one follows, else BreakerLab's own YAML.
ExportTarget defaultReportTarget(const std::vector<ReportRun>& runs);

}  // namespace breakerlab::app
