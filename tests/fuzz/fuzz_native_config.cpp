// Any bytes as a library's config file: the first byte picks the library (and a file name that
// steers the format), the rest is the text. Bad input must end in a LoadError, never a crash, a
// hang or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/data/native_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  if (size < 1) return 0;
  static const struct {
    BreakerLibrary library;
    const char* file;
  } kTargets[] = {{BreakerLibrary::resilience4j, "application.yml"},
                  {BreakerLibrary::resilience4j, "application.properties"},
                  {BreakerLibrary::gobreaker, "breaker.go"},
                  {BreakerLibrary::gobreaker, "gobreaker.yaml"},
                  {BreakerLibrary::polly, "appsettings.json"},
                  {BreakerLibrary::opossum, "opossum.json"},
                  {BreakerLibrary::cockatiel, "cockatiel.json"},
                  {BreakerLibrary::envoy, "cluster.yaml"}};
  const auto& target = kTargets[data[0] % (sizeof kTargets / sizeof kTargets[0])];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  // As a policy (a breaker required), and as the gate reads it (a time limiter or retry alone).
  for (const bool breaker_optional : {false, true}) {
    try {
      const NativeConfig c =
          parseNativeConfig(text, target.file, target.library, NativeReadOptions{breaker_optional});
      Config config;
      applyNativeConfig(c, config);
    } catch (const LoadError&) {
    }
  }
  return 0;
}
