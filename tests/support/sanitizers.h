#pragma once
// Whether this test binary runs under AddressSanitizer (the asan preset: clang, ASan + UBSan at
// -O1), where a replay runs 20-50 times slower than in the release build.
//
// A few tests replay every bundled incident under each of its configs (deployed and every
// what-if) to check that two ways of computing a result agree bit for bit. The release build
// runs them whole: that is where the numbers are checked. Under the sanitizers they take the
// first `kSanitizedConfigs` configs of each incident (`configsUnderTest`): every incident and so
// every code path they reach still runs, so a memory or undefined-behaviour error is still
// found, while CI stays within its time (docs/hacking.md, "Build times").
#include <algorithm>
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)  // GCC
#define BREAKERLAB_TEST_UNDER_ASAN 1
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
#define BREAKERLAB_TEST_UNDER_ASAN 1
#endif
#endif

namespace breakerlab::test {

#ifdef BREAKERLAB_TEST_UNDER_ASAN
inline constexpr bool kUnderSanitizers = true;
#else
inline constexpr bool kUnderSanitizers = false;
#endif

// Configs of one incident a whole-incident agreement test replays under the sanitizers: the
// deployed one and the first what-if.
inline constexpr std::size_t kSanitizedConfigs = 2;

// How many of an incident's `count` configs to replay: all of them, or under the sanitizers the
// first kSanitizedConfigs.
constexpr std::size_t configsUnderTest(std::size_t count) {
  return kUnderSanitizers ? std::min(count, kSanitizedConfigs) : count;
}

}  // namespace breakerlab::test
