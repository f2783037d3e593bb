// Any bytes as a gobreaker ReadyToTrip body inside a Settings literal.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/data/native_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string body(reinterpret_cast<const char*>(data), size);
  const std::string go =
      "package p\nvar s = gobreaker.Settings{\n\tReadyToTrip: "
      "func(c gobreaker.Counts) bool {\n" +
      body + "\n\t},\n}\n";
  try {
    const NativeConfig n = parseNativeConfig(go, "t.go", BreakerLibrary::gobreaker);
    GobreakerCounts counts{7, 3, 4, 0, 1, 2};
    (void)n.native.gobreaker.ready_to_trip.evaluate(counts);
  } catch (const LoadError&) {
  }
  return 0;
}
