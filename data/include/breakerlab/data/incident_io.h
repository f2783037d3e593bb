#pragma once
// breakerlab/1 incident files (YAML, or the same structure as JSON), see docs/formats.md.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

inline constexpr std::string_view kIncidentFormat = "breakerlab/1";
// recorded.pod_breakers: the most pods a record may hold (a Prometheus import's instances too).
inline constexpr std::size_t kMaxRecordedPods = 10'000;

// Parses and validates an incident; throws LoadError (never anything else) on bad input.
Incident parseIncident(std::string_view text, std::string file_name);
Incident loadIncident(const std::filesystem::path& path);

// The incident as a breakerlab/1 file that parses back to the same incident, with `header`
// (an import report, say) as comment lines at the top. What-ifs are written as the keys they
// change on the deployed config.
std::string incidentToYaml(const Incident& incident, const std::vector<std::string>& header = {});

}  // namespace breakerlab
