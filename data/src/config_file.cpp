#include "breakerlab/data/config_file.h"

#include "breakerlab/data/config_export.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"

namespace breakerlab {

std::string ConfigFile::formatName() const {
  if (breakerlab_format) return std::string(kConfigFormat);
  return std::string(displayName(exportTargetOf(native.library)));
}

ConfigFile parseConfigFile(std::string_view text, const std::string& file_name,
                           std::optional<BreakerLibrary> library) {
  ConfigFile out;
  out.file = file_name;
  // A breakerlab-config/1 file may choose a library and hold its settings itself.
  if (text.find(kConfigFormat) != std::string_view::npos || library == BreakerLibrary::breakerlab) {
    out.breakerlab_format = true;
    out.text = std::string(text);
    out.library = library;
    return out;
  }
  out.native = parseNativeConfig(text, file_name, library, NativeReadOptions{true});
  return out;
}

ConfigFile loadConfigFile(const std::filesystem::path& path,
                          std::optional<BreakerLibrary> library) {
  return parseConfigFile(readTextFile(path), path.string(), library);
}

Config applyConfigFile(const ConfigFile& file, const Config& deployed) {
  if (file.breakerlab_format) {
    Config config = overlayConfig(deployed, file.text, file.file);
    if (file.library) config.breaker.library = *file.library;
    return config;
  }
  Config config = deployed;
  applyNativeConfig(file.native, config);
  // The file configures a breaker around the call: the service has one.
  if (file.native.has_breaker) config.breaker.enabled = true;
  if (const std::string problem = validate(config); !problem.empty())
    throw LoadError(file.file, 0, 0, "on the incident's config: " + problem);
  return config;
}

}  // namespace breakerlab
