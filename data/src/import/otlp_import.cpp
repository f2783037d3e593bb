// OTLP JSON traces into an incident (see otlp_import.h): the spans are read into one call row
// per client span to the dependency (and one not-sent row per request that made none), which
// the request-log reader then takes as any log.
#include "breakerlab/data/otlp_import.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>
#include <vector>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/request_log.h"
#include "breakerlab/data/values.h"
#include "json_document.h"
#include "utf8.h"

namespace breakerlab {

namespace {

using nlohmann::json;
using K = ImportFinding::Kind;

// About what 64 MiB of OTLP JSON can hold; past it the file is refused rather than grown into.
constexpr std::size_t kMaxSpans = 2'000'000;
// A request log's attempts are 0 to 250.
constexpr std::size_t kMaxCallsPerTrace = 251;

enum class SpanKind { other, server, client };

struct Span {
  std::string trace;
  std::string id;       // spanId
  std::string service;  // the resource's service.name
  std::string target;   // server.address / peer.service / net.peer.name
  SpanKind kind = SpanKind::other;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::string outcome;            // the request-log outcome word
  std::string instance;           // the resource's k8s.pod.name or service.instance.id: the pod
  bool breaker_rejected = false;  // an error that is a circuit breaker's rejection
};

std::string_view text(const json& v) {
  return v.is_string() ? std::string_view(v.get_ref<const std::string&>()) : std::string_view();
}

// OTLP JSON writes 64-bit integers as strings ("1788876120000000000"); some writers use
// numbers.
std::optional<std::uint64_t> unsignedOf(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(v.get<std::int64_t>());
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    std::uint64_t out = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc() && end == s.data() + s.size()) return out;
  }
  return std::nullopt;
}

// An attribute list [{"key": K, "value": {"stringValue": V}}] as text values.
std::map<std::string, std::string> attributes(const json& list) {
  std::map<std::string, std::string> out;
  if (!list.is_array()) return out;
  for (const json& a : list) {
    if (!a.is_object() || !a.contains("key") || !a.contains("value")) continue;
    const json& v = a["value"];
    if (!v.is_object() || v.empty()) continue;
    const json& inner = v.begin().value();
    std::string s;
    if (inner.is_string())
      s = inner.get<std::string>();
    else if (inner.is_number() || inner.is_boolean())
      s = inner.dump();
    else
      continue;
    out[std::string(text(a["key"]))] = std::move(s);
  }
  return out;
}

SpanKind otlpKindOf(const json& k) {
  if (k.is_number_integer()) {
    const auto n = k.get<std::int64_t>();
    return n == 2 ? SpanKind::server : n == 3 ? SpanKind::client : SpanKind::other;
  }
  const std::string_view s = text(k);
  if (s == "SPAN_KIND_SERVER") return SpanKind::server;
  if (s == "SPAN_KIND_CLIENT") return SpanKind::client;
  return SpanKind::other;
}

bool otlpContains(std::string_view haystack, std::string_view needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return std::tolower(a) == std::tolower(b); });
  return it != haystack.end();
}

// Whether a span records a circuit breaker's rejection: its error type, or an exception event's
// type or message, as the libraries name it: resilience4j's CallNotPermittedException, Polly's
// and cockatiel's BrokenCircuitException / BrokenCircuitError, opossum's "Breaker is open"
// (code EOPENBREAKER), gobreaker's ErrOpenState ("circuit breaker is open"), Hystrix's
// short-circuited calls.
bool breakerRejection(const std::map<std::string, std::string>& attrs, const json& events) {
  auto names = [](std::string_view what) {
    for (std::string_view word :
         {"CallNotPermitted", "BrokenCircuit", "EOPENBREAKER", "Breaker is open",
          "circuit breaker is open", "short-circuited", "ShortCircuit", "OpenCircuit"})
      if (otlpContains(what, word)) return true;
    return false;
  };
  for (const char* key : {"error.type", "exception.type", "exception.message"})
    if (auto it = attrs.find(key); it != attrs.end() && names(it->second)) return true;
  if (events.is_array())
    for (const json& e : events)
      if (e.is_object() && e.contains("attributes")) {
        const auto ea = attributes(e["attributes"]);
        for (const char* key : {"exception.type", "exception.message"})
          if (auto it = ea.find(key); it != ea.end() && names(it->second)) return true;
      }
  return false;
}

// What a client span's call came to, in the request log's words.
std::string outcomeOf(const std::map<std::string, std::string>& attrs, const json& status,
                      const json& events) {
  std::string error_type;
  for (const char* key : {"error.type", "exception.type"})
    if (auto it = attrs.find(key); it != attrs.end()) error_type = it->second;
  if (error_type.empty() && events.is_array())
    for (const json& e : events)
      if (e.is_object() && e.contains("attributes")) {
        const auto ea = attributes(e["attributes"]);
        if (auto it = ea.find("exception.type"); it != ea.end()) error_type = it->second;
      }
  bool error = false;
  if (status.is_object() && status.contains("code")) {
    const json& c = status["code"];
    error = (c.is_number_integer() && c.get<std::int64_t>() == 2) || text(c) == "STATUS_CODE_ERROR";
  }
  if (otlpContains(error_type, "timeout") || otlpContains(error_type, "deadline") ||
      otlpContains(error_type, "timedout"))
    return "timeout";
  if (otlpContains(error_type, "refused") || otlpContains(error_type, "connect")) return "refused";
  if (auto it = attrs.find("rpc.grpc.status_code"); it != attrs.end()) {
    if (it->second == "4") return "timeout";
    if (it->second == "14") return "refused";
    if (it->second != "0") return "server_error";
  }
  for (const char* key : {"http.response.status_code", "http.status_code"})
    if (auto it = attrs.find(key); it != attrs.end()) {
      int code = 0;
      std::from_chars(it->second.data(), it->second.data() + it->second.size(), code);
      if (code >= 500) return "server_error";
      if (code >= 400) return "client_error";
      if (code >= 100) return error ? "server_error" : "success";
    }
  return error ? "server_error" : "success";
}

// Where the value of the first `"key": value` in `part` that equals `value` is, as a line and
// column (1-based; the line counted from `first_line`), or {first_line, 0} when not found. The
// parsed document has no positions; an error about a span's field finds it in the text.
std::pair<int, int> positionOfValue(std::string_view part, int first_line, std::string_view key,
                                    const json& value) {
  const std::string quoted_key = "\"" + std::string(key) + "\"";
  for (std::size_t k = part.find(quoted_key); k != std::string_view::npos;
       k = part.find(quoted_key, k + 1)) {
    std::size_t at = part.find_first_not_of(" \t\r\n", k + quoted_key.size());
    if (at == std::string_view::npos || part[at] != ':') continue;
    at = part.find_first_not_of(" \t\r\n", at + 1);
    if (at == std::string_view::npos) break;
    std::size_t end = at;
    if (part[at] == '"') {
      for (end = at + 1; end < part.size() && part[end] != '"'; ++end)
        if (part[end] == '\\') ++end;
      ++end;
    } else {
      end = part.find_first_of(",}] \t\r\n", at);
    }
    end = std::min(end, part.size());
    const json token = json::parse(part.substr(at, end - at), nullptr, false);
    if (token.is_discarded() || token != value) continue;
    const data_detail::TextPosition p = data_detail::textPositionAt(part, at);
    return {first_line - 1 + p.line, p.column};
  }
  return {first_line, 0};
}

class SpanReader {
 public:
  explicit SpanReader(std::string file) : file_(std::move(file)) {}

  // The text of the document being read, for the positions of errors about a span's fields.
  std::string_view part;

  void document(const json& root, int line) {
    if (!root.is_object() || !root.contains("resourceSpans"))
      fail(line, "expected {\"resourceSpans\": [...]} (OTLP JSON)");
    const json& resources = root["resourceSpans"];
    if (!resources.is_array()) fail(line, "resourceSpans: expected a list");
    for (const json& rs : resources) {
      if (!rs.is_object()) continue;
      std::string service, instance;
      if (rs.contains("resource") && rs["resource"].is_object() &&
          rs["resource"].contains("attributes")) {
        const auto ra = attributes(rs["resource"]["attributes"]);
        if (auto it = ra.find("service.name"); it != ra.end()) service = it->second;
        // The pod: Kubernetes' name for it where the k8s attributes processor added one, else
        // the SDK's instance id.
        for (const char* key : {"k8s.pod.name", "service.instance.id"})
          if (auto it = ra.find(key); it != ra.end() && !it->second.empty()) {
            instance = it->second;
            break;
          }
      }
      // scopeSpans; instrumentationLibrarySpans in collectors before 0.60.
      for (const char* scopes_key : {"scopeSpans", "instrumentationLibrarySpans"}) {
        if (!rs.contains(scopes_key) || !rs[scopes_key].is_array()) continue;
        for (const json& ss : rs[scopes_key]) {
          if (!ss.is_object() || !ss.contains("spans") || !ss["spans"].is_array()) continue;
          for (const json& s : ss["spans"]) span(s, service, instance, line);
        }
      }
    }
  }

  std::vector<Span> spans;
  std::size_t unnamed_targets = 0;

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw LoadError(file_, line, line > 0 ? 1 : 0, message);
  }

 private:
  void span(const json& s, const std::string& service, const std::string& instance, int line) {
    if (!s.is_object()) fail(line, "a span: expected an object");
    if (spans.size() >= kMaxSpans)
      fail(line, "more than " + std::to_string(kMaxSpans) + " spans; export a shorter range");
    Span out;
    out.service = service;
    out.instance = instance;
    out.trace = std::string(text(s.value("traceId", json())));
    if (out.trace.empty()) fail(line, "a span without a traceId");
    out.kind = otlpKindOf(s.value("kind", json()));
    out.id = std::string(text(s.value("spanId", json())));
    const std::string name =
        out.id.empty() ? "a span of trace " + clipText(out.trace) : "span " + clipText(out.id);
    // Each time on its own, at its value: "-5" or "1e300" is not a time, whatever the other is.
    const auto time = [&](const char* key) {
      if (!s.contains(key))
        fail(line, name + ": " + key + ": missing (nanoseconds since the epoch)");
      const json& v = s[key];
      const auto ns = unsignedOf(v);
      if (!ns) {
        const auto [l, c] = positionOfValue(part, line, key, v);
        throw LoadError(file_, l, c,
                        name + ": " + key +
                            ": expected a whole number of nanoseconds since the "
                            "epoch, got " +
                            clipText(v.dump()));
      }
      return *ns;
    };
    out.start_ns = time("startTimeUnixNano");
    out.end_ns = time("endTimeUnixNano");
    if (out.end_ns < out.start_ns) {
      const json& v = s["endTimeUnixNano"];
      const auto [l, c] = positionOfValue(part, line, "endTimeUnixNano", v);
      throw LoadError(file_, l, c,
                      name + ": endTimeUnixNano " + std::to_string(out.end_ns) +
                          " is before startTimeUnixNano " + std::to_string(out.start_ns));
    }
    if (out.kind == SpanKind::client) {
      const auto attrs = attributes(s.value("attributes", json()));
      for (const char* key : {"server.address", "peer.service", "net.peer.name", "http.host",
                              "db.system", "rpc.service"})
        if (auto it = attrs.find(key); it != attrs.end() && !it->second.empty()) {
          out.target = it->second;
          break;
        }
      if (out.target.empty()) ++unnamed_targets;
      out.outcome = outcomeOf(attrs, s.value("status", json()), s.value("events", json()));
    } else if (s.contains("attributes") || s.contains("events")) {
      out.breaker_rejected =
          breakerRejection(attributes(s.value("attributes", json())), s.value("events", json()));
    }
    spans.push_back(std::move(out));
  }

  std::string file_;
};

void parseInto(SpanReader& reader, std::string_view text, const std::string& file_name) {
  // One document, or one per line (the file exporter).
  const std::size_t first_nl = text.find('\n');
  const bool one_per_line = first_nl != std::string_view::npos &&
                            json::accept(text.substr(0, first_nl)) &&
                            text.find_first_not_of(" \t\r\n", first_nl) != std::string_view::npos;
  auto parse = [&](std::string_view part, int line_offset) {
    reader.part = part;
    reader.document(data_detail::parseJson(part, file_name, line_offset), line_offset);
  };
  if (!one_per_line) {
    parse(text, 1);
    return;
  }
  int line = 1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view part = text.substr(pos, nl - pos);
    if (part.find_first_not_of(" \t\r") != std::string_view::npos) parse(part, line);
    pos = nl + 1;
    ++line;
  }
}

}  // namespace

bool looksLikeOtlpTraces(std::string_view head) {
  head = data_detail::skipUtf8Bom(head.substr(0, std::min<std::size_t>(head.size(), 65536)));
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && head[first] == '{' &&
         head.find("\"resourceSpans\"") != std::string_view::npos;
}

ImportedIncident importOtlpTraces(std::string_view text, const std::string& file_name,
                                  const ImportOptions& options) {
  SpanReader reader(file_name);
  parseInto(reader, text, file_name);
  std::vector<Span>& spans = reader.spans;
  std::vector<ImportFinding> findings;
  auto note = [&](K kind, std::string what, std::string detail) {
    findings.push_back({kind, 0, std::move(what), std::move(detail)});
  };

  // A span sent twice (exporters and collectors retry: delivery is at least once) is one span,
  // as trace stores take it: the same trace, span ID, kind and times. Read twice it would be
  // another call, and a retried batch would double the traffic.
  {
    std::unordered_map<std::string, std::size_t> seen;
    std::size_t repeated = 0;
    std::vector<Span> once;
    once.reserve(spans.size());
    for (Span& s : spans) {
      if (!s.id.empty()) {
        std::string key = s.trace + '\0' + s.id + '\0' + std::to_string(s.start_ns) + '\0' +
                          std::to_string(s.end_ns) + '\0' +
                          std::to_string(static_cast<int>(s.kind));
        if (!seen.emplace(std::move(key), once.size()).second) {
          ++repeated;
          continue;
        }
      }
      once.push_back(std::move(s));
    }
    spans = std::move(once);
    if (repeated > 0)
      note(K::assumed, "spans",
           std::to_string(repeated) +
               " spans repeat an earlier span (the same traceId, spanId, kind and times): each "
               "is read once, as sent twice by an exporter");
  }

  // Spans years apart (a time in seconds or microseconds among nanoseconds, or "5") would fail
  // later as "the log's requests span more than 7 days": said here with the two spans.
  if (!spans.empty()) {
    const auto [first, last] =
        std::minmax_element(spans.begin(), spans.end(),
                            [](const Span& a, const Span& b) { return a.start_ns < b.start_ns; });
    if (last->start_ns - first->start_ns > static_cast<std::uint64_t>(kMaxWindow) * 1000)
      throw LoadError(file_name, 0, 0,
                      "the spans start more than 7 days apart: span " + clipText(first->id) +
                          " at " + std::to_string(first->start_ns) + " ns, span " +
                          clipText(last->id) + " at " + std::to_string(last->start_ns) +
                          " ns since the epoch (a time not in nanoseconds?)");
  }

  // The dependency: the chosen one, or the one most client spans go to.
  std::map<std::string, std::size_t> targets;
  for (const Span& s : spans)
    if (s.kind == SpanKind::client && !s.target.empty()) ++targets[s.target];
  if (targets.empty())
    throw LoadError(file_name, 0, 0,
                    "no client spans with server.address or peer.service: nothing says which "
                    "calls went to the dependency");
  std::string dependency = options.trace_dependency;
  if (dependency.empty()) {
    dependency = std::max_element(targets.begin(), targets.end(), [](const auto& a, const auto& b) {
                   return a.second < b.second;
                 })->first;
    std::string others;
    for (const auto& [t, n] : targets)
      if (t != dependency)
        others += (others.empty() ? "" : ", ") + clipText(t) + " (" + std::to_string(n) + ")";
    note(K::assumed, "dependency",
         "'" + clipText(dependency) + "': most client spans (" +
             std::to_string(targets[dependency]) + ") go there" +
             (others.empty() ? "" : "; the others: " + others) +
             "; choose another with --dependency");
  } else if (!targets.count(dependency)) {
    std::string known;
    for (const auto& [t, n] : targets) known += (known.empty() ? "" : ", ") + clipText(t);
    throw LoadError(file_name, 0, 0,
                    "no client spans go to '" + clipText(dependency) + "'; they go to " + known);
  } else {
    note(
        K::recognised, "dependency",
        "'" + clipText(dependency) + "': " + std::to_string(targets[dependency]) + " client spans");
  }
  if (reader.unnamed_targets > 0)
    note(K::note, "client spans",
         std::to_string(reader.unnamed_targets) +
             " client spans name no server.address or peer.service and are left out");

  // The caller: the service whose client spans reach the dependency; its server spans are the
  // requests.
  std::map<std::string, std::size_t> callers;
  for (const Span& s : spans)
    if (s.kind == SpanKind::client && s.target == dependency) ++callers[s.service];
  const std::string caller =
      std::max_element(callers.begin(), callers.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      })->first;

  struct Trace {
    std::optional<std::uint64_t> arrival_ns;  // the caller's first server span
    std::string instance;                     // its pod
    bool breaker_rejected = false;            // a span of the caller records a rejection
    std::vector<const Span*> calls;
  };
  std::unordered_map<std::string, Trace> traces;
  std::vector<std::string> order;  // traces in first-seen order, for determinism
  for (const Span& s : spans) {
    const bool call = s.kind == SpanKind::client && s.target == dependency;
    const bool request = s.kind == SpanKind::server && s.service == caller;
    const bool rejection = s.service == caller && s.breaker_rejected;
    if (!call && !request && !rejection) continue;
    auto [it, added] = traces.try_emplace(s.trace);
    if (added) order.push_back(s.trace);
    if (call) it->second.calls.push_back(&s);
    if ((request || rejection) && (!it->second.arrival_ns || s.start_ns < *it->second.arrival_ns)) {
      it->second.arrival_ns = s.start_ns;
      it->second.instance = s.instance;
    }
    if (rejection) it->second.breaker_rejected = true;
  }

  struct Row {
    std::uint64_t at_ns;
    std::string line;
    std::string about;  // the span or trace the row is made from, for errors
    std::string pod;
  };
  std::size_t rejected_requests = 0;
  std::vector<Row> rows;
  std::size_t requests_without_call = 0;
  std::size_t traces_without_server = 0;
  std::size_t request_number = 0;
  for (const std::string& id : order) {
    Trace& t = traces[id];
    ++request_number;
    std::sort(t.calls.begin(), t.calls.end(),
              [](const Span* a, const Span* b) { return a->start_ns < b->start_ns; });
    if (!t.arrival_ns) ++traces_without_server;
    const std::string request = "r" + std::to_string(request_number);
    if (t.calls.empty()) {
      ++requests_without_call;
      rejected_requests += t.breaker_rejected ? 1 : 0;
      rows.push_back({*t.arrival_ns,
                      std::to_string(*t.arrival_ns / 1000) + ",0," +
                          (t.breaker_rejected ? "rejected," : "not_sent,") + request + ",0," +
                          std::to_string(*t.arrival_ns / 1000),
                      "trace " + clipText(id), t.instance});
      continue;
    }
    const std::uint64_t arrival =
        std::min(t.arrival_ns.value_or(t.calls.front()->start_ns), t.calls.front()->start_ns);
    // A request's calls are numbered as attempts 0 to 250: more is not one request's retries.
    if (t.calls.size() > kMaxCallsPerTrace)
      throw LoadError(file_name, 0, 0,
                      "trace " + clipText(id) + " has more than " +
                          std::to_string(kMaxCallsPerTrace) + " calls to " + clipText(dependency) +
                          " (" + std::to_string(t.calls.size()) +
                          "): a request makes at most its first call and 250 retries");
    for (std::size_t k = 0; k < t.calls.size(); ++k) {
      const Span& c = *t.calls[k];
      rows.push_back({c.start_ns,
                      std::to_string(c.start_ns / 1000) + "," +
                          std::to_string((c.end_ns - c.start_ns) / 1000) + "," + c.outcome + "," +
                          request + "," + std::to_string(k) + "," + std::to_string(arrival / 1000),
                      "span " + clipText(c.id) + " of trace " + clipText(id), c.instance});
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.at_ns < b.at_ns; });
  // The pod column when the resources name their instances.
  const bool pods =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.pod.empty(); });
  std::string csv = "timestamp_us,duration_us,outcome,request_id,attempt,request_start_us";
  csv += pods ? ",pod\n" : "\n";
  csv.reserve(csv.size() + rows.size() * 80);
  for (const Row& r : rows) {
    csv += r.line;
    if (pods) {
      // Quoted, quotes doubled: an instance id may hold a comma.
      csv += ",\"";
      for (char ch : r.pod) csv += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      csv += '"';
    }
    csv += '\n';
  }
  note(K::recognised, "requests",
       std::to_string(order.size()) + " traces through '" + clipText(caller) +
           "': " + std::to_string(rows.size() - requests_without_call) + " calls to '" +
           clipText(dependency) + "', " + std::to_string(requests_without_call) +
           " requests that made none (" + std::to_string(rejected_requests) +
           " of them rejected by a circuit breaker, by an error its caller recorded; the rest "
           "served from the cache or not sent)");
  if (pods)
    note(K::recognised, "pods",
         "each span's pod from its resource's k8s.pod.name, else service.instance.id");
  if (traces_without_server > 0)
    note(K::assumed, "arrivals",
         std::to_string(traces_without_server) + " traces have no server span of '" +
             clipText(caller) + "': their first call is taken as the request's arrival");
  note(K::assumed, "outcomes",
       "from error.type / exception.type (timeouts, refused connections), the gRPC status, "
       "else the HTTP status (5xx server error, 4xx client error), else the span status");

  RequestLogOptions log_options;
  log_options.half_open_probes = options.request_log_config.breaker.probes;
  if (options.progress)
    log_options.progress = [&](std::uint64_t done, std::uint64_t total) {
      return options.progress(total > 0 ? static_cast<double>(done) / static_cast<double>(total)
                                        : 1.0);
    };
  // Its errors are about the call table made from the spans: its line numbers and column
  // names are not the file's, so the span is named instead.
  RequestLog log;
  try {
    log = parseRequestLog(csv, file_name, RequestLogFormat::csv, log_options);
  } catch (const ImportCancelled&) {
    throw;
  } catch (const LoadError& e) {
    const auto row = static_cast<std::size_t>(e.line()) - 2;  // after the header
    const std::string about =
        e.line() >= 2 && row < rows.size() ? rows[row].about + ": " : std::string();
    throw LoadError(file_name, 0, 0,
                    about + "the calls read from the spans are not valid: " + e.message());
  }
  ImportedIncident out;
  out.incident = incidentFromRequestLog(std::move(log), options.request_log_config, out.report);
  out.incident.dependency.name = dependency;
  out.source = IncidentSource::otlp_traces;
  out.report.format = "OpenTelemetry traces (OTLP JSON)";
  // The columns are of the call table made from the spans, not of the user's file.
  auto& f = out.report.findings;
  f.erase(std::remove_if(f.begin(), f.end(),
                         [](const ImportFinding& x) { return x.what == "columns"; }),
          f.end());
  out.report.findings.insert(out.report.findings.begin(), findings.begin(), findings.end());
  if (std::string problem = validate(out.incident); !problem.empty())
    throw LoadError(file_name, 0, 0, "the incident built from the traces is not valid: " + problem);
  return out;
}

}  // namespace breakerlab
