#pragma once
// Whether two configs hold the same settings for `library` (its own section of NativeBreakers):
// what an import -> export -> import round trip must keep.
#include "breakerlab/core/inputs/native_breakers.h"

namespace breakerlab::test {

inline bool sameSettings(const NativeBreakers& a, const NativeBreakers& b, BreakerLibrary library) {
  switch (library) {
    case BreakerLibrary::resilience4j:
      return a.resilience4j == b.resilience4j;
    case BreakerLibrary::gobreaker:
      return a.gobreaker == b.gobreaker;
    case BreakerLibrary::polly:
      return a.polly == b.polly;
    case BreakerLibrary::opossum:
      return a.opossum == b.opossum;
    case BreakerLibrary::cockatiel:
      return a.cockatiel == b.cockatiel;
    case BreakerLibrary::envoy:
      return a.envoy == b.envoy;
    case BreakerLibrary::breakerlab:
      break;
  }
  return false;
}

}  // namespace breakerlab::test
