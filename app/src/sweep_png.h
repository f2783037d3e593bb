#pragma once
// The PNG of `sweep --png`: the map drawn by the workbench's SensitivityPlot, offscreen. Only in
// builds with Qt (sweep_png.cpp); without it (sweep_png_unavailable.cpp) it throws UsageError.
#include <span>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/tuning/sweep.h"

namespace breakerlab::cli {

struct SweepPicture {
  const SweepResult* sweep = nullptr;
  std::span<const KnobRange> knobs;
  std::span<const MetricInfo* const> metrics;
  std::span<const Expectation> goals;  // every case's, in order
  std::vector<double> current;         // the base config's value of each knob (the marker)
  std::string title;
  int width = 1100, height = 820;
};

// The PNG file's bytes.
std::string drawSweepPng(const SweepPicture& picture);

}  // namespace breakerlab::cli
