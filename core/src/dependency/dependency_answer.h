#pragma once
#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// What the dependency answers one call: the outcome class and how long it takes.
struct DependencyAnswer {
  CallOutcome outcome = CallOutcome::success;
  Micros latency = 0;  // kNever for a hang
};

}  // namespace breakerlab
