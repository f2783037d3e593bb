#pragma once
// The human-readable replay report.
#include <iosfwd>
#include <string>
#include <vector>

#include "breakerlab/core/expectations.h"
#include "breakerlab/core/incident.h"
#include "breakerlab/core/lanes.h"
#include "breakerlab/core/metrics.h"
#include "breakerlab/core/result.h"

namespace breakerlab::cli {

// "closed 0.0–11.0 | open 11.0–31.0 | ..."
std::string laneText(const Lane& lane);
// "3", "3.014 s", "12.5 %", "—" when undefined.
std::string metricText(const MetricInfo& info, const std::optional<double>& value);

void printReport(std::ostream& out, const Incident& incident, const std::string& config_label,
                 const Result& result, const std::vector<ExpectationResult>& expectations);

}  // namespace breakerlab::cli
