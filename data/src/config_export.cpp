// Config export: BreakerLab YAML, resilience4j (Spring Boot application.yml) and sony/gobreaker
// v2 (Go Settings). The mappings and what each target cannot express are documented in
// docs/formats.md ("Config export"); the library semantics behind them are in the research note
// on breaker libraries (resilience4j 2.4, gobreaker 2.4).
#include "breakerlab/data/config_export.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"
#include "export/export_common.h"

namespace breakerlab {

using namespace export_detail;

BreakerLibrary libraryOf(ExportTarget target) {
  switch (target) {
    case ExportTarget::breakerlab_yaml:
      return BreakerLibrary::breakerlab;
    case ExportTarget::resilience4j:
      return BreakerLibrary::resilience4j;
    case ExportTarget::gobreaker:
      return BreakerLibrary::gobreaker;
    case ExportTarget::polly:
      return BreakerLibrary::polly;
    case ExportTarget::opossum:
      return BreakerLibrary::opossum;
    case ExportTarget::cockatiel:
      return BreakerLibrary::cockatiel;
    case ExportTarget::envoy:
      return BreakerLibrary::envoy;
  }
  return BreakerLibrary::breakerlab;
}

ExportTarget exportTargetOf(BreakerLibrary library) {
  for (ExportTarget t : kExportTargets)
    if (libraryOf(t) == library) return t;
  return ExportTarget::breakerlab_yaml;
}

ExportedConfig exportConfig(const Config& config, ExportTarget target,
                            const std::string& instance_name) {
  checkInstanceName(instance_name);
  if (target == ExportTarget::breakerlab_yaml)
    return {header("#", target, "BreakerLab YAML", {}) + configToYaml(config), {}};
  const BreakerLibrary library = libraryOf(target);
  const BreakerLibrary follows = config.breaker.library;
  if (follows != library && follows != BreakerLibrary::breakerlab)
    throw std::invalid_argument(
        "exportConfig: the breaker follows " + std::string(libraryInfo(follows).title) +
        "; its settings export as " + std::string(displayName(exportTargetOf(follows))) +
        ", not as " + std::string(displayName(target)));
  const bool native = follows == library;
  switch (target) {
    case ExportTarget::resilience4j:
      return native ? exportResilience4jNative(config, instance_name)
                    : exportResilience4jFromGeneric(config, instance_name);
    case ExportTarget::gobreaker:
      return native ? exportGobreakerNative(config, instance_name)
                    : exportGobreakerFromGeneric(config, instance_name);
    case ExportTarget::polly:
      return native ? exportPollyNative(config, instance_name)
                    : exportPollyFromGeneric(config, instance_name);
    case ExportTarget::opossum:
      return native ? exportOpossumNative(config, instance_name)
                    : exportOpossumFromGeneric(config, instance_name);
    case ExportTarget::cockatiel:
      return native ? exportCockatielNative(config, instance_name)
                    : exportCockatielFromGeneric(config, instance_name);
    case ExportTarget::envoy:
      return native ? exportEnvoyNative(config, instance_name)
                    : exportEnvoyFromGeneric(config, instance_name);
    case ExportTarget::breakerlab_yaml:
      break;
  }
  throw std::invalid_argument("exportConfig: unknown target");
}

std::string_view fileSuffix(ExportTarget target) {
  switch (target) {
    case ExportTarget::breakerlab_yaml:
      return ".yaml";
    case ExportTarget::resilience4j:
      return ".yml";
    case ExportTarget::gobreaker:
      return ".go";
    case ExportTarget::polly:
    case ExportTarget::opossum:
    case ExportTarget::cockatiel:
      return ".json";
    case ExportTarget::envoy:
      return ".yaml";
  }
  return "";
}

std::string_view displayName(ExportTarget target) {
  switch (target) {
    case ExportTarget::breakerlab_yaml:
      return "BreakerLab YAML";
    case ExportTarget::resilience4j:
      return "resilience4j (Spring Boot application.yml)";
    case ExportTarget::gobreaker:
      return "gobreaker (Go Settings)";
    case ExportTarget::polly:
      return "Polly (appsettings.json)";
    case ExportTarget::opossum:
      return "opossum (options JSON)";
    case ExportTarget::cockatiel:
      return "cockatiel (options JSON)";
    case ExportTarget::envoy:
      return "Envoy (cluster outlier_detection YAML)";
  }
  return "";
}

}  // namespace breakerlab
