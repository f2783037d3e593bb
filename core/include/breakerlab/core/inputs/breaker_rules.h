#pragma once
// What a breaker's settings amount to, as the translation into another library
// (library_translation.h) and the exporters' notes (data/src/export/) judge them: once, so that
// the settings written and the words that explain them cannot disagree.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

// How many bad calls among `n` a rate threshold of `pct` tolerates: the largest count for which
// bad * 100 < pct * n still holds (a window trips at or above the rate).
inline std::uint32_t toleratedBelow(double pct, std::uint32_t n) {
  const double limit = pct * n;
  auto below = [&](double bad) { return bad * 100.0 < limit; };
  double f = std::clamp(std::ceil(limit / 100.0) - 1, 0.0, static_cast<double>(n));
  while (f + 1 <= n && below(f + 1)) ++f;
  while (f > 0 && !below(f)) --f;
  return static_cast<std::uint32_t>(f);
}

// The multiplier only grows the open interval when its cap is above the base interval.
inline bool backoffInEffect(const BreakerConfig& b) {
  return b.backoff_multiplier > 1.0 && b.backoff_max > b.open_interval;
}

// How many of the probes the generic machine lets fail and still closes.
inline std::uint32_t probeFailuresTolerated(const BreakerConfig& b) {
  if (b.reopen_on_first_failure || b.close_when == CloseRule::all_succeed) return 0;
  return toleratedBelow(b.failure_rate_pct, b.probes);
}

}  // namespace breakerlab
