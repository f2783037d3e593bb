#pragma once
// The words of a sensitivity map: a knob's value as the knob panel writes it ("12.5 s",
// "800 ms", "on", "unlimited"), a metric's value with its unit, the axis and colour-scale titles,
// a goal's bound and a cell's tooltip. Pure, tested in
// tests/views/sensitivity/sensitivity_text_test.cpp.
#include <QString>
#include <cstddef>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/views/sensitivity_map.h"

namespace breakerlab::views {

QString knobValueText(const KnobSpec& knob, double value);
// NaN: "—".
QString metricValueText(const MetricInfo& metric, double value);
// "Open interval", with the unit in brackets for a number knob that is not a duration (the
// durations' ticks carry their own unit): "Failure rate (%)".
QString knobAxisTitle(const KnobSpec& knob);
// "Cached while healthy (s)".
QString metricAxisTitle(const MetricInfo& metric);
// A comparison as a reader writes it: "≤", "≠".
QString compareText(CompareOp op);
// A goal's bound: "≤ 3 s".
QString goalBoundText(const SensitivityGoal& goal, const MetricInfo* metric);
// A goal as the Colour box names it: "Cached while healthy ≤ 3 s"; a lane check as written.
QString goalText(const SensitivityGoal& goal);
// A cell's knob values, each metric, and which goals it misses (or that it meets them all).
QString cellToolTip(const SensitivityMap& map, std::size_t cell);

}  // namespace breakerlab::views
