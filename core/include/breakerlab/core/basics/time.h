#pragma once
// Simulation time: integer microseconds from the incident's t=0. Integers keep replays
// bit-identical across machines and make event ordering exact.
#include <cstdint>
#include <limits>

namespace breakerlab {

using Micros = std::int64_t;

inline constexpr Micros kMillisecond = 1'000;
inline constexpr Micros kSecond = 1'000'000;
inline constexpr Micros kNever = std::numeric_limits<Micros>::max();

constexpr double toSeconds(Micros t) {
  return static_cast<double>(t) / kSecond;
}
constexpr Micros fromSeconds(double s) {
  return static_cast<Micros>(s * kSecond + (s >= 0 ? 0.5 : -0.5));
}

}  // namespace breakerlab
