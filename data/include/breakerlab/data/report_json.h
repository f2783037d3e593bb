#pragma once
// JSON reports of a replay and of a breaker-only replay (docs/formats.md, "JSON report").
#include <vector>

#include <nlohmann/json.hpp>

#include "breakerlab/core/breakers/breaker.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/outcome/result.h"

namespace breakerlab {

inline constexpr const char* kReportFormat = "breakerlab-report/1";
inline constexpr const char* kBreakerReportFormat = "breakerlab-breaker-report/1";

// Times are seconds (double) from the incident's t=0. `checks` gives `calibration`, `checks`,
// `goals` and, for readers of earlier reports, `expectations` (calibration, then checks).
nlohmann::json replayToJson(const Incident& incident, const Result& result, const Checks& checks);

// The replay's pods against the recorded ones (comparePodLanes), within the incident's
// `every pod` lane check (else its breaker lane check, else 1 s): the report's `pod_comparison`,
// present when the incident records pod lanes.
nlohmann::json podComparisonToJson(const Incident& incident, const Result& result);

// Every metric of metricRegistry() by name, null when absent: the report's `metrics`.
nlohmann::json metricsToJson(const Metrics& metrics);

nlohmann::json breakerReplayToJson(const std::vector<LoggedCall>& calls,
                                   const BreakerReplay& replay);

}  // namespace breakerlab
