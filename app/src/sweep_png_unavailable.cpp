// `sweep --png` in a build without Qt: the map is drawn by the workbench's plot.
#include "commands.h"
#include "sweep_png.h"

namespace breakerlab::cli {

std::string drawSweepPng(const SweepPicture&) {
  throw UsageError(
      "sweep --png: this breakerlab-cli was built without Qt (BREAKERLAB_BUILD_GUI=OFF), which "
      "draws the map; write the CSV with -o, or rebuild with -DBREAKERLAB_BUILD_GUI=ON");
}

}  // namespace breakerlab::cli
