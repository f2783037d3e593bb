// `breakerlab-cli import DOCUMENT`: a postmortem (or any document BreakerLab opens) made into a
// breakerlab/1 incident, with the import report; `import --prometheus URL`: range queries run
// against a Prometheus server, imported as their saved answers would be.
#include <chrono>
#include <iostream>
#include <memory>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/prometheus_query.h"
#include "commands.h"
#include "import_progress.h"

namespace breakerlab::cli {

namespace {

// `import --prometheus URL --from T --to T`: nothing is written unless every query answered.
int runPrometheusImport(const ImportCommandOptions& o, std::ostream& out) {
  if (!o.document.empty()) throw UsageError("give a document or --prometheus URL, not both");
  if (o.from.empty() || o.to.empty())
    throw UsageError(
        "--prometheus needs --from and --to (RFC 3339, 2026-09-08T14:00:00Z, or "
        "unix seconds)");
  if (o.output.empty() && o.save_responses == "-")
    throw UsageError(
        "--save-responses -: the incident goes to standard output; give -o FILE "
        "for it");
  if (!(o.timeout_s > 0) || o.timeout_s > 86400)
    throw UsageError("--timeout: expected seconds above 0, at most 86400");
  if (o.max_response_mb < 0 || o.max_response_mb > 1e6)
    throw UsageError("--max-response-mb: expected MiB from 0 to 1000000");
  PrometheusFetch fetch;
  fetch.url = o.prometheus;
  fetch.from = parsePrometheusTime(o.from, "--from");
  fetch.to = parsePrometheusTime(o.to, "--to");
  if (!o.step.empty()) fetch.step = parsePrometheusStep(o.step, "--step");
  for (const std::string& q : o.queries)
    fetch.queries.push_back(parsePrometheusQuery(q, "--query"));
  fetch.headers = o.headers;
  fetch.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.timeout_s * 1000 + 0.5));
  if (o.max_samples > 0) fetch.max_samples = o.max_samples;
  if (o.max_response_mb > 0)
    fetch.max_response_bytes = static_cast<std::uint64_t>(o.max_response_mb * 1024 * 1024);
  if (!o.prometheus_metrics.empty())
    fetch.metrics =
        parsePrometheusMetricTable(readTextFile(o.prometheus_metrics), o.prometheus_metrics);
  Config deployed;
  if (!o.config_file.empty()) deployed = loadConfig(o.config_file);
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  PrometheusImport imported = importPrometheusUrl(fetch, *http, deployed);
  const std::vector<std::string> report = imported.imported.report.lines();
  const std::string yaml = incidentToYaml(imported.imported.incident, report);
  if (o.output.empty()) {
    if (!o.save_responses.empty()) writeOutputFile(o.save_responses, imported.responses);
    out << yaml;
  } else {
    writeOutputFile(o.output, yaml);
    if (!o.save_responses.empty()) writeOutputFile(o.save_responses, imported.responses);
    for (const std::string& line : report) out << line << '\n';
    out << "wrote " << o.output << '\n';
  }
  if (!o.save_responses.empty() && !o.output.empty()) out << "wrote " << o.save_responses << '\n';
  return kExitOk;
}

}  // namespace

int runImport(const ImportCommandOptions& o, std::ostream& out) {
  if (!o.prometheus.empty()) return runPrometheusImport(o, out);
  if (o.document.empty()) throw UsageError("import needs a document (or --prometheus URL)");
  ImportOptions options;
  options.calibrate = !o.no_calibrate;
  if (!o.states.empty()) options.states = parseStateTable(readTextFile(o.states), o.states);
  if (!o.prometheus_metrics.empty())
    options.prometheus_metrics =
        parsePrometheusMetricTable(readTextFile(o.prometheus_metrics), o.prometheus_metrics);
  applyRequestLogOptions(options, o.map, o.config_file);
  options.trace_dependency = o.trace_dependency;
  ImportedIncident imported = openWithProgress(o.document, options);
  // A request log stays where it is; the incident file points at it from where it is written.
  std::string& log_file = imported.incident.dependency.calls_source.file;
  if (!log_file.empty()) {
    const std::filesystem::path log = std::filesystem::absolute(log_file);
    log_file = o.output.empty() ? log.string()
                                : std::filesystem::relative(
                                      log, std::filesystem::absolute(o.output).parent_path())
                                      .string();
  }
  const std::vector<std::string> report = imported.report.lines();
  if (o.output.empty()) {
    out << incidentToYaml(imported.incident, report);
  } else {
    writeOutputFile(o.output, incidentToYaml(imported.incident, report));
    for (const std::string& line : report) out << line << '\n';
    out << "wrote " << o.output << '\n';
  }
  return kExitOk;
}

}  // namespace breakerlab::cli
