// `replay --list-metrics` and `replay --list-whatifs`.
#include <ostream>

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/data/incident_import.h"
#include "commands.h"

namespace breakerlab::cli {

int listMetrics(std::ostream& out) {
  std::size_t width = 0;
  for (const MetricInfo& m : metricRegistry()) width = std::max(width, m.name.size());
  for (const MetricInfo& m : metricRegistry()) {
    std::string name(m.name);
    name.resize(width + 2, ' ');
    std::string unit = m.unit.empty() ? "-" : std::string(m.unit);
    unit.resize(4, ' ');
    out << name << unit << m.description << '\n';
  }
  return kExitOk;
}

int listWhatIfs(const std::filesystem::path& incident_path, std::ostream& out) {
  const Incident incident = openIncidentFile(incident_path).incident;
  if (incident.what_ifs.empty()) out << "(no what-ifs in " << incident.id << ")\n";
  for (const WhatIf& w : incident.what_ifs) {
    out << w.name;
    if (!w.description.empty()) out << ": " << w.description;
    out << '\n';
  }
  return kExitOk;
}

}  // namespace breakerlab::cli
