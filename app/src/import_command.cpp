// `breakerlab-cli import DOCUMENT`: a postmortem (or any document BreakerLab opens) made into a
// breakerlab/1 incident, with the import report.
#include <iostream>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "commands.h"

namespace breakerlab::cli {

int runImport(const ImportCommandOptions& o, std::ostream& out) {
  ImportOptions options;
  options.calibrate = !o.no_calibrate;
  if (!o.states.empty()) options.states = parseStateTable(readTextFile(o.states), o.states);
  const ImportedIncident imported = openIncidentFile(o.document, options);
  const std::vector<std::string> report = imported.report.lines();
  if (o.output.empty()) {
    out << incidentToYaml(imported.incident, report);
  } else {
    writeFileAtomically(o.output, incidentToYaml(imported.incident, report));
    for (const std::string& line : report) out << line << '\n';
    out << "wrote " << o.output << '\n';
  }
  return kExitOk;
}

}  // namespace breakerlab::cli
