// Any bytes as OTLP JSON traces (one document, or one per line): an incident or a LoadError,
// never a crash, a hang or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/otlp_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ImportedIncident imported = importOtlpTraces(text, "traces.json", ImportOptions{});
    (void)incidentToYaml(imported.incident);
  } catch (const LoadError&) {
  }
  return 0;
}
