#pragma once
// Internal: reading one library's settings from a YAML (or JSON) map. From a native file, keys
// BreakerLab does not model are noted and skipped; from a breakerlab-config section they are
// errors, like every other unknown key of that format.
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "../yaml_source.h"
#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/data/native_config.h"

namespace breakerlab::data_detail {

class SettingsReader {
 public:
  // `notes` == nullptr: strict (a breakerlab-config section).
  SettingsReader(const Source& src, std::vector<ImportNote>* notes) : src_(src), notes_(notes) {}

  const Source& source() const { return src_; }
  bool strict() const { return notes_ == nullptr; }

  // Runs `handle(key, value, path)` for each entry of the map `node`; a key it returns false
  // for is unknown. `known` lists the keys for the error message of an unknown one.
  void forEach(
      const YAML::Node& node, const std::string& path, const std::vector<std::string_view>& known,
      const std::function<bool(const std::string&, const YAML::Node&, const std::string&)>& handle);

  // Records that `at` was not taken as written (strict: fails with the message).
  void note(const YAML::Node& at, const std::string& message);
  // Records something noteworthy that is never an error (an approximation BreakerLab made).
  void remark(const YAML::Node& at, const std::string& message);

  // Values in a library's own units.
  double number(const YAML::Node& node, const std::string& path, double min, double max) const;
  std::uint32_t whole(const YAML::Node& node, const std::string& path, std::uint32_t min,
                      std::uint32_t max) const;
  bool boolean(const YAML::Node& node, const std::string& path) const;
  std::string text(const YAML::Node& node, const std::string& path) const;
  // A JSON number of milliseconds.
  Micros millis(const YAML::Node& node, const std::string& path, double max_ms) const;
  // A list of BreakerLab outcome classes.
  OutcomeSet outcomes(const YAML::Node& node, const std::string& path) const;

 private:
  const Source& src_;
  std::vector<ImportNote>* notes_;
};

// The `breakerlab: {failures: [...], ignored: [...]}` extension of the JSON formats, which the
// libraries themselves ignore: the classification their code (errorFilter, handleWhen,
// ShouldHandle) would make.
void readClassificationExtension(SettingsReader& r, const YAML::Node& node, const std::string& path,
                                 OutcomeClassification& c);

}  // namespace breakerlab::data_detail
