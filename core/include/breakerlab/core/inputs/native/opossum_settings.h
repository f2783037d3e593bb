#pragma once
// opossum's options object: the settings alone, which every config carries (inputs/config.h), apart
// from the state machine that runs them (breakers/libraries/opossum.h).
#include <cstdint>
#include <string>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// The options object, in opossum's units (durations converted from ms). A `timeout` of 0 is
// opossum's `false` (no timer). The classification stands for errorFilter: an error that is not
// one of its failures is filtered, which opossum counts as a success.
struct OpossumOptions {
  std::string name;
  Micros timeout = 10'000 * kMillisecond;
  double error_threshold_percentage = 50;
  Micros reset_timeout = 30'000 * kMillisecond;
  Micros rolling_count_timeout = 10'000 * kMillisecond;
  std::uint32_t rolling_count_buckets = 10;
  std::uint32_t volume_threshold = 0;
  bool allow_warm_up = false;
  std::uint64_t capacity = (1ull << 53) - 1;  // Number.MAX_SAFE_INTEGER
  bool enabled = true;
  OutcomeClassification classification;
  bool operator==(const OpossumOptions&) const = default;
};

}  // namespace breakerlab
