#pragma once
// The expectation grammar "<metric> <op> <value>[ ± <tolerance>[%]]" (docs/formats.md).
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

// Parses one metric expectation, e.g. "failed_checkouts == 0" or "time_to_trip_s == 3 ± 0.5".
// `origin` names where it came from in errors (e.g. "--expect"); the error's line is 0.
Expectation parseExpectation(std::string_view text, const std::string& origin);

// "Goals: 2 of 2 met (deployed: 0 of 2): better than deployed"; "Goals: none in this incident".
// `regressed` (regressedMetricsText) is appended to a verdict that is not "worse" already:
// "... better than deployed, but worse on failed checkouts, fresh".
std::string goalVerdictText(const GoalComparison& goals, std::string_view regressed);

}  // namespace breakerlab
