// Any bytes as `--set` assignments, one a line (the first line may name a key prefix, the way
// users type "breaker.window=..."), applied to the default config and to the bundled incident's.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "breakerlab/data/config_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> assignments;
  std::size_t pos = 0;
  while (pos <= text.size() && assignments.size() < 16) {
    const std::size_t nl = text.find('\n', pos);
    assignments.emplace_back(text.substr(pos, nl == std::string_view::npos ? nl : nl - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  Config base;
  base.breaker.early_probe = true;
  base.retry.max_attempts = 3;
  try {
    const Config c = applyOverrides(base, assignments);
    (void)configToYaml(c);
  } catch (const LoadError&) {
  }
  return 0;
}
