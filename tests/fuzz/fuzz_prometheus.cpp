// Any bytes as Prometheus range-query JSON (a response, or responses under their roles): an
// incident or a LoadError, never a crash, a hang or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/prometheus_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ImportedIncident imported = importPrometheusRange(text, "metrics.json", Config{});
    (void)incidentToYaml(imported.incident);
  } catch (const LoadError&) {
  }
  return 0;
}
