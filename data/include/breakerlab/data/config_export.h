#pragma once
// Config export: a tuned config as the file of the breaker library actually run, saying what
// that library cannot express (docs/formats.md, "Config export").
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

enum class ExportTarget {
  breakerlab_yaml,
  resilience4j,
  gobreaker,
  polly,
  opossum,
  cockatiel,
  envoy
};

inline constexpr std::array<ExportTarget, 7> kExportTargets = {ExportTarget::breakerlab_yaml,
                                                               ExportTarget::resilience4j,
                                                               ExportTarget::gobreaker,
                                                               ExportTarget::polly,
                                                               ExportTarget::opossum,
                                                               ExportTarget::cockatiel,
                                                               ExportTarget::envoy};

// The library a target's file is for (breakerlab for BreakerLab YAML), and back.
BreakerLibrary libraryOf(ExportTarget target);
ExportTarget exportTargetOf(BreakerLibrary library);

struct ExportedConfig {
  // Starts with a comment header: exported by BreakerLab, then one
  // "Not expressible in TARGET: ITEM" line per entry of `not_expressible`, in order.
  std::string text;
  // What the target cannot express (or only with application code), each one line. A knob at
  // its neutral value (early probe off, backoff multiplier 1, slow-call duration 0s, ...) is
  // never listed. Always empty for BreakerLab YAML.
  std::vector<std::string> not_expressible;
};

// `config` should be valid (validate(config) empty). `instance_name` names the breaker in the
// target (resilience4j instance, gobreaker Name); throws std::invalid_argument when empty or
// when it holds a control character.
// - breakerlab_yaml: configToYaml(config) after the header; parseConfig reads it back equal.
// - a library's target, when the breaker follows that library: its settings in the library's
//   own file, lossless (parseNativeConfig reads them back equal); the list names what of the
//   rest of the config (retries, pool, workers, cache) the library does not configure.
// - a library's target, when the breaker is the generic machine: the machine translated, each
//   rule the library cannot express listed with how it was approximated:
//   - resilience4j: a Spring Boot application.yml fragment (resilience4j.circuitbreaker and
//     resilience4j.timelimiter instances), property names of resilience4j 2.x;
//   - gobreaker: a Go file with a function returning sony/gobreaker v2 Settings;
//   - polly: appsettings.json with a CircuitBreaker section; opossum and cockatiel: JSON of
//     their options; envoy: a cluster with outlier_detection.
// - throws std::invalid_argument when the breaker follows another library than the target's.
ExportedConfig exportConfig(const Config& config, ExportTarget target,
                            const std::string& instance_name = "pricing");

// ".yaml", ".yml", ".go".
std::string_view fileSuffix(ExportTarget target);
// "BreakerLab YAML", "resilience4j (Spring Boot application.yml)", "gobreaker (Go Settings)".
std::string_view displayName(ExportTarget target);

}  // namespace breakerlab
