#pragma once
// The short names tests write durations with (`20 * s`, `800 * ms`), defined once: a test file
// takes them with `using test_units::s;` (a unity build compiles several test files as one).
#include "breakerlab/core/basics/time.h"

namespace breakerlab::test_units {

inline constexpr Micros s = kSecond;
inline constexpr Micros ms = kMillisecond;

}  // namespace breakerlab::test_units
