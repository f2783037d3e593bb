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
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/data/incident_import.h"

namespace breakerlab {

// Whether `head` (the start of a file) is a Prometheus range response or a role bundle of them.
bool looksLikePrometheusRange(std::string_view head);

// Throws LoadError (file:line:column for JSON syntax; the role and series otherwise).
ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed);

}  // namespace breakerlab
