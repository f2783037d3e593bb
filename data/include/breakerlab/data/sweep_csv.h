#pragma once
// A sensitivity map as CSV (`breakerlab-cli sweep -o map.csv`, docs/sensitivity.md): a header of
// the knobs' ids, the metrics' names and "feasible", then one row per cell in the map's order
// (the last knob fastest).
#include <span>
#include <string>

#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/tuning/sweep.h"

namespace breakerlab {

// A knob's value as `--knob` and `--set` take it, without a unit: a number in the knob's unit,
// 0/1 for a toggle, a choice's config spelling. Each metric: its mean over the cases and seeds
// (the shortest decimal that reads back exactly), empty where a run leaves it undefined or the
// config is one the model refuses. "feasible": 1 when every goal is met, else 0. A cell a
// cancelled sweep left out has no row.
std::string sweepCsv(const SweepResult& sweep, std::span<const KnobRange> knobs,
                     std::span<const MetricInfo* const> metrics);

}  // namespace breakerlab
