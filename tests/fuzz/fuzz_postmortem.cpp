// Any bytes as a document to import (postmortem Markdown or text, or anything importIncident
// detects), without calibration: the reader and the builder must turn any text into an incident
// or a LoadError, and the incident must write out. fuzz_postmortem_facts fuzzes the reading
// alone; fuzz_calibrate the calibration, on a small replay budget.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Built once: the default state table is the same for every input.
  static const ImportOptions options = [] {
    ImportOptions o;
    o.calibrate = false;
    return o;
  }();
  try {
    const ImportedIncident imported = importIncident(text, "postmortem.md", options);
    (void)incidentToYaml(imported.incident);
  } catch (const LoadError&) {
  }
  return 0;
}
