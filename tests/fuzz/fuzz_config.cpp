// Any bytes as a breakerlab-config/1 file (with the libraries' sections), as such a file laid
// over a config that is not the default one (the gate's overlayConfig), and as --set values.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/data/config_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Config c = parseConfig(text, "config.yaml");
    (void)configToYaml(c);
  } catch (const LoadError&) {
  }
  try {
    Config base;
    base.breaker.library = BreakerLibrary::resilience4j;
    base.pool.size = 20;
    base.retry.max_attempts = 3;
    (void)overlayConfig(base, text, "head.yaml");
  } catch (const LoadError&) {
  }
  try {
    (void)applyOverrides(Config{}, {text});
  } catch (const LoadError&) {
  }
  return 0;
}
