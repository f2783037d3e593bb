#pragma once
// breakerlab/1 incident files (YAML, or the same structure as JSON), see docs/formats.md.
#include <filesystem>
#include <string>
#include <string_view>

#include "breakerlab/core/incident.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

inline constexpr std::string_view kIncidentFormat = "breakerlab/1";

// Parses and validates an incident; throws LoadError (never anything else) on bad input.
Incident parseIncident(std::string_view text, std::string file_name);
Incident loadIncident(const std::filesystem::path& path);

}  // namespace breakerlab
