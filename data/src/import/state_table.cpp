#include "breakerlab/data/state_table.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdio>

#include "../yaml_source.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80) {
      current += static_cast<char>(std::tolower(u));
    } else if (!current.empty()) {
      out.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

// Every word of `phrase`, in order and next to each other, among `state`.
bool phraseIn(const std::vector<std::string>& state, const std::vector<std::string>& phrase) {
  if (phrase.empty() || phrase.size() > state.size()) return false;
  for (std::size_t i = 0; i + phrase.size() <= state.size(); ++i) {
    bool all = true;
    for (std::size_t k = 0; k < phrase.size() && all; ++k) all = state[i + k] == phrase[k];
    if (all) return true;
  }
  return false;
}

LatencyModel lognormal(Micros p50, Micros p99) {
  return {LatencyModel::Kind::lognormal, p50, p99};
}

constexpr Micros ms = kMillisecond;

std::string_view fittedName(StateBehaviour::Fitted f) {
  switch (f) {
    case StateBehaviour::Fitted::none:
      return "none";
    case StateBehaviour::Fitted::timeout:
      return "timeout";
    case StateBehaviour::Fitted::refused:
      return "refused";
    case StateBehaviour::Fitted::server_error:
      return "server_error";
  }
  return "none";
}

}  // namespace

const StateBehaviour* StateTable::match(std::string_view state) const {
  const std::vector<std::string> w = words(state);
  for (const StateBehaviour& row : rows)
    for (const std::string& phrase : row.match)
      if (phraseIn(w, words(phrase))) return &row;
  return nullptr;
}

StateTable StateTable::defaults() {
  const LatencyModel healthy_latency = lognormal(25 * ms, 120 * ms);
  StateTable t;
  // Order matters: the first row that matches wins, so the specific rows come first
  // ("unhealthy" must not read as "healthy": phrases match whole words).
  {
    StateBehaviour r;
    r.name = "connection refused";
    r.match = {"refused",  "refusing",    "connection refused",
               "down",     "unavailable", "unreachable",
               "failover", "outage",      "dead"};
    r.latency = healthy_latency;
    r.outcomes.refused = 1;
    t.rows.push_back(r);
  }
  {
    StateBehaviour r;
    r.name = "timing out";
    r.match = {"timing out", "timeout", "timeouts",     "timed out",
               "hang",       "hanging", "unresponsive", "stuck"};
    r.latency = healthy_latency;
    r.outcomes.timeout = 1;
    r.fitted = StateBehaviour::Fitted::timeout;
    t.rows.push_back(r);
  }
  {
    StateBehaviour r;
    r.name = "warming pool";
    r.match = {"warming", "warming pool", "warm up", "warmup", "cold", "recovering", "restarting"};
    r.latency = lognormal(300 * ms, 1500 * ms);
    r.outcomes.refused = 0.5;
    t.rows.push_back(r);
  }
  {
    StateBehaviour r;
    r.name = "degraded";
    r.match = {"degraded", "erroring", "errors",    "error",     "5xx",    "500",
               "503",      "failing",  "unhealthy", "exhausted", "partial"};
    r.latency = healthy_latency;
    r.outcomes.server_error = 0.5;
    r.fitted = StateBehaviour::Fitted::server_error;
    t.rows.push_back(r);
  }
  {
    StateBehaviour r;
    r.name = "slow";
    r.match = {"slow",      "slowdown",   "latency",  "p95",     "p99",
               "saturated", "overloaded", "queueing", "queuing", "backlog"};
    r.latency = lognormal(2000 * ms, 8000 * ms);
    t.rows.push_back(r);
  }
  {
    StateBehaviour r;
    r.name = "healthy";
    r.match = {"healthy", "ok",       "back up", "is up", "normal",  "green",   "recovered",
               "recover", "recovers", "fine",    "fresh", "nominal", "resolved"};
    r.health = Health::green;
    r.latency = healthy_latency;
    t.rows.push_back(r);
  }
  return t;
}

std::string stateTableToYaml(const StateTable& table) {
  YAML::Node root(YAML::NodeType::Map);
  root["format"] = "breakerlab-states/1";
  YAML::Node rows(YAML::NodeType::Sequence);
  for (const StateBehaviour& r : table.rows) {
    YAML::Node n(YAML::NodeType::Map);
    n["state"] = r.name;
    YAML::Node match(YAML::NodeType::Sequence);
    match.SetStyle(YAML::EmitterStyle::Flow);
    for (const auto& m : r.match) match.push_back(m);
    n["match"] = match;
    n["health"] = std::string(r.health == Health::green ? "green" : "red");
    YAML::Node latency(YAML::NodeType::Map);
    latency.SetStyle(YAML::EmitterStyle::Flow);
    latency["p50"] = formatDuration(r.latency.p50);
    latency["p99"] = formatDuration(r.latency.p99);
    n["latency"] = latency;
    YAML::Node outcomes(YAML::NodeType::Map);
    outcomes.SetStyle(YAML::EmitterStyle::Flow);
    outcomes["timeout"] = formatPercent(r.outcomes.timeout * 100);
    outcomes["refused"] = formatPercent(r.outcomes.refused * 100);
    outcomes["server_error"] = formatPercent(r.outcomes.server_error * 100);
    n["outcomes"] = outcomes;
    n["refused_latency"] = formatDuration(r.refused_latency);
    n["fitted"] = std::string(fittedName(r.fitted));
    rows.push_back(n);
  }
  root["states"] = rows;
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

StateTable parseStateTable(std::string_view text, const std::string& file_name) {
  using namespace data_detail;
  const YAML::Node root = parseYaml(text, file_name);
  const Source src{file_name, text};
  const MapReader top(src, root, "", {"format", "states"});
  const YAML::Node& format = top.require("format");
  if (!format.IsScalar() || format.Scalar() != "breakerlab-states/1")
    failExpected(src, format, "format", "\"breakerlab-states/1\"");
  const YAML::Node& list = top.require("states");
  requireList(src, list, "states");
  StateTable table;
  std::size_t i = 0;
  for (auto it = list.begin(); it != list.end(); ++it, ++i) {
    const std::string path = indexPath("states", i);
    const MapReader m(
        src, *it, path,
        {"state", "match", "health", "latency", "outcomes", "refused_latency", "fitted"});
    StateBehaviour r;
    // State names and match words are words of a document's lines: a control character (a CR,
    // a tab) is never in one, and a written table could not give it back (fuzz_state_table).
    auto readWord = [&](const YAML::Node& node, const std::string& at) {
      std::string word = readString(src, node, at);
      for (const char c : word) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
          char code[8];
          std::snprintf(code, sizeof code, "0x%02X", u);
          fail(src, node,
               at + ": a control character (" + code +
                   ") in a state name; state names and match words are words of the document");
        }
      }
      return word;
    };
    r.name = readWord(m.require("state"), m.path("state"));
    if (auto* v = m.find("match")) {
      requireList(src, *v, m.path("match"));
      std::size_t k = 0;
      for (auto x = v->begin(); x != v->end(); ++x, ++k)
        r.match.push_back(readWord(*x, indexPath(m.path("match"), k)));
    }
    if (r.match.empty()) r.match.push_back(r.name);
    if (auto* v = m.find("health"))
      r.health = readEnum<Health>(src, *v, m.path("health"),
                                  {{"green", Health::green}, {"red", Health::red}});
    if (auto* v = m.find("latency")) {
      const MapReader l(src, *v, m.path("latency"), {"p50", "p99"});
      r.latency.kind = LatencyModel::Kind::lognormal;
      r.latency.p50 = readDuration(src, l.require("p50"), l.path("p50"));
      r.latency.p99 = readDuration(src, l.require("p99"), l.path("p99"));
      if (r.latency.p99 < r.latency.p50)
        fail(src, l.require("p99"), l.path("p99") + ": must be at least p50");
    }
    if (auto* v = m.find("outcomes")) {
      const MapReader o(src, *v, m.path("outcomes"), {"timeout", "refused", "server_error"});
      auto read = [&](std::string_view key, double& out) {
        if (auto* x = o.find(key)) out = readPercent(src, *x, o.path(key)) / 100.0;
      };
      read("timeout", r.outcomes.timeout);
      read("refused", r.outcomes.refused);
      read("server_error", r.outcomes.server_error);
      if (r.outcomes.total() > 1 + 1e-9)
        fail(src, *v, m.path("outcomes") + ": the outcomes add up to more than 100%");
    }
    if (auto* v = m.find("refused_latency"))
      r.refused_latency = readDuration(src, *v, m.path("refused_latency"));
    if (auto* v = m.find("fitted"))
      r.fitted = readEnum<StateBehaviour::Fitted>(
          src, *v, m.path("fitted"),
          {{"none", StateBehaviour::Fitted::none},
           {"timeout", StateBehaviour::Fitted::timeout},
           {"refused", StateBehaviour::Fitted::refused},
           {"server_error", StateBehaviour::Fitted::server_error}});
    table.rows.push_back(std::move(r));
  }
  return table;
}

}  // namespace breakerlab
