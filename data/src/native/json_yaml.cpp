#include <cmath>

#include "breakerlab/data/values.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

YAML::Node jsonToYaml(const ordered_json& j) {
  if (j.is_object()) {
    YAML::Node map(YAML::NodeType::Map);
    for (const auto& [key, value] : j.items()) map[key] = jsonToYaml(value);
    return map;
  }
  if (j.is_array()) {
    YAML::Node list(YAML::NodeType::Sequence);
    list.SetStyle(YAML::EmitterStyle::Flow);
    for (const auto& value : j) list.push_back(jsonToYaml(value));
    return list;
  }
  if (j.is_boolean()) return YAML::Node(j.get<bool>() ? "true" : "false");
  if (j.is_number_integer()) return YAML::Node(std::to_string(j.get<std::int64_t>()));
  if (j.is_number_unsigned()) return YAML::Node(std::to_string(j.get<std::uint64_t>()));
  if (j.is_number_float()) return YAML::Node(formatNumber(j.get<double>()));
  if (j.is_string()) return YAML::Node(j.get<std::string>());
  return YAML::Node(YAML::NodeType::Null);
}

}  // namespace breakerlab::data_detail
