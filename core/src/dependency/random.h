#pragma once
// Counter-based random numbers: every draw is a pure function of (seed, request, attempt,
// purpose). Nothing is consumed from a shared stream, so changing one knob cannot shift the
// draws of unrelated requests (common random numbers), and replays are bit-identical.
#include <cstdint>

namespace breakerlab {

enum class Purpose : std::uint32_t {
  arrival_gap = 1,
  key = 2,
  outcome = 3,
  latency = 4,
  backoff = 5,
  correlation = 6,
  throttle = 7,  // the client's adaptive throttling
};

// Stream ids keep the lead-in's requests apart from the window's, and both from the
// background refreshes of cache-first pricing.
enum class Stream : std::uint32_t { window = 0, lead_in = 1, refresh = 2 };

namespace detail {
// The SplitMix64 / Stafford "mix13" finaliser: a bijection with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace detail

class CounterRng {
 public:
  constexpr explicit CounterRng(std::uint64_t seed)
      : seed_(detail::mix64(seed ^ 0x6a09e667f3bcc909ULL)) {}

  constexpr std::uint64_t bits(Stream stream, std::uint64_t request, std::uint32_t attempt,
                               Purpose purpose) const {
    // SplitMix64: the request walks the golden-ratio sequence, the tag picks a distinct,
    // odd-multiplied offset per (stream, attempt, purpose), and the finaliser scrambles it.
    const std::uint64_t tag = (static_cast<std::uint64_t>(stream) << 48) ^
                              (static_cast<std::uint64_t>(attempt) << 8) ^
                              static_cast<std::uint64_t>(purpose);
    return detail::mix64(seed_ + request * 0x9e3779b97f4a7c15ULL + tag * 0xd1b54a32d192ed03ULL);
  }

  // Uniform in [0, 1), 53 bits.
  constexpr double uniform(Stream stream, std::uint64_t request, std::uint32_t attempt,
                           Purpose purpose) const {
    return static_cast<double>(bits(stream, request, attempt, purpose) >> 11) * 0x1.0p-53;
  }

 private:
  std::uint64_t seed_;
};

}  // namespace breakerlab
