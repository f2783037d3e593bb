// `breakerlab-cli import DOCUMENT`: a postmortem (or any document BreakerLab opens) made into a
// breakerlab/1 incident, with the import report.
#include <iostream>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/output_file.h"
#include "commands.h"
#include "import_progress.h"

namespace breakerlab::cli {

int runImport(const ImportCommandOptions& o, std::ostream& out) {
  ImportOptions options;
  options.calibrate = !o.no_calibrate;
  if (!o.states.empty()) options.states = parseStateTable(readTextFile(o.states), o.states);
  applyRequestLogOptions(options, o.map, o.config_file);
  options.trace_dependency = o.trace_dependency;
  ImportedIncident imported = openWithProgress(o.document, options);
  // A request log stays where it is; the incident file points at it from where it is written.
  std::string& log_file = imported.incident.dependency.calls_source.file;
  if (!log_file.empty()) {
    const std::filesystem::path log = std::filesystem::absolute(log_file);
    log_file = o.output.empty() ? log.string()
                                : std::filesystem::relative(
                                      log, std::filesystem::absolute(o.output).parent_path())
                                      .string();
  }
  const std::vector<std::string> report = imported.report.lines();
  if (o.output.empty()) {
    out << incidentToYaml(imported.incident, report);
  } else {
    writeOutputFile(o.output, incidentToYaml(imported.incident, report));
    for (const std::string& line : report) out << line << '\n';
    out << "wrote " << o.output << '\n';
  }
  return kExitOk;
}

}  // namespace breakerlab::cli
