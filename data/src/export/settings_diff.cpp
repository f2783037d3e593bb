#include "breakerlab/data/settings_diff.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace breakerlab {

namespace {

std::string joinPath(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

// The export's notes to itself, which the report lists apart from the settings.
bool isBookkeeping(const std::string& path) {
  const auto ends = [&](std::string_view tail) {
    return path.size() >= tail.size() &&
           path.compare(path.size() - tail.size(), tail.size(), tail.data(), tail.size()) == 0;
  };
  return ends("breakerlab.exported_by") || ends("breakerlab.not_expressible");
}

void flattenYaml(const YAML::Node& node, const std::string& path,
                 std::vector<ExportedSetting>& out) {
  if (isBookkeeping(path)) return;
  if (node.IsMap()) {
    for (const auto& entry : node)
      flattenYaml(entry.second, joinPath(path, entry.first.Scalar()), out);
    return;
  }
  if (node.IsSequence()) {
    const bool scalars =
        std::all_of(node.begin(), node.end(), [](const YAML::Node& n) { return n.IsScalar(); });
    if (scalars) {
      std::string list = "[";
      for (const auto& item : node) list += (list.size() > 1 ? ", " : "") + item.Scalar();
      out.push_back({path, list + "]"});
      return;
    }
    std::size_t i = 0;
    for (const auto& item : node) flattenYaml(item, path + "[" + std::to_string(i++) + "]", out);
    return;
  }
  out.push_back({path, node.IsNull() ? std::string("null") : node.Scalar()});
}

void flattenJson(const nlohmann::ordered_json& node, const std::string& path,
                 std::vector<ExportedSetting>& out) {
  if (isBookkeeping(path)) return;
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) flattenJson(value, joinPath(path, key), out);
    return;
  }
  if (node.is_array()) {
    const bool scalars =
        std::all_of(node.begin(), node.end(), [](const auto& n) { return n.is_primitive(); });
    if (scalars) {
      std::string list = "[";
      for (const auto& item : node)
        list += (list.size() > 1 ? ", " : "") +
                (item.is_string() ? item.template get<std::string>() : item.dump());
      out.push_back({path, list + "]"});
      return;
    }
    std::size_t i = 0;
    for (const auto& item : node) flattenJson(item, path + "[" + std::to_string(i++) + "]", out);
    return;
  }
  out.push_back({path, node.is_string() ? node.get<std::string>() : node.dump()});
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A field line's value without its trailing comma and comment: "20 * time.Second".
std::string goValue(std::string_view value) {
  if (const auto comment = value.find("//"); comment != std::string_view::npos)
    value = value.substr(0, comment);
  value = trimmed(value);
  if (!value.empty() && value.back() == ',') value.remove_suffix(1);
  return std::string(trimmed(value));
}

std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

// The gobreaker export's Settings literal, one field a line ("Key: value,") or a func field
// spanning lines up to its closing "},".
std::vector<ExportedSetting> goSettings(std::string_view text) {
  std::vector<ExportedSetting> out;
  bool inside = false;
  std::string func_key, func_body;
  for (std::string_view raw : lines(text)) {
    const std::string_view line = trimmed(raw);
    if (!inside) {
      constexpr std::string_view kMarker = "// breakerlab:";
      if (line.starts_with(kMarker)) {
        const std::string_view rest = line.substr(kMarker.size());
        const auto eq = rest.find('=');
        if (eq != std::string_view::npos)
          out.push_back(
              {"breakerlab:" + std::string(rest.substr(0, eq)), std::string(rest.substr(eq + 1))});
      }
      if (line.find("gobreaker.Settings{") != std::string_view::npos && line.starts_with("return"))
        inside = true;
      continue;
    }
    if (!func_key.empty()) {
      if (line == "},") {
        out.push_back({func_key, func_body});
        func_key.clear();
        func_body.clear();
      } else if (!line.starts_with("//") && !line.empty()) {
        func_body += (func_body.empty() ? "" : "; ") + std::string(line);
      }
      continue;
    }
    if (line == "}") break;  // the end of the literal
    if (line.empty() || line.starts_with("//")) continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos)
      throw std::invalid_argument("exportedSettings: not a Settings field: " + std::string(line));
    const std::string key(trimmed(line.substr(0, colon)));
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (value.starts_with("func(")) {
      func_key = key;
    } else {
      out.push_back({key, goValue(value)});
    }
  }
  if (!inside) throw std::invalid_argument("exportedSettings: no gobreaker.Settings literal");
  return out;
}

}  // namespace

std::vector<ExportedSetting> exportedSettings(const ExportedConfig& exported, ExportTarget target) {
  std::vector<ExportedSetting> out;
  switch (target) {
    case ExportTarget::breakerlab_yaml:
    case ExportTarget::resilience4j:
    case ExportTarget::envoy:
      try {
        flattenYaml(YAML::Load(exported.text), "", out);
      } catch (const YAML::Exception& e) {
        throw std::invalid_argument(std::string("exportedSettings: ") + e.what());
      }
      return out;
    case ExportTarget::polly:
    case ExportTarget::opossum:
    case ExportTarget::cockatiel:
      try {
        flattenJson(nlohmann::ordered_json::parse(exported.text), "", out);
      } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("exportedSettings: ") + e.what());
      }
      return out;
    case ExportTarget::gobreaker:
      return goSettings(exported.text);
  }
  throw std::invalid_argument("exportedSettings: unknown target");
}

std::vector<SettingChange> diffSettings(const std::vector<ExportedSetting>& before,
                                        const std::vector<ExportedSetting>& after) {
  const auto find = [](const std::vector<ExportedSetting>& in, const std::string& key) {
    return std::find_if(in.begin(), in.end(),
                        [&](const ExportedSetting& s) { return s.key == key; });
  };
  std::vector<SettingChange> changes;
  for (const ExportedSetting& now : after) {
    const auto was = find(before, now.key);
    if (was == before.end()) {
      changes.push_back({now.key, "", now.value});
    } else if (was->value != now.value) {
      changes.push_back({now.key, was->value, now.value});
    }
  }
  for (const ExportedSetting& was : before)
    if (find(after, was.key) == after.end()) changes.push_back({was.key, was.value, ""});
  return changes;
}

}  // namespace breakerlab
