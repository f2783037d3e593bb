#pragma once
// A config file of any format BreakerLab reads, written in a chosen library's form, with
// everything of the source the written file does not carry listed (docs/formats.md, "Exporting
// a config file"; `breakerlab-cli export --policy`).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/data/config_export.h"
#include "breakerlab/data/config_file.h"

namespace breakerlab {

struct PolicyExport {
  ExportTarget target = ExportTarget::breakerlab_yaml;
  // The file. The source's comments that the export does not write itself follow the export,
  // kept as written, when the target has comments (YAML, Go); in JSON they are listed instead.
  std::string text;
  // Everything of the source the file does not carry, one line each: what the import did not
  // take ("FILE:LINE:COL: ..." for a section, instance or key it does not model), what the
  // translation to the target's library could not carry over ("SETTING: why"), what the target
  // cannot express, and (JSON targets) the source's comments.
  std::vector<std::string> not_carried;
};

// `source` as parseConfigFile read it from `source_text`, written for `library` (the source's own
// library when nullopt; BreakerLab's is BreakerLab YAML). A library's breaker goes to another
// library through the generic machine (translateToLibrary). Only what the source states is
// exported: it is laid over a config with nothing around the breaker (no cache, retries, pool,
// workers), so nothing the source does not say is listed as lost. The breaker keeps the name it was
// read under ("pricing" when the source names none). Throws LoadError when the source does not make
// a valid config.
PolicyExport exportPolicy(const ConfigFile& source, std::string_view source_text,
                          std::optional<BreakerLibrary> library);

}  // namespace breakerlab
