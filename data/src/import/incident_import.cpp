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
#include "unrecognised_document.h"
#include "utf8.h"

namespace breakerlab {

namespace {

// `format: X` on a line of its own (YAML), or "format": "X" (JSON), near the top: in the first
// 4 KiB, as always (a postmortem quoting an incident further down stays a postmortem), or in the
// first 64 KiB of a document that is one JSON object, which may put it last on its one line.
bool declaresFormat(std::string_view text, std::string_view format) {
  text = data_detail::skipUtf8Bom(text);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const bool json_object = first != std::string_view::npos && text[first] == '{';
  const std::string_view head =
      text.substr(0, std::min<std::size_t>(text.size(), json_object ? 65536 : 4096));
  const std::string yaml = "format: " + std::string(format);
  for (std::size_t at = head.find(yaml); at != std::string_view::npos;
       at = head.find(yaml, at + 1)) {
    // After a CR too: a file with CR-only line ends still says what it is.
    const bool line_start = at == 0 || head[at - 1] == '\n' || head[at - 1] == '\r';
    const std::size_t end = at + yaml.size();
    const bool line_end = end >= head.size() || head[end] == '\n' || head[end] == '\r' ||
                          head[end] == ' ' || head[end] == '#';
    if (line_start && line_end) return true;
  }
  // "format" : "X", with any blanks around the colon.
  const std::string_view json_head = head;
  const std::string value = "\"" + std::string(format) + "\"";
  for (std::size_t key = json_head.find("\"format\""); key != std::string_view::npos;
       key = json_head.find("\"format\"", key + 1)) {
    std::size_t at = json_head.find_first_not_of(" \t\r\n", key + 8);
    if (at == std::string_view::npos || json_head[at] != ':') continue;
    at = json_head.find_first_not_of(" \t\r\n", at + 1);
    if (at != std::string_view::npos && json_head.substr(at, value.size()) == value) return true;
  }
  return false;
}

// The first line that is not blank or a comment, and its number (as detectRequestLog looks).
std::pair<std::string_view, int> firstContentLine(std::string_view head) {
  std::size_t at = 0;
  int number = 0;
  while (at < head.size()) {
    const std::size_t nl = head.find('\n', at);
    std::string_view line =
        head.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    ++number;
    at = nl == std::string_view::npos ? head.size() : nl + 1;
    const std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string_view::npos || line[b] == '#') continue;
    line.remove_prefix(b);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    return {line, number};
  }
  return {{}, 0};
}

// Why the content was taken for `source`, for an error of its reader: a file the detection
// took for something it is not then says so ("read as a request log because ...").
std::string detectionReason(IncidentSource source, std::string_view text,
                            std::string_view file_name) {
  text = data_detail::skipUtf8Bom(text);
  const auto [line, number] =
      firstContentLine(text.substr(0, std::min<std::size_t>(text.size(), 65536)));
  const std::string where = "line " + std::to_string(number);
  switch (source) {
    case IncidentSource::request_log_csv:
      return "read as a request log (CSV) because " + where + " (\"" + clipText(line, 60) +
             "\") names a time column and a duration column";
    case IncidentSource::request_log_jsonl: {
      std::string key = "a time key";
      for (std::string_view k : {"\"timestamp", "\"ts\"", "\"time", "\"start", "\"@timestamp\""})
        if (const std::size_t at = line.find(k); at != std::string_view::npos) {
          const std::size_t close = line.find('"', at + 1);
          key = "the key " +
                std::string(line.substr(
                    at, close == std::string_view::npos ? std::string_view::npos : close - at + 1));
          break;
        }
      return "read as a request log (JSON Lines) because " + where + " is one JSON object with " +
             key + " (an incident needs \"format\": \"breakerlab/1\")";
    }
    case IncidentSource::incident: {
      const std::size_t dot = file_name.rfind('.');
      return "read as a breakerlab/1 incident because the name ends in " +
             std::string(dot == std::string_view::npos ? file_name : file_name.substr(dot)) +
             " and the content matches no other format (an incident declares format: "
             "breakerlab/1)";
    }
    default:
      return {};
  }
}

// An error of a reader chosen by content, with why it was chosen: always for an incident
// chosen by the file's name; for a request log (told by its first line alone) when it is at the
// top (line 0 to 2), where a file of another kind fails. Prometheus, OTLP and postmortems are
// told by keys and fences of their own, and their readers' errors say what they expected.
[[noreturn]] void rethrowWithReason(const LoadError& e, IncidentSource source,
                                    std::string_view text, std::string_view file_name) {
  const bool explain = source == IncidentSource::incident || e.line() <= 2;
  const std::string reason = explain ? detectionReason(source, text, file_name) : std::string();
  if (reason.empty()) throw e;
  throw LoadError(e.file(), e.line(), e.column(), reason + "; " + e.message());
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

namespace {
ImportedIncident importRequestLog(RequestLog&& log, IncidentSource source,
                                  const ImportOptions& options);
RequestLogOptions requestLogOptions(const ImportOptions& options);

std::string_view head64k(std::string_view text) {
  return text.substr(0, std::min<std::size_t>(text.size(), 65536));
}
bool isRequestLog(std::string_view text, const RequestLogMapping& mapping, RequestLogFormat f) {
  const auto log = detectRequestLog(head64k(text), mapping);
  return log && *log == f;
}

// Reads a whole document of the source.
using Opener = ImportedIncident (*)(IncidentSource source, std::string_view text,
                                    const std::string& file_name, const ImportOptions& options);
// Reads a file of the source a buffer at a time, never whole (request logs).
using Streamer = ImportedIncident (*)(IncidentSource source, const std::filesystem::path& path,
                                      const ImportOptions& options);

ImportedIncident openPostmortem(IncidentSource source, std::string_view text,
                                const std::string& file_name, const ImportOptions& options) {
  using namespace data_detail;
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

template <RequestLogFormat format>
ImportedIncident openRequestLog(IncidentSource source, std::string_view text,
                                const std::string& file_name, const ImportOptions& options) {
  return importRequestLog(parseRequestLog(text, file_name, format, requestLogOptions(options)),
                          source, options);
}
template <RequestLogFormat format>
ImportedIncident streamRequestLog(IncidentSource source, const std::filesystem::path& path,
                                  const ImportOptions& options) {
  return importRequestLog(readRequestLog(path, format, requestLogOptions(options)), source,
                          options);
}

// Every source in one table, in the order the content is tested: its two names (the key
// workspaces store, docs/workspace.md: stable, never shown; and the name the import report and
// the workbench show), its detection test, how it is read, and whether it is read by lines (a
// file with CR-only line ends is then refused before it is read). A document that declares its
// format comes first; Prometheus and OTLP come before the request logs, since a response on one
// line would read as one JSON Lines record. After the table, a name an incident has
// (.yaml, .yml, .json) makes an incident, whose reader says what is wrong with it.
struct SourceRow {
  IncidentSource source;
  std::string_view key;
  std::string_view display;
  bool (*detect)(std::string_view text, const RequestLogMapping& mapping);
  Opener open;
  Streamer stream = nullptr;
  bool line_based = false;
};

constexpr SourceRow kSources[] = {
    {IncidentSource::incident, "incident", "BreakerLab incident (breakerlab/1)",
     [](std::string_view text, const RequestLogMapping&) {
       return declaresFormat(text, "breakerlab/1");
     },
     [](IncidentSource source, std::string_view text, const std::string& file_name,
        const ImportOptions&) {
       ImportedIncident out;
       out.incident = parseIncident(text, file_name);
       out.source = source;
       out.report.source = file_name;
       out.report.format = std::string(toString(source));
       return out;
     }},
    {IncidentSource::config, "config", "BreakerLab config (breakerlab-config/1)",
     [](std::string_view text, const RequestLogMapping&) {
       return declaresFormat(text, "breakerlab-config/1");
     },
     [](IncidentSource, std::string_view, const std::string& file_name,
        const ImportOptions&) -> ImportedIncident {
       throw LoadError(file_name, 1, 1,
                       "this is a config (breakerlab-config/1), not an incident: open an incident "
                       "and use File > Load Config (or breakerlab-cli replay INCIDENT --config " +
                           file_name + ")");
     }},
    {IncidentSource::prometheus_range, "prometheus_range",
     "Prometheus range query (query_range matrix)",
     [](std::string_view text, const RequestLogMapping&) { return looksLikePrometheusRange(text); },
     [](IncidentSource, std::string_view text, const std::string& file_name,
        const ImportOptions& options) {
       return importPrometheusRange(text, file_name, options.request_log_config, nullptr,
                                    options.prometheus_metrics);
     }},
    {IncidentSource::otlp_traces, "otlp_traces", "OpenTelemetry traces (OTLP JSON)",
     [](std::string_view text, const RequestLogMapping&) { return looksLikeOtlpTraces(text); },
     [](IncidentSource, std::string_view text, const std::string& file_name,
        const ImportOptions& options) { return importOtlpTraces(text, file_name, options); }},
    {IncidentSource::request_log_csv, "request_log_csv", "request log (CSV)",
     [](std::string_view text, const RequestLogMapping& mapping) {
       return isRequestLog(text, mapping, RequestLogFormat::csv);
     },
     openRequestLog<RequestLogFormat::csv>, streamRequestLog<RequestLogFormat::csv>, true},
    {IncidentSource::request_log_jsonl, "request_log_jsonl", "request log (JSON Lines)",
     [](std::string_view text, const RequestLogMapping& mapping) {
       return isRequestLog(text, mapping, RequestLogFormat::jsonl);
     },
     openRequestLog<RequestLogFormat::jsonl>, streamRequestLog<RequestLogFormat::jsonl>, true},
    {IncidentSource::postmortem_markdown, "postmortem_markdown",
     "postmortem (Markdown with fenced blocks)",
     [](std::string_view text, const RequestLogMapping&) {
       return data_detail::looksLikeFencedPostmortem(text);
     },
     openPostmortem, nullptr, true},
    {IncidentSource::postmortem_text, "postmortem_text",
     "postmortem (plain text with a UTC timeline)",
     [](std::string_view text, const RequestLogMapping&) {
       return data_detail::looksLikeTextPostmortem(text);
     },
     openPostmortem, nullptr, true},
    {IncidentSource::unknown, "unknown", "unknown", nullptr,
     [](IncidentSource, std::string_view text, const std::string& file_name,
        const ImportOptions&) -> ImportedIncident {
       // Line-based formats read a file with CR-only line ends as one line, and match nothing.
       if (data_detail::crOnlyLineEnds(head64k(text)))
         throw LoadError(file_name, 1, 1, data_detail::crOnlyMessage());
       const data_detail::UnrecognisedDocument why =
           data_detail::describeUnrecognisedDocument(text);
       throw LoadError(file_name, why.line, why.column, why.message);
     }},
};

const SourceRow& rowOf(IncidentSource source) {
  for (const SourceRow& r : kSources)
    if (r.source == source) return r;
  return kSources[std::size(kSources) - 1];  // unknown
}

// What the content is, by the table's tests in order; `by_name` when only the file's name says.
struct Detected {
  IncidentSource source = IncidentSource::unknown;
  bool by_name = false;
};
Detected detectSource(std::string_view text, std::string_view file_name,
                      const RequestLogMapping& mapping) {
  text = data_detail::skipUtf8Bom(text);
  for (const SourceRow& r : kSources)
    if (r.detect != nullptr && r.detect(text, mapping)) return {r.source, false};
  if (endsWith(file_name, ".yaml") || endsWith(file_name, ".yml") || endsWith(file_name, ".json"))
    return {IncidentSource::incident, true};
  return {};
}
}  // namespace

namespace {
// A line-based reader's file with CR-only line ends is one line to it: said before it reads
// that line as a header or a record. (The YAML reader, which reads JSON incidents too, says it
// itself; Prometheus and OTLP JSON take a CR as a blank.)
void requireLineEnds(IncidentSource source, std::string_view text, const std::string& file_name) {
  if (rowOf(source).line_based && data_detail::crOnlyLineEnds(head64k(text)))
    throw LoadError(file_name, 1, 1, data_detail::crOnlyMessage());
}
}  // namespace

std::string_view sourceKey(IncidentSource source) {
  return rowOf(source).key;
}

std::optional<IncidentSource> incidentSourceFromKey(std::string_view key) {
  for (const SourceRow& r : kSources)
    if (r.key == key) return r.source;
  return std::nullopt;
}

std::string_view toString(IncidentSource source) {
  return rowOf(source).display;
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
  return detectSource(text, file_name, {}).source;
}

namespace {
RequestLogOptions requestLogOptions(const ImportOptions& options) {
  RequestLogOptions o;
  o.mapping = options.request_log_mapping;
  o.half_open_probes = options.request_log_config.breaker.probes;
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
  // Every reader gets UTF-8 without its byte-order mark; UTF-16 is named before a reader blames
  // its NULs.
  requireNotWideEncoding(text.substr(0, std::min<std::size_t>(text.size(), 256)), file_name);
  text = skipUtf8Bom(text);
  // With a mapping (--map ts=when,...), a request log whose columns only the mapping names.
  const Detected detected = detectSource(text, file_name, options.request_log_mapping);
  const IncidentSource source = detected.source;
  requireLineEnds(source, text, file_name);
  try {
    return rowOf(source).open(source, text, file_name, options);
  } catch (const ImportCancelled&) {
    throw;
  } catch (const LoadError& e) {
    // Chosen by the file's name or by content: the error says why, for a file of another kind.
    const bool declared = source == IncidentSource::incident && !detected.by_name;
    if (declared || source == IncidentSource::config || source == IncidentSource::unknown) throw;
    rethrowWithReason(e, source, text, file_name);
  }
}

ImportedIncident openIncidentFile(const std::filesystem::path& path, const ImportOptions& options) {
  const std::string file_head = fileHead(path);
  data_detail::requireNotWideEncoding(
      std::string_view(file_head).substr(0, std::min<std::size_t>(file_head.size(), 256)),
      path.string());
  const std::string_view head = data_detail::skipUtf8Bom(file_head);
  // The head is told by the same table: a source read a buffer at a time (a request log) is
  // streamed; anything else (a document that declares itself, a one-line JSON incident too)
  // is read whole.
  const IncidentSource source =
      detectSource(head, path.string(), options.request_log_mapping).source;
  if (const SourceRow& row = rowOf(source); row.stream != nullptr) {
    requireLineEnds(source, head, path.string());
    try {
      return row.stream(source, path, options);
    } catch (const ImportCancelled&) {
      throw;
    } catch (const LoadError& e) {
      rethrowWithReason(e, source, head, path.string());
    }
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
