#pragma once
// Writing the report: HTML or PDF by the file's suffix, atomically.
#include <filesystem>
#include <optional>

#include "breakerlab/data/report.h"

namespace breakerlab::app {

enum class ReportFormat { html, pdf };

// .html/.htm or .pdf (any case); nullopt otherwise.
std::optional<ReportFormat> reportFormatOf(const std::filesystem::path& path);

// Throws LoadError("PATH", 0, 0, ...) for an unknown suffix or a file that cannot be written;
// the old file, if any, is then untouched. A PDF needs a QGuiApplication.
void writeReport(const ReportDocument& report, const std::filesystem::path& path);

}  // namespace breakerlab::app
