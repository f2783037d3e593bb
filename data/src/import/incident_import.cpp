// Telling a document's format by its content, and reading it into an incident.
#include "breakerlab/data/incident_import.h"

#include <utility>

#include <unistd.h>

#include <cerrno>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/otlp_import.h"
#include "breakerlab/data/prometheus_import.h"
#include "markdown_blocks.h"
#include "phrases.h"
#include "postmortem_import.h"

namespace breakerlab {

namespace {

// `format: X` on a line of its own near the top (YAML), or "format": "X" (JSON).
bool declaresFormat(std::string_view text, std::string_view format) {
  const std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 4096));
  const std::string yaml = "format: " + std::string(format);
  for (std::size_t at = head.find(yaml); at != std::string_view::npos;
       at = head.find(yaml, at + 1)) {
    const bool line_start = at == 0 || head[at - 1] == '\n';
    const std::size_t end = at + yaml.size();
    const bool line_end = end >= head.size() || head[end] == '\n' || head[end] == '\r' ||
                          head[end] == ' ' || head[end] == '#';
    if (line_start && line_end) return true;
  }
  const std::string json = "\"" + std::string(format) + "\"";
  const std::size_t key = head.find("\"format\"");
  return key != std::string_view::npos && head.find(json, key) != std::string_view::npos;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

namespace {
// The workspace's names of the sources (docs/workspace.md): stable, unlike the display names.
constexpr std::pair<IncidentSource, std::string_view> kSourceKeys[] = {
    {IncidentSource::incident, "incident"},
    {IncidentSource::config, "config"},
    {IncidentSource::postmortem_markdown, "postmortem_markdown"},
    {IncidentSource::postmortem_text, "postmortem_text"},
    {IncidentSource::request_log_csv, "request_log_csv"},
    {IncidentSource::request_log_jsonl, "request_log_jsonl"},
    {IncidentSource::prometheus_range, "prometheus_range"},
    {IncidentSource::otlp_traces, "otlp_traces"},
    {IncidentSource::unknown, "unknown"},
};
}  // namespace

std::string_view sourceKey(IncidentSource source) {
  for (const auto& [s, key] : kSourceKeys)
    if (s == source) return key;
  return "unknown";
}

std::optional<IncidentSource> incidentSourceFromKey(std::string_view key) {
  for (const auto& [s, k] : kSourceKeys)
    if (k == key) return s;
  return std::nullopt;
}

std::string_view toString(IncidentSource source) {
  switch (source) {
    case IncidentSource::incident:
      return "BreakerLab incident (breakerlab/1)";
    case IncidentSource::config:
      return "BreakerLab config (breakerlab-config/1)";
    case IncidentSource::postmortem_markdown:
      return "postmortem (Markdown with fenced blocks)";
    case IncidentSource::postmortem_text:
      return "postmortem (plain text with a UTC timeline)";
    case IncidentSource::request_log_csv:
      return "request log (CSV)";
    case IncidentSource::request_log_jsonl:
      return "request log (JSON Lines)";
    case IncidentSource::prometheus_range:
      return "Prometheus range query (query_range matrix)";
    case IncidentSource::otlp_traces:
      return "OpenTelemetry traces (OTLP JSON)";
    case IncidentSource::unknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view toString(ImportFinding::Kind kind) {
  switch (kind) {
    case ImportFinding::Kind::recognised:
      return "recognised";
    case ImportFinding::Kind::assumed:
      return "assumed";
    case ImportFinding::Kind::missing:
      return "missing";
    case ImportFinding::Kind::calibrated:
      return "calibrated";
    case ImportFinding::Kind::note:
      return "note";
  }
  return "note";
}

std::vector<std::string> ImportReport::lines() const {
  std::vector<std::string> out;
  out.push_back("Imported from " + source + " (" + format + ")");
  for (auto kind :
       {ImportFinding::Kind::recognised, ImportFinding::Kind::calibrated,
        ImportFinding::Kind::assumed, ImportFinding::Kind::missing, ImportFinding::Kind::note}) {
    for (const ImportFinding& f : findings) {
      if (f.kind != kind) continue;
      std::string line = std::string(toString(kind));
      line.resize(11, ' ');
      line += f.line > 0 ? "line " + std::to_string(f.line) : "";
      line.resize(22, ' ');
      line += f.what + ": " + f.detail;
      out.push_back(std::move(line));
    }
  }
  return out;
}

IncidentSource detectIncidentSource(std::string_view text, std::string_view file_name) {
  if (declaresFormat(text, "breakerlab/1")) return IncidentSource::incident;
  if (declaresFormat(text, "breakerlab-config/1")) return IncidentSource::config;
  // Before request logs: a response on one line would read as one JSON Lines record.
  if (looksLikePrometheusRange(text)) return IncidentSource::prometheus_range;
  if (looksLikeOtlpTraces(text)) return IncidentSource::otlp_traces;
  if (auto log = detectRequestLog(text.substr(0, std::min<std::size_t>(text.size(), 65536))))
    return *log == RequestLogFormat::csv ? IncidentSource::request_log_csv
                                         : IncidentSource::request_log_jsonl;
  if (data_detail::looksLikeFencedPostmortem(text)) return IncidentSource::postmortem_markdown;
  if (data_detail::looksLikeTextPostmortem(text)) return IncidentSource::postmortem_text;
  if (endsWith(file_name, ".yaml") || endsWith(file_name, ".yml") || endsWith(file_name, ".json"))
    return IncidentSource::incident;  // its reader says what is wrong with it
  return IncidentSource::unknown;
}

namespace {
RequestLogFormat logFormatOf(IncidentSource source) {
  return source == IncidentSource::request_log_csv ? RequestLogFormat::csv
                                                   : RequestLogFormat::jsonl;
}

RequestLogOptions requestLogOptions(const ImportOptions& options, const std::string& file_name) {
  (void)file_name;
  RequestLogOptions o;
  o.mapping = options.request_log_mapping;
  if (options.progress) {
    o.progress = [progress = options.progress](std::uint64_t done, std::uint64_t total) {
      return progress(total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0);
    };
  }
  return o;
}

ImportedIncident importRequestLog(RequestLog&& log, IncidentSource source,
                                  const ImportOptions& options) {
  ImportedIncident out;
  out.incident = incidentFromRequestLog(std::move(log), options.request_log_config, out.report);
  out.source = source;
  if (std::string problem = validate(out.incident); !problem.empty())
    throw LoadError(out.report.source, 0, 0,
                    "the incident built from the log is not valid: " + problem);
  return out;
}

// The first bytes of a file, to tell a request log (read a buffer at a time, never whole) from
// a document (read whole).
std::string fileHead(const std::filesystem::path& path) {
  std::uint64_t size = 0;
  const int fd = openRegularFile(path, size);
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(size, 65536)), '\0');
  std::size_t got = 0;
  while (got < head.size()) {
    const ssize_t n = ::read(fd, head.data() + got, head.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  head.resize(got);
  return head;
}
}  // namespace

ImportedIncident importIncident(std::string_view text, const std::string& file_name,
                                const ImportOptions& options) {
  using namespace data_detail;
  IncidentSource source = detectIncidentSource(text, file_name);
  // A request log whose columns only the mapping names (--map ts=when,...).
  if (!options.request_log_mapping.empty() &&
      (source == IncidentSource::unknown || source == IncidentSource::incident))
    if (const auto log = detectRequestLog(text.substr(0, std::min<std::size_t>(text.size(), 65536)),
                                          options.request_log_mapping))
      source = *log == RequestLogFormat::csv ? IncidentSource::request_log_csv
                                             : IncidentSource::request_log_jsonl;
  switch (source) {
    case IncidentSource::incident: {
      ImportedIncident out;
      out.incident = parseIncident(text, file_name);
      out.source = source;
      out.report.source = file_name;
      out.report.format = std::string(toString(source));
      return out;
    }
    case IncidentSource::config:
      throw LoadError(file_name, 1, 1,
                      "this is a config (breakerlab-config/1), not an incident: open an incident "
                      "and use File > Load Config (or breakerlab-cli replay INCIDENT --config " +
                          file_name + ")");
    case IncidentSource::postmortem_markdown:
    case IncidentSource::postmortem_text: {
      const PostmortemFacts facts = source == IncidentSource::postmortem_markdown
                                        ? readFencedPostmortem(text, file_name)
                                        : readTextPostmortem(text, file_name);
      ImportedIncident out = buildIncident(facts, file_name, options);
      out.source = source;
      if (std::string problem = validate(out.incident); !problem.empty())
        throw LoadError(file_name, 0, 0,
                        "the incident built from the document is not valid: " + problem);
      return out;
    }
    case IncidentSource::request_log_csv:
    case IncidentSource::request_log_jsonl:
      return importRequestLog(parseRequestLog(text, file_name, logFormatOf(source),
                                              requestLogOptions(options, file_name)),
                              source, options);
    case IncidentSource::prometheus_range:
      return importPrometheusRange(text, file_name, options.request_log_config);
    case IncidentSource::otlp_traces:
      return importOtlpTraces(text, file_name, options);
    case IncidentSource::unknown:
      break;
  }
  throw LoadError(file_name, 0, 0,
                  "not a document BreakerLab can open: expected a breakerlab/1 incident, a "
                  "postmortem in Markdown with ```timing/```spec blocks, or a postmortem with a "
                  "UTC timeline table");
}

ImportedIncident openIncidentFile(const std::filesystem::path& path, const ImportOptions& options) {
  const std::string head = fileHead(path);
  if (looksLikePrometheusRange(head) || looksLikeOtlpTraces(head)) {
    const std::string text = readTextFile(path);
    return importIncident(text, path.string(), options);
  }
  if (const auto log = detectRequestLog(head, options.request_log_mapping)) {
    return importRequestLog(readRequestLog(path, *log, requestLogOptions(options, path.string())),
                            *log == RequestLogFormat::csv ? IncidentSource::request_log_csv
                                                          : IncidentSource::request_log_jsonl,
                            options);
  }
  const std::string text = readTextFile(path);
  return importIncident(text, path.string(), options);
}

}  // namespace breakerlab

namespace breakerlab {

std::string importSummary(const ImportedIncident& imported) {
  using K = ImportFinding::Kind;
  const ImportReport& r = imported.report;
  std::string out = "imported " + r.source + " (" + r.format + "): ";
  bool first = true;
  for (K kind : {K::recognised, K::assumed, K::missing, K::calibrated}) {
    const std::size_t n = r.count(kind);
    if (n == 0) continue;
    out += (first ? "" : ", ") + std::to_string(n) + " " + std::string(toString(kind));
    first = false;
  }
  if (first) out += "nothing recognised";
  out += "; `breakerlab-cli import " + r.source + "` shows the report";
  return out;
}

}  // namespace breakerlab
