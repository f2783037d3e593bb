// Any bytes as the Prometheus import's metric table (breakerlab-prometheus-metrics/1, YAML the user
// edits): read, written back and read again, which must give the same table.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/prometheus_metrics.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const PrometheusMetricTable table = parsePrometheusMetricTable(text, "metrics.yaml");
    const std::string written = prometheusMetricTableToYaml(table);
    const PrometheusMetricTable again = parsePrometheusMetricTable(written, "written.yaml");
    if (prometheusMetricTableToYaml(again) != written)
      std::abort();  // the round trip lost something
  } catch (const LoadError&) {
  }
  return 0;
}
