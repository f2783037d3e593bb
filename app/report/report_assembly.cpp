#include "report_assembly.h"

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/views/qt_text.h"
#include "report_lanes.h"
#include "report_metrics.h"

#ifndef BREAKERLAB_VERSION
#define BREAKERLAB_VERSION "dev"
#endif

namespace breakerlab::app {

ExportTarget defaultReportTarget(const std::vector<ReportRun>& runs) {
  for (const ReportRun& run : runs)
    if (run.config.breaker.library != BreakerLibrary::breakerlab)
      return exportTargetOf(run.config.breaker.library);
  return ExportTarget::breakerlab_yaml;
}

ReportDocument assembleReport(const Incident& opened, const std::string& opened_file,
                              const std::optional<ImportReport>& import, ExportTarget target,
                              const std::vector<ReportRun>& runs) {
  ReportInput input;
  input.incident = &opened;
  input.opened_file = opened_file;
  input.import_report = import;
  input.target = target;
  input.generator = "BreakerLab " BREAKERLAB_VERSION;
  std::vector<const Result*> results;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const ReportRun& run = runs[i];
    QStringList lines;
    if (!run.description.empty()) lines << qs(run.description);
    const std::string_view rules = libraryInfo(run.config.breaker.library).title;
    lines << QStringLiteral("Breaker rules: %1").arg(qs(rules));
    if (i > 0) lines << QStringLiteral("Ghost rows: the deployed config");
    const QString title = qs(opened.id) + QStringLiteral(" · ") + qs(run.title);
    ReportConfig config{run.title, run.description, run.config, run.checks,
                        drawLanesPng(run.incident, run.result, i > 0 ? &runs[0].result : nullptr,
                                     run.config.breaker.library, title, lines)};
    input.configs.push_back(std::move(config));
    results.push_back(&run.result);
  }
  input.metrics = metricRows(results, dependencyWords(opened.dependency.name));
  return buildReport(input);
}

}  // namespace breakerlab::app
