#pragma once
// Prometheus range queries (`/api/v1/query_range`, `resultType: matrix`) into an incident: a
// breaker-state series becomes the recorded breaker lane, the request rate the traffic, the
// error ratio and latency quantiles the dependency's segments (a change-point summary).
//
// A file holds one query's response, classified by its series' metric names
// (`resilience4j_circuitbreaker_state`), or several, under the role each plays:
//   {"breaker_state": RESPONSE, "request_rate": RESPONSE, "error_ratio": RESPONSE,
//    "latency_p50": RESPONSE, "latency_p99": RESPONSE}
// (what `curl .../query_range?query=...` prints, pasted under its role; rate() drops the metric
// name, so a rate cannot be told by its series alone).
#include <array>
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/prometheus_metrics.h"

namespace breakerlab {

// The metric names read as a breaker's state: a series whose `__name__` contains one of these
// (resilience4j's `resilience4j_circuitbreaker_state`, any `*breaker_state` gauge). The one
// table: the file reader classifies series by it and `import --prometheus` queries it by default.
inline constexpr std::array<std::string_view, 3> kPrometheusBreakerStateNames = {
    "circuitbreaker_state", "circuit_breaker_state", "breaker_state"};
bool isPrometheusBreakerStateName(std::string_view metric_name);

// The role keys of a bundle, in order: breaker_state, request_rate, error_ratio, latency_p50,
// latency_p95, latency_p99.
std::array<std::string_view, 6> prometheusRoleKeys();

// Where responses that are not a file came from (`import --prometheus`): the incident's id (and
// the seed drawn from it), title and `source`, instead of the file name's.
struct PrometheusOrigin {
  std::string id;
  std::string title;
  std::string source;
};

// Whether `head` (the start of a file) is a Prometheus range response or a role bundle of them.
bool looksLikePrometheusRange(std::string_view head);

// Throws LoadError (file:line:column for JSON syntax; the role and series otherwise).
ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed);
// The same, naming the incident after `origin`; errors still name `file_name`.
ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed, const PrometheusOrigin& origin);
// The same, the breaker-state series read by `table` (the defaults above); `origin` may be null.
//
// Breaker-state series with a pod label (the table's instance_labels, first found: pod,
// kubernetes_pod_name, k8s_pod_name, service_instance_id, instance) of two or more values become
// Recorded::pod_breakers, one lane per value sorted by it (lane k beside the replay's pod k+1),
// and the recorded "breaker" lane is the fleet at a glance (fleetLaneOfPods); the deployed
// config's one pod becomes as many as the record has, and `expect` gets an `every pod` check.
ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed, const PrometheusOrigin* origin,
                                       const PrometheusMetricTable& table);

}  // namespace breakerlab
