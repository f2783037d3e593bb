#include "workspace/run_inputs_text.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "breakerlab/data/workspace.h"
#include "json_document.h"

namespace breakerlab::workspace_detail {

namespace {
[[noreturn]] void unreadable(std::string_view where, std::string_view why) {
  throw WorkspaceError(
      WorkspaceError::Kind::corrupt,
      std::string(where) + ": the stored timed changes do not read: " + std::string(why));
}
}  // namespace

std::string changesToJson(const std::vector<TimedChange>& changes) {
  nlohmann::json list = nlohmann::json::array();
  for (const TimedChange& c : changes) {
    nlohmann::json set = nlohmann::json::array();
    for (const ConfigEdit& e : c.edits)
      set.push_back({{"key", std::string(timedKeyInfo(e.key).name)}, {"value", e.value}});
    list.push_back({{"at_us", c.at},
                    {"set", std::move(set)},
                    {"label", c.label},
                    {"enabled", c.enabled},
                    {"line", c.line}});
  }
  return list.dump();
}

std::vector<TimedChange> changesFromJson(std::string_view text, std::string_view where) {
  const auto list = data_detail::parseStoredJson(text);
  if (list.is_discarded() || !list.is_array()) unreadable(where, "not a JSON list");
  std::vector<TimedChange> out;
  for (const auto& item : list) {
    if (!item.is_object() || !item.contains("at_us") || !item["at_us"].is_number_integer() ||
        !item.contains("set") || !item["set"].is_array())
      unreadable(where, "a change without at_us or set");
    TimedChange c;
    c.at = item["at_us"].get<Micros>();
    c.label = item.value("label", std::string());
    c.enabled = item.value("enabled", true);
    c.line = item.value("line", 0);
    for (const auto& e : item["set"]) {
      if (!e.is_object() || !e.contains("key") || !e["key"].is_string() || !e.contains("value") ||
          !e["value"].is_number())
        unreadable(where, "an edit without key or value");
      const auto key = timedKeyFromString(e["key"].get<std::string>());
      if (!key) unreadable(where, "unknown key '" + e["key"].get<std::string>() + "'");
      c.edits.push_back({*key, e["value"].get<double>()});
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string utcNow() {
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[80];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buffer;
}

}  // namespace breakerlab::workspace_detail

namespace breakerlab {

std::string contentHash(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 1099511628211ull;
  }
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

}  // namespace breakerlab
