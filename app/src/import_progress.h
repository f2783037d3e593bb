#pragma once
// Reading a big document (a request log) from the CLI: a progress line on stderr when it is a
// terminal, and Ctrl+C to stop the import.
#include <functional>
#include <string>

#include "breakerlab/data/incident_import.h"

namespace breakerlab::cli {

// openIncidentFile() with `options.progress` showing "reading FILE: 42%" on a terminal and
// SIGINT cancelling; a cancelled import throws ReplayInterrupted("import of FILE cancelled").
ImportedIncident openWithProgress(const std::filesystem::path& path, ImportOptions options);

// `--map` and `--config` for a request log: the mapping and the deployed config.
void applyRequestLogOptions(ImportOptions& options, const std::string& map,
                            const std::string& config_file);

}  // namespace breakerlab::cli
