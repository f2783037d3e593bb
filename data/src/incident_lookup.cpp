#include "breakerlab/data/incident_lookup.h"

namespace breakerlab {

std::filesystem::path resolveIncidentArgument(const std::string& argument,
                                              std::span<const std::filesystem::path> bundled_dirs) {
  const std::filesystem::path given(argument);
  std::error_code ec;
  if (argument.empty() || std::filesystem::exists(given, ec) || given.has_parent_path())
    return given;
  for (const std::filesystem::path& dir : bundled_dirs)
    for (const std::string& name : {argument, argument + ".yaml"}) {
      const std::filesystem::path candidate = dir / name;
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
    }
  return given;
}

}  // namespace breakerlab
