#include "report_file.h"

#include <algorithm>
#include <cctype>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/output_file.h"
#include "report_pdf.h"

namespace breakerlab::app {

std::optional<ReportFormat> reportFormatOf(const std::filesystem::path& path) {
  std::string suffix = path.extension().string();
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (suffix == ".html" || suffix == ".htm") return ReportFormat::html;
  if (suffix == ".pdf") return ReportFormat::pdf;
  return std::nullopt;
}

void writeReport(const ReportDocument& report, const std::filesystem::path& path) {
  const auto format = reportFormatOf(path);
  if (!format)
    throw LoadError(
        path.string(), 0, 0,
        "unknown report type \"" + clipText(path.extension().string()) + "\": use .html or .pdf");
  if (*format == ReportFormat::html) {
    writeOutputFile(path, reportHtml(report));
    return;
  }
  const QByteArray pdf = reportPdf(report);
  writeOutputFile(path, std::string_view(pdf.constData(), static_cast<std::size_t>(pdf.size())));
}

}  // namespace breakerlab::app
