#pragma once
#include <cstdint>

#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// A call the breaker holds until it decides (cockatiel's half-open waiters), under its token.
struct HeldCall {
  enum class Kind : std::uint8_t { request, refresh, attempt } kind;
  Micros request_start;
  std::uint32_t key, record, request;
  std::uint8_t attempt;
  std::uint16_t pod;
};

}  // namespace breakerlab
