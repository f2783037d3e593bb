// `changes:` of an incident (and of a what-if): timed config changes. Each value of a config key
// is read by the config reader, as a `set:` of a what-if is, so it takes the same units and
// limits; a dependency key's value is a factor within the key's range.
#include "breakerlab/data/values.h"
#include "config_yaml.h"
#include "incident_parts.h"

namespace breakerlab::data_detail {

namespace {
std::vector<YAML::Node> nodesOf(const YAML::Node& node) {
  std::vector<YAML::Node> out{node};
  if (node.IsMap() || node.IsSequence())
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (node.IsMap()) {
        out.push_back(it->first);
        for (const YAML::Node& n : nodesOf(it->second)) out.push_back(n);
      } else {
        for (const YAML::Node& n : nodesOf(*it)) out.push_back(n);
      }
    }
  return out;
}

// The value `value` gives key `key` when set on `base`, read and checked by the config reader;
// a dependency key's factor, within its range (never clamped).
double readEditValue(const Source& src, const MapReader::Entry& entry, const TimedKeyInfo& info,
                     const Config& base, const std::string& path) {
  if (info.onDependency()) return readNumber(src, entry.value, path, info.min, info.max);
  const std::vector<YAML::Node> trusted = nodesOf(entry.value);
  Source vsrc = src;
  vsrc.trusted = &trusted;
  const Position at = positionOf(src, entry.key_node);
  vsrc.fallback_line = at.line;
  vsrc.fallback_column = at.column;
  vsrc.message_prefix = path + ": ";
  YAML::Node tree = toYamlNode(base, true);
  setAtPath(tree, entry.key, entry.value, vsrc, entry.key_node);
  const Config config = readConfigNode(vsrc, tree, "", false);
  validateConfigAt(vsrc, entry.key_node, config);
  return info.get(config);
}
}  // namespace

// Most changes an incident may hold: each costs a config copy per replay.
constexpr std::size_t kMaxChanges = 10'000;

std::string windowBound(Micros t) {
  constexpr Micros kMinute = 60 * kSecond;
  if (t != 0 && t % (60 * kMinute) == 0) return std::to_string(t / (60 * kMinute)) + "h";
  if (t != 0 && t % kMinute == 0) return std::to_string(t / kMinute) + "m";
  return formatDuration(t);
}

std::string windowText(const Source& src, Span window) {
  std::string out = "the window (" + windowBound(window.from) + " to " + windowBound(window.to);
  if (src.clock_start)
    out += ", " + formatClockTime(*src.clock_start + window.from) + " to " +
           formatClockTime(*src.clock_start + window.to);
  return out + ")";
}

std::vector<TimedChange> readChanges(const Source& src, const YAML::Node& node,
                                     const std::string& path, const Config& base,
                                     const DependencyCapacity& capacity, Span window) {
  requireList(src, node, path);
  if (node.size() > kMaxChanges)
    fail(src, node, path + ": at most " + std::to_string(kMaxChanges) + " changes");
  std::vector<TimedChange> out;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const std::string item_path = indexPath(path, i);
    const MapReader m(src, *it, item_path, {"at", "set", "label", "enabled"});
    TimedChange change;
    change.line = positionOf(src, *it).line;
    const YAML::Node& at = m.require("at");
    change.at = readTimePoint(src, at, m.path("at"));
    // Here, at the value, rather than by validate() later, which knows no line.
    if (change.at < window.from || change.at > window.to)
      fail(src, at,
           m.path("at") + ": expected a time within " + windowText(src, window) + ", got " +
               clipText(at.Scalar()));
    if (auto* v = m.find("label")) change.label = readString(src, *v, m.path("label"));
    if (auto* v = m.find("enabled")) change.enabled = readBool(src, *v, m.path("enabled"));
    const YAML::Node& set = m.require("set");
    const auto entries = mapEntries(src, set, m.path("set"));
    if (entries.empty()) failExpected(src, set, m.path("set"), "at least one key to change");
    for (const auto& entry : entries) {
      const std::optional<TimedKey> key = timedKeyFromString(entry.key);
      if (!key)
        fail(src, entry.key_node,
             m.path("set") + ": '" + clipText(entry.key) +
                 "' cannot change during a replay; the keys that can: " + timedKeyList());
      for (const ConfigEdit& e : change.edits)
        if (e.key == *key)
          fail(src, entry.key_node, m.path("set") + ": '" + entry.key + "' is set twice");
      if (*key == TimedKey::dependency_capacity_scale && !capacity.hasCeiling())
        fail(src, entry.key_node, m.path("set") + ": " + std::string(kNoCeilingToScale));
      change.edits.push_back({*key, readEditValue(src, entry, timedKeyInfo(*key), base,
                                                  joinPath(m.path("set"), entry.key))});
    }
    out.push_back(std::move(change));
  }
  return out;
}

}  // namespace breakerlab::data_detail
