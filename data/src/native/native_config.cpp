// Which native reader a file goes to, and the import's notes.
#include "breakerlab/data/native_config.h"

#include "breakerlab/data/file_io.h"
#include "library_settings.h"
#include "utf8.h"

namespace breakerlab {

using namespace data_detail;

std::string formatNote(const std::string& file, const ImportNote& note) {
  std::string s = file;
  if (note.line > 0) {
    s += ":" + std::to_string(note.line);
    if (note.column > 0) s += ":" + std::to_string(note.column);
  }
  return s + ": " + note.message;
}

namespace {
bool nativeEndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool nativeContains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Reads the properties through their YAML form; positions go back to the properties' lines.
void readResilience4jProperties(std::string_view text, const std::string& file_name,
                                NativeReadOptions options, NativeConfig& out) {
  const PropertiesYaml yaml = propertiesToYaml(text, file_name);
  auto origin = [&](int line, int column) -> std::pair<int, int> {
    if (line < 1 || static_cast<std::size_t>(line) > yaml.origin.size()) return {0, 0};
    const auto& o = yaml.origin[static_cast<std::size_t>(line - 1)];
    return {o.first, o.second + (column > 0 ? 0 : 0)};
  };
  std::vector<ImportNote> notes;
  const Source src{file_name, yaml.text};
  SettingsReader reader(src, &notes);
  try {
    readResilience4jFile(reader, parseYaml(yaml.text, file_name), options, out);
  } catch (const LoadError& e) {
    const auto [l, c] = origin(e.line(), e.column());
    throw LoadError(file_name, l, c, e.message());
  }
  for (ImportNote n : notes) {
    const auto [l, c] = origin(n.line, n.column);
    n.line = l;
    n.column = c;
    out.notes.push_back(std::move(n));
  }
}
}  // namespace

std::optional<BreakerLibrary> detectLibrary(std::string_view text, const std::string& file_name) {
  if (nativeEndsWith(file_name, ".go") || nativeContains(text, "gobreaker.Settings"))
    return BreakerLibrary::gobreaker;
  if (nativeContains(text, "resilience4j")) return BreakerLibrary::resilience4j;
  if (nativeContains(text, "outlier_detection")) return BreakerLibrary::envoy;
  if (nativeContains(text, "halfOpenAfter")) return BreakerLibrary::cockatiel;
  if (nativeContains(text, "errorThresholdPercentage") || nativeContains(text, "resetTimeout") ||
      nativeContains(text, "rollingCountTimeout"))
    return BreakerLibrary::opossum;
  if (nativeContains(text, "FailureRatio") || nativeContains(text, "BreakDuration") ||
      nativeContains(text, "SamplingDuration"))
    return BreakerLibrary::polly;
  if (nativeContains(text, "MaxRequests") || nativeContains(text, "ReadyToTrip"))
    return BreakerLibrary::gobreaker;
  return std::nullopt;
}

NativeConfig parseNativeConfig(std::string_view text, const std::string& file_name,
                               std::optional<BreakerLibrary> library, NativeReadOptions options) {
  // Go files and .properties do not go through parseYaml, which checks this for the others.
  requireUtf8(text, file_name);
  // Nor does yaml-cpp's skipping of a byte-order mark reach them: its first key would be
  // "\xEF\xBB\xBFresilience4j...".
  text = skipUtf8Bom(text);
  if (!library) library = detectLibrary(text, file_name);
  if (!library)
    throw LoadError(file_name, 0, 0,
                    "cannot tell which breaker library this config is for; name it (--library "
                    "resilience4j, gobreaker, polly, opossum, cockatiel or envoy)");
  NativeConfig out;
  out.library = *library;
  out.file = file_name;
  try {
    const Source src{file_name, text};
    SettingsReader reader(src, &out.notes);
    switch (*library) {
      case BreakerLibrary::opossum:
        readOpossumOptions(reader, parseYaml(text, file_name), "", out.native.opossum);
        break;
      case BreakerLibrary::cockatiel:
        readCockatielSettings(reader, parseYaml(text, file_name), "", out.native.cockatiel);
        break;
      case BreakerLibrary::gobreaker:
        if (nativeEndsWith(file_name, ".go") || nativeContains(text, ".Settings{")) {
          readGobreakerGo(src, text, out.native.gobreaker, out.notes);
        } else {
          readGobreakerSettings(reader, parseYaml(text, file_name), "", out.native.gobreaker);
        }
        break;
      case BreakerLibrary::resilience4j:
        if (looksLikeProperties(text, file_name)) {
          readResilience4jProperties(text, file_name, options, out);
        } else {
          readResilience4jFile(reader, parseYaml(text, file_name), options, out);
        }
        break;
      case BreakerLibrary::polly:
        readPollyFile(reader, parseYaml(text, file_name), out.native.polly);
        break;
      case BreakerLibrary::envoy:
        readEnvoyFile(reader, parseYaml(text, file_name), out.native.envoy, out.calls.retry_budget);
        break;
      case BreakerLibrary::breakerlab:
        throw LoadError(file_name, 0, 0,
                        "BreakerLab's own configs are breakerlab-config/1 files, not native ones");
    }
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(file_name, 0, 0, std::string("cannot read the config: ") + e.what());
  }
  return out;
}

NativeConfig loadNativeConfig(const std::filesystem::path& path,
                              std::optional<BreakerLibrary> library) {
  return parseNativeConfig(readTextFile(path), path.string(), library);
}

void applyNativeConfig(const NativeConfig& imported, Config& config) {
  const NativeCallSettings& calls = imported.calls;
  if (calls.attempt_timeout) config.timeout.attempt = *calls.attempt_timeout;
  if (const auto& r = calls.retry) {
    config.retry.max_attempts = r->max_attempts;
    config.retry.backoff = r->backoff;
    config.retry.base = r->base;
    config.retry.multiplier = r->multiplier;
    config.retry.max = r->max;
    // resilience4j waits exactly the interval (a randomized wait is noted and replayed at its
    // mean).
    config.retry.jitter = Jitter::none;
  }
  if (calls.placement) config.breaker.placement = *calls.placement;
  if (calls.retry_budget) config.retry.concurrency_budget = *calls.retry_budget;
  if (!imported.has_breaker) return;
  config.breaker.library = imported.library;
  switch (imported.library) {
    case BreakerLibrary::breakerlab:
      break;
    case BreakerLibrary::resilience4j:
      config.native.resilience4j = imported.native.resilience4j;
      break;
    case BreakerLibrary::gobreaker:
      config.native.gobreaker = imported.native.gobreaker;
      break;
    case BreakerLibrary::polly:
      config.native.polly = imported.native.polly;
      break;
    case BreakerLibrary::opossum:
      config.native.opossum = imported.native.opossum;
      break;
    case BreakerLibrary::cockatiel:
      config.native.cockatiel = imported.native.cockatiel;
      break;
    case BreakerLibrary::envoy:
      config.native.envoy = imported.native.envoy;
      break;
  }
}

}  // namespace breakerlab
