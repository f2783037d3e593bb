// Any bytes as a postmortem imported with calibration: the shares of the document's failing
// states fitted to its recorded breaker lane by replaying it. The budget is small (the import
// skips calibration, and says so, when its replays together would simulate more requests), so
// that an input costs a few replays of a short incident, not minutes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/data/incident_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const ImportOptions options = [] {
    ImportOptions o;
    o.calibrate = true;
    o.max_calibration_requests = 100'000;
    return o;
  }();
  try {
    (void)importIncident(text, "postmortem.md", options);
  } catch (const LoadError&) {
  }
  return 0;
}
