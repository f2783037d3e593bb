#pragma once
#include "breakerlab/core/config.h"
#include "breakerlab/core/incident.h"
#include "breakerlab/core/result.h"

namespace breakerlab {

// Replays `incident` with `config`. Pure and deterministic: the same incident, config and
// incident seed give bit-identical results. Randomness is drawn per (seed, request, purpose),
// so a knob changes only what it touches. Requires validate(incident) and validate(config)
// to be empty.
Result simulate(const Incident& incident, const Config& config);

}  // namespace breakerlab
