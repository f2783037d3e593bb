// `breakerlab-cli report` in a build without Qt: the lanes and the PDF are drawn by Qt.
#include "commands.h"

namespace breakerlab::cli {

int runReport(const ReportOptions&, std::ostream&) {
  throw UsageError(
      "report: this breakerlab-cli was built without Qt (BREAKERLAB_BUILD_GUI=OFF); the report "
      "draws its lanes and PDF with Qt: rebuild with -DBREAKERLAB_BUILD_GUI=ON");
}

}  // namespace breakerlab::cli
