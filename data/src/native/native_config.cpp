// Which native reader a file goes to, and the import's notes.
#include "breakerlab/data/native_config.h"

#include "breakerlab/data/file_io.h"
#include "library_settings.h"

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
bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}
}  // namespace

std::optional<BreakerLibrary> detectLibrary(std::string_view text, const std::string& file_name) {
  if (endsWith(file_name, ".go") || contains(text, "gobreaker.Settings"))
    return BreakerLibrary::gobreaker;
  if (contains(text, "resilience4j")) return BreakerLibrary::resilience4j;
  if (contains(text, "outlier_detection")) return BreakerLibrary::envoy;
  if (contains(text, "halfOpenAfter")) return BreakerLibrary::cockatiel;
  if (contains(text, "errorThresholdPercentage") || contains(text, "resetTimeout") ||
      contains(text, "rollingCountTimeout"))
    return BreakerLibrary::opossum;
  if (contains(text, "FailureRatio") || contains(text, "BreakDuration") ||
      contains(text, "SamplingDuration"))
    return BreakerLibrary::polly;
  if (contains(text, "MaxRequests") || contains(text, "ReadyToTrip"))
    return BreakerLibrary::gobreaker;
  return std::nullopt;
}

NativeConfig parseNativeConfig(std::string_view text, const std::string& file_name,
                               std::optional<BreakerLibrary> library) {
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
        if (endsWith(file_name, ".go") || contains(text, ".Settings{")) {
          readGobreakerGo(src, text, out.native.gobreaker, out.notes);
        } else {
          readGobreakerSettings(reader, parseYaml(text, file_name), "", out.native.gobreaker);
        }
        break;
      case BreakerLibrary::breakerlab:
        throw LoadError(file_name, 0, 0,
                        "BreakerLab's own configs are breakerlab-config/1 files, not native ones");
      default:
        throw LoadError(file_name, 0, 0,
                        std::string(toString(*library)) + " configs are not read yet");
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
