// `breakerlab-cli report`: the incident's report for a postmortem review, as HTML or PDF, with
// the deployed config and the configs and what-ifs given. Qt draws the lanes and the PDF, on the
// offscreen platform unless QT_QPA_PLATFORM says otherwise.
#include <QApplication>
#include <memory>
#include <ostream>
#include <stdexcept>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/incident_import.h"
#include "commands.h"
#include "import_progress.h"
#include "long_replay.h"
#include "offscreen_application.h"
#include "report_assembly.h"
#include "report_file.h"

namespace breakerlab::cli {

namespace {

ExportTarget targetOf(const std::string& library, const std::vector<app::ReportRun>& runs) {
  if (library.empty()) return app::defaultReportTarget(runs);
  const auto parsed = breakerLibraryFromString(library);
  if (!parsed) throw UsageError("--library: unknown library \"" + clipText(library) + "\"");
  return exportTargetOf(*parsed);
}

}  // namespace

int runReport(const ReportOptions& options, std::ostream& out) {
  if (options.incident.empty()) throw UsageError("report: the INCIDENT file is required");
  if (options.output.empty()) throw UsageError("report: -o FILE.html or FILE.pdf is required");
  if (!app::reportFormatOf(options.output))
    throw UsageError("report: -o " + clipText(options.output) +
                     ": unknown report type, use a name ending in .html or .pdf");

  const std::filesystem::path path = resolveIncident(options.incident);
  ImportedIncident imported = openWithProgress(path, ImportOptions{});
  const Incident opened = imported.incident;
  std::optional<ImportReport> import_report;
  if (imported.source != IncidentSource::incident) import_report = imported.report;
  const double max_requests = parseMaxRequests("");

  // Every config is read before anything replays: a bad name fails at once.
  std::vector<app::ReportRun> runs;
  runs.push_back({"Deployed config", "", opened, opened.deployed, {}, {}});
  std::vector<const WhatIf*> what_ifs{nullptr};  // per run, the what-if it is
  for (const ReportOptions::Config& choice : options.configs) {
    app::ReportRun run{"", "", opened, opened.deployed, {}, {}};
    if (choice.kind == ReportOptions::Config::Kind::what_if) {
      const WhatIf* w = opened.whatIf(choice.name);
      if (w == nullptr)
        throw UsageError("report: the incident has no what-if '" + clipText(choice.name) +
                         "'; it has: " + whatIfNames(opened));
      run.title = "What-if " + w->name;
      run.description = w->description;
      run.config = w->config;
      if (w->changes) run.incident.changes = *w->changes;
      what_ifs.push_back(w);
    } else {
      run.config = loadConfig(choice.name);
      run.title = std::filesystem::path(choice.name).filename().string();
      run.description = "Config file " + choice.name;
      what_ifs.push_back(nullptr);
    }
    runs.push_back(std::move(run));
  }
  const ExportTarget target = targetOf(options.library, runs);

  for (app::ReportRun& run : runs) {
    requireWorkWithin(run.incident, run.config, max_requests, path.string());
    run.result = replayWithProgress(run.incident, run.config);
  }
  // As `replay` checks them: calibration on the deployed config's replay, goals on each
  // config's beside the deployed one's, a what-if's own expect: on its replay.
  const Result& deployed = runs[0].result;
  const std::vector<ExpectationResult> deployed_goals = evaluate(opened.goals, opened, deployed);
  runs[0].checks.calibration = evaluateCalibration(opened.expect, opened, deployed);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    app::ReportRun& run = runs[i];
    run.checks.goals =
        i == 0 ? deployed_goals : evaluate(run.incident.goals, run.incident, run.result);
    run.checks.baseline_goals = deployed_goals;
    if (i > 0) run.checks.regressions = headlineRegressions(deployed.metrics, run.result.metrics);
    if (const WhatIf* w = what_ifs[i]; w != nullptr && !w->expect.empty()) {
      run.checks.checks = evaluate(w->expect, run.incident, run.result);
      run.checks.checks_of = "what-if '" + w->name + "'";
    }
  }

  const auto application = offscreenApplication();
  ReportDocument report;
  try {
    report = app::assembleReport(opened, path.filename().string(), import_report, target, runs);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("report: ") + e.what());
  }
  app::writeReport(report, options.output);
  out << "wrote " << options.output << ": " << opened.id << " with " << runs.size()
      << (runs.size() == 1 ? " config" : " configs") << ", in the terms of " << displayName(target)
      << '\n';
  return kExitOk;
}

}  // namespace breakerlab::cli
