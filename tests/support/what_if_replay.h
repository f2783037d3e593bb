#pragma once
// A what-if replayed as the workbench and the CLI replay it: its config, and its timed changes
// when it has its own.
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/replay/simulate.h"

namespace breakerlab::test {

inline Result whatIfReplay(const Incident& inc, const WhatIf& w) {
  SimulateOptions options;
  options.changes = w.changes ? &*w.changes : nullptr;
  return simulate(inc, w.config, options);
}

}  // namespace breakerlab::test
