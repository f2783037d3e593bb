#pragma once
// Call logs for the breaker-only replay: "start_s,duration_s,outcome" lines (docs/formats.md).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/breaker.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

// Outcome is a name (success, timeout, refused, server_error, client_error, pool_exhausted) or
// an HTTP status (2xx success, 4xx client_error, 5xx server_error). An optional header line,
// blank lines and '#' comments are skipped. Calls must be sorted by start. Throws LoadError.
std::vector<LoggedCall> parseCallsCsv(std::string_view text, const std::string& file_name);
std::vector<LoggedCall> loadCallsCsv(const std::filesystem::path& path);

}  // namespace breakerlab
