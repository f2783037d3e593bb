#pragma once
// `breakerlab-cli import --prometheus URL --from T --to T`: range queries run against a
// Prometheus server's HTTP API (`/api/v1/query_range`), their answers put under their roles as
// a bundle and read by the file importer (prometheus_import.h), so an import by URL gives the
// incident that importing the saved answers gives. The network is behind HttpGet (http_get.h):
// everything here but the GET itself is pure and tested with answers made up in the test.
//
// Nothing is half-imported: every query is run and checked before the importer sees any, and
// each failure is one LoadError naming the endpoint, the query and the cause.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/data/http_get.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/prometheus_import.h"

namespace breakerlab {

// Prometheus refuses a range query of more points per series than this (its own limit,
// "exceeded maximum resolution of 11,000 points per timeseries"): checked before asking.
inline constexpr std::size_t kPrometheusMaxPointsPerSeries = 11'000;
// The step when none is given (Prometheus's default scrape interval), raised to keep the
// points per series within the limit above.
inline constexpr double kPrometheusDefaultStepSeconds = 15;
// Samples (points of every series of every query) taken at most, by default: the file
// importer's own limit on a whole bundle.
inline constexpr std::size_t kPrometheusDefaultMaxSamples = 10'000'000;
// The longest answer to one query taken, by default (--max-response-mb): far above 10 M samples
// of JSON (about 20 bytes each).
inline constexpr std::uint64_t kPrometheusDefaultMaxResponseBytes = 256ull << 20;
// Memory at the peak of the import for each byte of the answers: the JSON tree the importer
// parses them into and the text itself (measured: 20 MB of state series peak at 259 MB
// resident), and the answers held while the bundle is made.
inline constexpr std::uint64_t kPrometheusPeakBytesPerResponseByte = 14;

// One query: its role in the bundle (a key of prometheusRoleKeys()), or "" for one classified
// by its series' metric names (a breaker state's: kPrometheusBreakerStateNames).
struct PrometheusQuery {
  std::string role;
  std::string promql;
};

// "ROLE=PROMQL" (request_rate=sum(rate(http_client_requests_total[1m]))) or "PROMQL". Throws
// LoadError(`option`, ...) for an empty query.
PrometheusQuery parsePrometheusQuery(std::string_view argument, const std::string& option);
// What is asked without --query: the breaker-state metric names the importer recognises.
std::vector<PrometheusQuery> defaultPrometheusQueries();

// RFC 3339 ("2026-09-08T14:00:00Z", "2026-09-08T16:00:00.5+02:00") or unix seconds
// ("1788876000", "1788876000.5"), as epoch seconds. Throws LoadError(`option`, ...).
double parsePrometheusTime(std::string_view text, const std::string& option);
// "2026-09-08T14:00:00Z" (with the fraction when there is one).
std::string formatRfc3339(double epoch_seconds);
// "15s", "1m", "500ms" or plain seconds ("15", "0.5"), in seconds. Throws LoadError.
double parsePrometheusStep(std::string_view text, const std::string& option);

struct PrometheusFetch {
  std::string url;          // the server (http://prometheus:9090, a path prefix allowed) or its
                            // .../api/v1/query_range
  double from = 0, to = 0;  // epoch seconds
  double step = 0;          // seconds; 0: kPrometheusDefaultStepSeconds, raised to the limit
  std::vector<PrometheusQuery> queries;       // empty: defaultPrometheusQueries()
  std::vector<std::string> headers;           // "Name: value"
  std::chrono::milliseconds timeout{10'000};  // each query's whole exchange
  std::size_t max_samples = kPrometheusDefaultMaxSamples;
  std::uint64_t max_response_bytes = kPrometheusDefaultMaxResponseBytes;  // each answer
  // How the breaker-state series read, and which label names the pod (--prometheus-metrics).
  PrometheusMetricTable metrics = PrometheusMetricTable::defaults();
};

// The checked request: the endpoint, the step taken, the queries with their roles. Throws
// LoadError for a bad URL, header, range or step, or two queries of one role.
struct PrometheusPlan {
  std::string endpoint;  // https://host:port/prefix/api/v1/query_range
  std::string shown;     // the same without a user:password@, for messages
  double from = 0, to = 0, step = 0;
  bool step_raised = false;  // the default step was raised to keep within the point limit
  std::vector<PrometheusQuery> queries;
  std::vector<std::string> headers;
};
PrometheusPlan planPrometheusFetch(const PrometheusFetch& fetch);
// The GET URL of one query: endpoint?query=...&start=...&end=...&step=...
std::string prometheusQueryUrl(const PrometheusPlan& plan, const PrometheusQuery& query);

// What one answer says, read without building it (a SAX pass: any bytes, bounded work and
// memory). Fuzzed by fuzz_prometheus.
struct PrometheusAnswer {
  std::string json_error;  // not JSON: why ("syntax error at byte 1: ..."); the rest is empty
  bool object = false;     // the top is a JSON object
  std::string status;      // "success", "error"
  std::string error_type;  // "bad_data", "execution", "timeout", ...
  std::string error;
  std::string result_type;  // "matrix"
  std::size_t series = 0;
  std::size_t samples = 0;
  bool breaker_state = true;      // every series is named as a breaker's state
  std::string first_metric_name;  // of the first series not a breaker state's
};
PrometheusAnswer readPrometheusAnswer(std::string_view body);

// Where an import by URL says it came from: id "prometheus-20260908T140000Z", the endpoint and
// range as its title and source.
PrometheusOrigin prometheusOrigin(const PrometheusPlan& plan);

struct PrometheusImport {
  ImportedIncident imported;
  // The answers under their roles, byte for byte as the server sent them: a file that imports
  // to the same incident (`--save-responses`).
  std::string responses;
};

// Runs every query through `http`, checks each answer, and imports the bundle. Throws
// LoadError(the endpoint, 0, 0, "query ROLE 'PROMQL': CAUSE") on the first failure.
PrometheusImport importPrometheusUrl(const PrometheusFetch& fetch, HttpGet& http,
                                     const Config& deployed);

}  // namespace breakerlab
