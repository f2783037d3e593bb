#pragma once
// A metric's row as the workbench and the report show it, without a widget: which rows, in what
// order, and each row's cells (the run's value, the baseline's, the signed difference and
// whether it is better or worse). The metrics panel and the report's table both come from here.
#include <QString>
#include <optional>
#include <string_view>
#include <vector>

#include "breakerlab/core/outcome/metrics.h"

namespace breakerlab::views {

// "1,760", "14.09 s", "800 ms", "0.27", "—" (undefined).
QString formatMetric(std::string_view unit, const std::optional<double>& value, bool integral);
// A difference of two values of a metric, signed: "+1,802", "-12.04 s", and for a percentage
// "+3.20 pp" (percentage points: 12% to 15.2% is +3.20 pp, not +3.20%).
QString formatDelta(std::string_view unit, double delta, bool integral);
// +1 when a change of `delta` is good for the metric, -1 when bad, 0 when the metric is neutral
// (its change alone is neither: see MetricDirection) or nothing changed.
int deltaDirectionOf(const MetricInfo& metric, double delta);

// The rows in the order they are shown: the workbench's headline metrics, then every other in
// the registry's order.
std::vector<const MetricInfo*> metricRowOrder();

struct MetricCells {
  QString value;      // the run's
  QString baseline;   // the deployed config's (or B's)
  QString delta;      // "" when equal; "now defined" / "now undefined" when one run lacks it
  int direction = 0;  // deltaDirectionOf, or 0
  bool shown = true;  // metricRowApplies: false hides the row
};

MetricCells metricCells(const MetricInfo& metric, const Metrics& current, const Metrics& baseline);

}  // namespace breakerlab::views
