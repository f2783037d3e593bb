// Any bytes as a document to import (postmortem Markdown or text, or anything importIncident
// detects). Without calibration every input: the reader and the builder must turn any text into
// an incident or a LoadError. Inputs whose first byte is '!' and that are short also run the
// calibration, which replays the incident many times.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ImportOptions options;
  options.calibrate = false;
  constexpr std::size_t kMaxCalibratedInput = 2048;
  if (!text.empty() && text.front() == '!' && text.size() <= kMaxCalibratedInput) {
    text.remove_prefix(1);
    options.calibrate = true;
  }
  const bool calibrate = options.calibrate;
  try {
    if (calibrate) {
      // Calibration replays the incident: only when one replay is small.
      ImportOptions plain = options;
      plain.calibrate = false;
      const ImportedIncident first = importIncident(text, "postmortem.md", plain);
      if (estimateWork(first.incident, first.incident.deployed).simulated_requests > 20'000)
        return 0;
    }
    const ImportedIncident imported = importIncident(text, "postmortem.md", options);
    (void)incidentToYaml(imported.incident);
  } catch (const LoadError&) {
  }
  return 0;
}
