#pragma once
// Opening an incident from what an engineer holds after an outage: a BreakerLab incident file,
// a postmortem document (Markdown with fenced blocks, or plain text with a UTC timeline), and
// (later) request logs, traces and metrics. The format is told by the content, not the name.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/data/import_report.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/prometheus_metrics.h"
#include "breakerlab/data/request_log.h"
#include "breakerlab/data/state_table.h"

namespace breakerlab {

enum class IncidentSource {
  incident,             // breakerlab/1
  config,               // breakerlab-config/1: not an incident (Load Config puts it on one)
  postmortem_markdown,  // the fenced-block format of the seeds
  postmortem_text,      // prose with a UTC timeline table or list
  request_log_csv,      // one dependency call a line, CSV with a header
  request_log_jsonl,    // one dependency call a line, JSON Lines
  prometheus_range,     // Prometheus query_range responses (matrix), alone or under roles
  otlp_traces,          // OpenTelemetry traces, OTLP JSON (the collector's file exporter)
  unknown,
};
std::string_view toString(IncidentSource source);
// A short stable name ("incident", "postmortem_markdown", ...), as workspaces store it.
std::string_view sourceKey(IncidentSource source);
std::optional<IncidentSource> incidentSourceFromKey(std::string_view key);

IncidentSource detectIncidentSource(std::string_view text, std::string_view file_name);

struct ImportOptions {
  StateTable states = StateTable::defaults();
  bool calibrate = true;
  // Called during calibration with the share done (0..1); return false to stop early (the best
  // fit so far is kept and the report says calibration was stopped).
  std::function<bool(double)> progress;
  // Calibration is skipped (and the report says why) when its replays together would simulate
  // more requests than this: about two minutes on one core.
  double max_calibration_requests = 2e9;
  // Request logs: which columns hold which field (empty: the usual names), and the config
  // the incident gets as deployed (a request log does not say).
  RequestLogMapping request_log_mapping;
  Config request_log_config;
  // Prometheus range queries: which series are a breaker's state, and the pod label.
  PrometheusMetricTable prometheus_metrics = PrometheusMetricTable::defaults();
  // OpenTelemetry traces: the dependency whose client spans become the call log, by
  // server.address or peer.service ("" = the one most client spans go to).
  std::string trace_dependency;
};

struct ImportedIncident {
  Incident incident;
  ImportReport report;
  IncidentSource source = IncidentSource::unknown;
};

// Reads any supported document into an incident. A breakerlab/1 file comes back as parsed (its
// report says so); a config file fails with a LoadError that says to load it onto an incident.
ImportedIncident importIncident(std::string_view text, const std::string& file_name,
                                const ImportOptions& options = {});
ImportedIncident openIncidentFile(const std::filesystem::path& path,
                                  const ImportOptions& options = {});

// One line for a replay of an imported document: "imported resources/x.md (postmortem ...): 31
// recognised, 6 assumed, 2 missing, 2 calibrated; `breakerlab-cli import` shows the report".
std::string importSummary(const ImportedIncident& imported);

}  // namespace breakerlab
