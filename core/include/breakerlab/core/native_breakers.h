#pragma once
// The settings of every library a breaker can follow, kept side by side so that switching the
// library in the workbench keeps what was tuned for each.
#include "breakerlab/core/libraries/cockatiel.h"
#include "breakerlab/core/libraries/envoy.h"
#include "breakerlab/core/libraries/gobreaker.h"
#include "breakerlab/core/libraries/opossum.h"
#include "breakerlab/core/libraries/polly.h"
#include "breakerlab/core/libraries/resilience4j.h"

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
