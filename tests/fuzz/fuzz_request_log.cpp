// Any bytes as a request log, CSV and JSON Lines (the first byte picks the mapping), made into
// an incident and, when it is small, replayed from its recorded calls.
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
      if (incident.traffic.recorded.size() <= 2000 &&
          incident.end - incident.start <= 600 * kSecond) {
        incident.traffic.lead_in = kSecond;
        (void)simulate(incident, incident.deployed);
      }
    } catch (const LoadError&) {
    }
  }
  return 0;
}
