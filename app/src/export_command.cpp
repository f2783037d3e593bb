// `breakerlab-cli export --policy FILE [--library NAME] -o OUT`: a config of any format in a
// library's own form (exportPolicy), with what it does not carry on stderr.
#include <iostream>
#include <ostream>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/policy_export.h"
#include "commands.h"

namespace breakerlab::cli {

int runExport(const ExportOptions& options, std::ostream& out) {
  const std::optional<BreakerLibrary> library = libraryOption(options.library);
  const std::string text = readTextFile(options.policy);
  // The file's own library reads it: --library only chooses what it is written as.
  const ConfigFile source = parseConfigFile(text, options.policy);
  if (!source.breakerlab_format && !source.native.has_breaker)
    throw LoadError(options.policy, 0, 0,
                    "resilience4j: no circuitbreaker section (resilience4j.circuitbreaker): "
                    "there is no breaker to export");
  const PolicyExport exported = exportPolicy(source, text, library);
  writeOutputFile(options.output, exported.text);
  for (const std::string& item : exported.not_carried)
    std::cerr << "breakerlab-cli: not carried: " << item << '\n';
  out << "Wrote " << options.output << " as " << displayName(exported.target) << "; "
      << exported.not_carried.size() << (exported.not_carried.size() == 1 ? " thing" : " things")
      << " of the policy not carried (listed on stderr)\n";
  return kExitOk;
}

}  // namespace breakerlab::cli
