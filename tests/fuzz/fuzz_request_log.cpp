// Any bytes as a request log, CSV and JSON Lines (the first byte picks the mapping), made into
// an incident and, when it is small, replayed from its recorded calls. The replay bound is what
// keeps this target fast enough to fuzz: a replay costs in proportion to the simulated time (the
// dependency, pool and pods tick through it) and the requests; a log of a few hundred calls over
// a minute reaches every rule the builder and the recorded-traffic replay have; 2,000 calls over
// 10 minutes ran at about 70 inputs a second under ASan.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/request_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)detectRequestLog(text);
  for (const RequestLogFormat format : {RequestLogFormat::csv, RequestLogFormat::jsonl}) {
    try {
      RequestLogOptions options;
      if (size > 0 && data[0] % 4 == 0)
        options.mapping = parseRequestLogMapping("ts=when,duration=took_ms,id=rid", "--map");
      RequestLog log = parseRequestLog(text, "log", format, options);
      ImportReport report;
      Incident incident = incidentFromRequestLog(std::move(log), Config{}, report);
      if (!validate(incident).empty()) __builtin_trap();  // the builder makes valid incidents
      if (incident.traffic.recorded.size() <= 300 &&
          incident.end - incident.start <= 60 * kSecond) {
        incident.traffic.lead_in = kSecond;
        (void)simulate(incident, incident.deployed);
      }
    } catch (const LoadError&) {
    }
  }
  return 0;
}
