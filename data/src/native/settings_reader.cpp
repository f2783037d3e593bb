#include "settings_reader.h"

#include <cmath>

namespace breakerlab::data_detail {

void SettingsReader::forEach(
    const YAML::Node& node, const std::string& path, const std::vector<std::string_view>& known,
    const std::function<bool(const std::string&, const YAML::Node&, const std::string&)>& handle) {
  for (const auto& entry : mapEntries(src_, node, path)) {
    const std::string entry_path = joinPath(path, entry.key);
    if (handle(entry.key, entry.value, entry_path)) continue;
    if (strict()) {
      fail(src_, entry.key_node,
           "unknown key '" + clipText(entry.key) + "'" + (path.empty() ? "" : " under " + path) +
               ", expected one of " + joinNames(known));
    }
    note(entry.key_node, entry_path + ": not a setting BreakerLab models; ignored");
  }
}

void SettingsReader::note(const YAML::Node& at, const std::string& message) {
  if (strict()) fail(src_, at, message);
  remark(at, message);
}

void SettingsReader::remark(const YAML::Node& at, const std::string& message) {
  if (notes_ == nullptr) return;
  const Position p = positionOf(src_, at);
  notes_->push_back({p.line, p.column, message});
}

double SettingsReader::number(const YAML::Node& node, const std::string& path, double min,
                              double max) const {
  return readNumber(src_, node, path, min, max);
}

std::uint32_t SettingsReader::whole(const YAML::Node& node, const std::string& path,
                                    std::uint32_t min, std::uint32_t max) const {
  const double v = readNumber(src_, node, path, min, max);
  if (v != std::floor(v))
    failExpected(src_, node, path,
                 "a whole number from " + std::to_string(min) + " to " + std::to_string(max));
  return static_cast<std::uint32_t>(v);
}

bool SettingsReader::boolean(const YAML::Node& node, const std::string& path) const {
  return readBool(src_, node, path);
}

std::string SettingsReader::text(const YAML::Node& node, const std::string& path) const {
  return readString(src_, node, path);
}

Micros SettingsReader::millis(const YAML::Node& node, const std::string& path,
                              double max_ms) const {
  const double ms = readNumber(src_, node, path, 0.0, max_ms);
  return static_cast<Micros>(std::llround(ms * kMillisecond));
}

OutcomeSet SettingsReader::outcomes(const YAML::Node& node, const std::string& path) const {
  requireList(src_, node, path);
  OutcomeSet set;
  std::vector<std::string_view> names;
  for (int i = 0; i < kCallOutcomeCount; ++i)
    names.push_back(toString(static_cast<CallOutcome>(i)));
  for (std::size_t i = 0; i < node.size(); ++i) {
    const YAML::Node item = node[i];
    const std::string item_path = indexPath(path, i);
    const auto o = item.IsScalar() ? callOutcomeFromString(item.Scalar()) : std::nullopt;
    if (!o) failExpected(src_, item, item_path, "one of " + joinNames(names));
    if (set.contains(*o)) fail(src_, item, item_path + ": " + item.Scalar() + " is listed twice");
    set.insert(*o);
  }
  return set;
}

void readClassificationExtension(SettingsReader& r, const YAML::Node& node, const std::string& path,
                                 OutcomeClassification& c) {
  r.forEach(node, path, {"failures", "ignored", "exported_by", "not_expressible"},
            [&](const std::string& key, const YAML::Node& v, const std::string& p) {
              if (key == "exported_by" || key == "not_expressible") {
                // BreakerLab's own export header: nothing to replay.
              } else if (key == "failures") {
                c.failures = r.outcomes(v, p);
              } else if (key == "ignored") {
                c.ignored = r.outcomes(v, p);
              } else {
                return false;
              }
              return true;
            });
  if (c.failures.contains(CallOutcome::success) || c.ignored.contains(CallOutcome::success))
    fail(r.source(), node, path + ": success is always a success");
}

}  // namespace breakerlab::data_detail
