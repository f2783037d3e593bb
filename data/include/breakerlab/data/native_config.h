#pragma once
// Breaker configs in the form their users already hold: resilience4j application.yml and
// .properties, gobreaker Go source or YAML, Polly appsettings.json, opossum and cockatiel JSON,
// Envoy cluster YAML (docs/formats.md, "Native library configs").
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/config.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

// Something of the file the import did not take as it is: a key BreakerLab does not model, a
// value it had to approximate. Line and column are 1-based (0 = unknown).
struct ImportNote {
  int line = 0;
  int column = 0;
  std::string message;
};

struct NativeConfig {
  BreakerLibrary library = BreakerLibrary::breakerlab;
  std::string file;
  NativeBreakers native;  // the library's settings as read; the others at their defaults
  std::vector<ImportNote> notes;
};

// "FILE:LINE:COLUMN: MESSAGE" (or shorter when the position is unknown).
std::string formatNote(const std::string& file, const ImportNote& note);

// The library a file is for, from its name and contents ("application.yml" with
// resilience4j.circuitbreaker, a .go file with gobreaker.Settings, ...), or nullopt.
std::optional<BreakerLibrary> detectLibrary(std::string_view text, const std::string& file_name);

// Reads a native config of `library` (detected when nullopt). Bad values of keys it knows throw
// LoadError with the position; keys it does not model become notes. The generic BreakerLab
// library is not native: its files are breakerlab-config/1 (config_io.h).
NativeConfig parseNativeConfig(std::string_view text, const std::string& file_name,
                               std::optional<BreakerLibrary> library = std::nullopt);
NativeConfig loadNativeConfig(const std::filesystem::path& path,
                              std::optional<BreakerLibrary> library = std::nullopt);

// Makes `config` follow the imported library with the imported settings.
void applyNativeConfig(const NativeConfig& imported, Config& config);

}  // namespace breakerlab
