#pragma once
// The report's metrics table, each cell as the workbench's metrics panel shows it: the same
// rows in the same order, values, deltas against the deployed config and their direction, all
// from views/metric_cells.h (no widget is built).
#include <vector>

#include "breakerlab/core/inputs/dependency_words.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/data/report.h"

namespace breakerlab::app {

// `results[0]` is the deployed config's replay. A row is kept when the panel shows it for any
// config against the deployed one. Its label is in the incident's words, as the panel's.
std::vector<ReportMetric> metricRows(const std::vector<const Result*>& results,
                                     const DependencyWords& words = {});

}  // namespace breakerlab::app
