#pragma once
// Breaker configs in the form their users already hold: resilience4j application.yml and
// .properties, gobreaker Go source or YAML, Polly appsettings.json, opossum and cockatiel JSON,
// Envoy cluster YAML (docs/formats.md, "Native library configs").
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

// Something of the file the import did not take as it is: a key BreakerLab does not model, a
// value it had to approximate. Line and column are 1-based (0 = unknown).
struct ImportNote {
  int line = 0;
  int column = 0;
  std::string message;
};

// The retry a native file states (resilience4j.retry.instances.NAME), in BreakerLab's terms.
struct NativeRetry {
  std::uint32_t max_attempts = 3;  // including the first
  BackoffKind backoff = BackoffKind::fixed;
  Micros base = 500 * kMillisecond;
  double multiplier = 1.5;
  Micros max = 0;  // 0: no cap
  bool operator==(const NativeRetry&) const = default;
};

// What a native file states around the breaker: resilience4j's TimeLimiter and Retry. Each is
// nullopt when the file does not configure it.
struct NativeCallSettings {
  std::optional<Micros> attempt_timeout;  // resilience4j.timelimiter: timeout.attempt
  std::optional<NativeRetry> retry;
  // With a breaker and a retry in the same file, which wraps which (Spring's aspect order).
  std::optional<BreakerPlacement> placement;
  // An Envoy cluster's circuit_breakers.thresholds[] retry_budget: retry.concurrency_budget.
  std::optional<RetryConcurrencyBudget> retry_budget;
  bool empty() const { return !attempt_timeout && !retry && !placement && !retry_budget; }
  bool operator==(const NativeCallSettings&) const = default;
};

struct NativeConfig {
  BreakerLibrary library = BreakerLibrary::breakerlab;
  std::string file;
  NativeBreakers native;  // the library's settings as read; the others at their defaults
  // False for a file with a time limiter or retry and no breaker (NativeReadOptions).
  bool has_breaker = true;
  NativeCallSettings calls;
  std::vector<ImportNote> notes;
};

struct NativeReadOptions {
  // Take a resilience4j file without a circuitbreaker section when it has a time limiter or a
  // retry (the gate lays such a file over an incident's breaker). Otherwise it is an error.
  bool breaker_optional = false;
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
                               std::optional<BreakerLibrary> library = std::nullopt,
                               NativeReadOptions options = {});
NativeConfig loadNativeConfig(const std::filesystem::path& path,
                              std::optional<BreakerLibrary> library = std::nullopt);

// Makes `config` follow the imported library with the imported settings, and take what the
// file states around the breaker (`calls`: the attempt timeout, the retry's attempts and
// backoff, the placement). A file without a breaker leaves the breaker as it is.
void applyNativeConfig(const NativeConfig& imported, Config& config);

}  // namespace breakerlab
