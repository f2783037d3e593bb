// Any bytes as Prometheus range-query JSON (a response, or responses under their roles): an
// incident or a LoadError, never a crash, a hang or an unbounded allocation. The same bytes as
// one answer of a server to `import --prometheus` (readPrometheusAnswer, its SAX pass) and, when
// that takes them as a matrix, under a role as the import by URL bundles it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/prometheus_import.h"
#include "breakerlab/data/prometheus_query.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ImportedIncident imported = importPrometheusRange(text, "metrics.json", Config{});
    (void)incidentToYaml(imported.incident);
  } catch (const LoadError&) {
  }
  const PrometheusAnswer answer = readPrometheusAnswer(text);
  if (answer.json_error.empty() && answer.status == "success" && answer.result_type == "matrix" &&
      answer.series > 0) {
    try {
      const std::string bundle = "{\"breaker_state\": " + std::string(text) + "\n}\n";
      (void)importPrometheusRange(bundle, "http://127.0.0.1:9090/api/v1/query_range", Config{},
                                  PrometheusOrigin{"prometheus-x", "by URL", "fuzz"});
    } catch (const LoadError&) {
    }
  }
  return 0;
}
