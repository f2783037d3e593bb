#pragma once
// The human-readable replay report.
#include <iosfwd>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/inputs/lanes.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/outcome/result.h"

namespace breakerlab::cli {

// A lane's text report stops after this many intervals and sums up the rest (12 Sep's breaker
// with a breaker at 40 pods has over 200: a 6,500-character line).
inline constexpr std::size_t kLaneIntervalsShown = 16;
// "closed 0.0–11.0 | open 11.0–31.0 | ... | … 212 more to 14340 (closed 9120 s in 71, ...)"
std::string laneText(const Lane& lane, std::size_t max_intervals = kLaneIntervalsShown);
// "3", "3.014 s", "12.5 %", "—" when undefined.
std::string metricText(const MetricInfo& info, const std::optional<double>& value);

void printReport(std::ostream& out, const Incident& incident, const std::string& config_label,
                 const Result& result, const Checks& checks);

}  // namespace breakerlab::cli
