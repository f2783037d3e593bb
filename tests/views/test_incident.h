#pragma once
#include <string>

#include "breakerlab/data/incident_io.h"

namespace breakerlab::test {
inline std::string resourcePath(const std::string& path) {
  return std::string(BREAKERLAB_RESOURCES) + "/" + path;
}
inline std::string incidentPath() {
  return std::string(BREAKERLAB_RESOURCES) + "/incidents/inc-2026-0908-pricing.yaml";
}
inline const Incident& incident0908() {
  static const Incident incident = loadIncident(incidentPath());
  return incident;
}
}  // namespace breakerlab::test
