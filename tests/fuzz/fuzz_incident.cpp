// Any bytes as a breakerlab/1 incident. What parses is estimated, written back as YAML and, when
// the estimate is small, replayed, its expectations and goals evaluated and reported as JSON: an
// incident the reader accepts must not crash the model or the report either.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/report_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const Incident incident = parseIncident(text, "incident.yaml");
    (void)incidentToYaml(incident);
    // A few thousand requests replay in about a millisecond; bigger ones would slow the fuzzer.
    constexpr double kMaxFuzzRequests = 20'000;
    if (estimateWork(incident, incident.deployed).simulated_requests <= kMaxFuzzRequests &&
        incident.checkout_lane.bucket >= kMillisecond) {
      const Result result = simulate(incident, incident.deployed);
      Checks checks;
      checks.calibration = evaluate(incident.expect, incident, result);
      checks.goals = evaluate(incident.goals, incident, result);
      checks.baseline_goals = checks.goals;
      (void)replayToJson(incident, result, checks).dump();
    }
  } catch (const LoadError&) {
  }
  return 0;
}
