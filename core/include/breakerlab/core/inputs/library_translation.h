#pragma once
// Changing the library a breaker follows: the breaker in force translated into the chosen
// library's settings, with what could not be carried over (docs/libraries.md, "Changing
// library"). The same mapping the config exporters write as text (data/src/export/), as values.
#include <string>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

// A setting of the breaker in force that the target library cannot hold as it is.
struct NotCarriedOver {
  std::string
      setting;      // its key where it was: "breaker.half_open.spacing", "gobreaker.ReadyToTrip"
  std::string why;  // what the target does instead, or what was kept
  bool operator==(const NotCarriedOver&) const = default;
};

struct LibraryTranslation {
  // Follows `target`, its settings from the breaker in force; everything outside the breaker
  // (timeouts, retries, pods, ...) unchanged, except an attempt timeout the source library held
  // itself (opossum's `timeout`), which becomes timeout.attempt.
  Config config;
  std::vector<NotCarriedOver> not_carried;
};

// The breaker `config` follows (the generic machine or a library's settings) as `target`'s
// settings. A library's breaker goes to another library through the generic machine, so the
// list holds what each step lost. The target's own settings that nothing maps to (names,
// gobreaker's Name, opossum's capacity) stay as the config held them. The result validates.
// `breaker_calls_per_second` (breakerCallsPerSecond; 0: unknown) is how fast one breaker sees
// calls: with it, a window of the last N calls becomes a window of the time N calls take where
// the target counts in time only (gobreaker's Interval), instead of a count since the last state
// change that a long healthy stretch dilutes until the breaker never trips.
LibraryTranslation translateToLibrary(const Config& config, BreakerLibrary target,
                                      double breaker_calls_per_second = 0);

// The checkouts arriving per second in `incident`, on average over its window (estimateWork's
// window arrivals): the calls the fleet's breakers see between them.
double fleetCallsPerSecond(const Incident& incident);
// The calls one breaker of `config` sees per second when the fleet sees `fleet_calls_per_second`:
// a pod's share when each pod keeps its own breaker.
double breakerCallsPerSecond(double fleet_calls_per_second, const Config& config);

}  // namespace breakerlab
