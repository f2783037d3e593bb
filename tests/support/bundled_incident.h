#pragma once
// A bundled incident (resources/incidents/NAME.yaml) read as tests read it, defined once for the
// test files that replay them. The test target defines BREAKERLAB_RESOURCES.
#include <string>
#include <string_view>

#include "breakerlab/data/incident_io.h"

#ifndef BREAKERLAB_RESOURCES
#error "the test target defines BREAKERLAB_RESOURCES (the resources/ folder)"
#endif

namespace breakerlab::test {

// NAME with or without ".yaml" ("inc-2026-0908-pricing").
inline Incident bundledIncident(std::string_view name) {
  std::string path = std::string(BREAKERLAB_RESOURCES) + "/incidents/" + std::string(name);
  if (!name.ends_with(".yaml")) path += ".yaml";
  return loadIncident(path);
}

// The 8 Sep incident, read once per test binary.
inline const Incident& pricingIncident() {
  static const Incident incident = bundledIncident("inc-2026-0908-pricing");
  return incident;
}

}  // namespace breakerlab::test
