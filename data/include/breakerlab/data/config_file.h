#pragma once
// A config file of any format BreakerLab reads (breakerlab-config/1, or a breaker library's own
// file) as a change to an incident's deployed config: what the file states replaces the
// incident's, what it does not state stays as the incident had it (docs/ci-gate.md, "How a
// config file maps onto an incident").
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/data/native_config.h"

namespace breakerlab {

struct ConfigFile {
  std::string file;
  // breakerlab-config/1: the document, laid over each incident's config (overlayConfig).
  bool breakerlab_format = false;
  std::string text;
  std::optional<BreakerLibrary> library;  // breakerlab-config/1: the --library it is replayed with
  // A library's own file: its settings as read, with the import's notes.
  NativeConfig native;

  // "breakerlab-config/1", "resilience4j (Spring Boot application.yml)".
  std::string formatName() const;
};

// Reads a config file: breakerlab-config/1 when the text says so (or `library` is
// BreakerLab's), else a native file of `library` (detected when nullopt), which may hold a
// time limiter or retry without a breaker (NativeReadOptions). A native file's errors are
// thrown here, a breakerlab-config/1 file's when it is laid over a config (applyConfigFile):
// LoadError with the file's name and the position.
ConfigFile parseConfigFile(std::string_view text, const std::string& file_name,
                           std::optional<BreakerLibrary> library = std::nullopt);
ConfigFile loadConfigFile(const std::filesystem::path& path,
                          std::optional<BreakerLibrary> library = std::nullopt);

// `deployed` changed by what the file states:
// - breakerlab-config/1: each key the file states (overlayConfig); `library` then chooses the
//   breaker's rules;
// - a library's own file: its breaker, enabled, with the library's rules and settings, and what
//   the file states around it (resilience4j's time limiter as timeout.attempt, its retry's
//   attempts and backoff, their aspect order as breaker.placement). Pods, pools, workers,
//   traffic and everything else stay the incident's.
// Throws LoadError when the result is not a valid config (a breakerlab-config/1 key that
// contradicts the incident's).
Config applyConfigFile(const ConfigFile& file, const Config& deployed);

}  // namespace breakerlab
