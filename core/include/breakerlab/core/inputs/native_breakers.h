#pragma once
// The settings of every library a breaker can follow, kept side by side so that switching the
// library in the workbench keeps what was tuned for each.
#include "breakerlab/core/inputs/native/cockatiel_settings.h"
#include "breakerlab/core/inputs/native/envoy_settings.h"
#include "breakerlab/core/inputs/native/gobreaker_settings.h"
#include "breakerlab/core/inputs/native/opossum_settings.h"
#include "breakerlab/core/inputs/native/polly_settings.h"
#include "breakerlab/core/inputs/native/resilience4j_settings.h"

namespace breakerlab {

struct NativeBreakers {
  Resilience4jSettings resilience4j;
  GobreakerSettings gobreaker;
  PollySettings polly;
  OpossumOptions opossum;
  CockatielSettings cockatiel;
  EnvoyOutlierSettings envoy;
  bool operator==(const NativeBreakers&) const = default;
};

}  // namespace breakerlab
