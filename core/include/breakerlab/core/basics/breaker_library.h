#pragma once
// Whose rules a breaker follows: the generic BreakerLab machine or one library's own state
// machine. The one table of library names that the readers, the CLI, the knob panel and the docs
// use.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace breakerlab {

enum class BreakerLibrary : std::uint8_t {
  breakerlab,
  resilience4j,
  gobreaker,
  polly,
  opossum,
  cockatiel,
  envoy,
};

struct BreakerLibraryInfo {
  BreakerLibrary id;
  std::string_view key;            // --library, breaker.library, file names
  std::string_view title;          // what the workbench shows
  std::string_view version;        // the release whose source the model follows
  std::string_view config_format;  // the native file it reads and writes
};

inline constexpr std::array<BreakerLibraryInfo, 7> kBreakerLibraries = {{
    {BreakerLibrary::breakerlab, "breakerlab", "BreakerLab (generic)", "",
     "breakerlab-config/1 YAML"},
    {BreakerLibrary::resilience4j, "resilience4j", "resilience4j", "2.4.0",
     "Spring Boot application.yml / .properties"},
    {BreakerLibrary::gobreaker, "gobreaker", "gobreaker", "v2.4.0",
     "Go source with a gobreaker.Settings literal, or YAML with its field names"},
    {BreakerLibrary::polly, "polly", "Polly", "8.x", "appsettings.json (CircuitBreaker options)"},
    {BreakerLibrary::opossum, "opossum", "opossum", "10.0.0", "JSON of its options"},
    {BreakerLibrary::cockatiel, "cockatiel", "cockatiel", "4.0.0",
     "JSON mirroring its constructors"},
    {BreakerLibrary::envoy, "envoy", "Envoy outlier detection", "v3 API",
     "cluster YAML (outlier_detection)"},
}};

inline const BreakerLibraryInfo& libraryInfo(BreakerLibrary library) {
  return kBreakerLibraries[static_cast<std::size_t>(library)];
}
inline std::string_view toString(BreakerLibrary library) {
  return libraryInfo(library).key;
}
inline std::optional<BreakerLibrary> breakerLibraryFromString(std::string_view key) {
  for (const auto& info : kBreakerLibraries)
    if (info.key == key) return info.id;
  return std::nullopt;
}

}  // namespace breakerlab
