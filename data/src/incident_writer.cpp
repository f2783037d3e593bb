// Incident -> breakerlab/1 YAML: what an import produced, saved as a file BreakerLab reads back
// to the same incident (parseIncident(incidentToYaml(i)) == i for every valid i).
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <map>
#include <sstream>

#include "breakerlab/data/incident_io.h"

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/data/values.h"
#include "config_yaml.h"

namespace breakerlab {
namespace data_detail {
namespace {

YAML::Node incidentFlowMap() {
  YAML::Node n(YAML::NodeType::Map);
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

std::string timePoint(Micros t) {
  return t < 0 ? "-" + formatDuration(-t) : formatDuration(t);
}

// A share (0..1) as a percentage that reads back as the same double.
std::string share(double x) {
  std::string text = formatPercent(x * 100);
  if (auto back = parsePercent(text); back && *back / 100.0 == x) return text;
  // x * 100 / 100 does not always round-trip: print enough digits that it does.
  for (int digits = 6; digits <= 17; ++digits) {
    std::ostringstream s;
    s.precision(digits);
    s << x * 100;
    const std::string candidate = s.str() + "%";
    if (auto back = parsePercent(candidate); back && *back / 100.0 == x) return candidate;
  }
  return text;
}

YAML::Node latencyNode(const LatencyModel& l) {
  YAML::Node n = incidentFlowMap();
  switch (l.kind) {
    case LatencyModel::Kind::fixed:
      n["fixed"] = formatDuration(l.p50);
      break;
    case LatencyModel::Kind::lognormal:
      n["p50"] = formatDuration(l.p50);
      n["p99"] = formatDuration(l.p99);
      break;
    case LatencyModel::Kind::exponential:
      n["mean"] = formatDuration(l.p50);
      break;
  }
  return n;
}

YAML::Node mixNode(const OutcomeMix& m) {
  YAML::Node n = incidentFlowMap();
  if (m.timeout != 0) n["timeout"] = share(m.timeout);
  if (m.refused != 0) n["refused"] = share(m.refused);
  if (m.server_error != 0) n["server_error"] = share(m.server_error);
  if (m.client_error != 0) n["client_error"] = share(m.client_error);
  return n;
}

YAML::Node trafficNode(const Traffic& t, bool times_from_log) {
  YAML::Node n(YAML::NodeType::Map);
  n["arrivals"] = std::string(t.arrivals == ArrivalProcess::uniform   ? "uniform"
                              : t.arrivals == ArrivalProcess::poisson ? "poisson"
                                                                      : "recorded");
  if (t.arrivals == ArrivalProcess::recorded && times_from_log) {
    // The arrivals are those of dependency.recorded_calls.
  } else if (t.arrivals == ArrivalProcess::recorded) {
    YAML::Node times(YAML::NodeType::Sequence);
    times.SetStyle(YAML::EmitterStyle::Flow);
    for (Micros at : t.recorded) times.push_back(timePoint(at));
    n["times"] = times;
  } else {
    YAML::Node rate(YAML::NodeType::Sequence);
    for (const RatePiece& p : t.rate) {
      YAML::Node piece = incidentFlowMap();
      piece["from"] = timePoint(p.from);
      piece["to"] = timePoint(p.to);
      piece["rps"] = formatNumber(p.rps_from);
      if (p.rps_to != p.rps_from) piece["to_rps"] = formatNumber(p.rps_to);
      rate.push_back(piece);
    }
    n["rate"] = rate;
  }
  YAML::Node keys = incidentFlowMap();
  keys["count"] = std::to_string(t.keys.count);
  keys["zipf"] = formatNumber(t.keys.zipf);
  n["keys"] = keys;
  n["lead_in"] = formatDuration(t.lead_in);
  return n;
}

YAML::Node dependencyNode(const Dependency& d) {
  YAML::Node n(YAML::NodeType::Map);
  n["name"] = d.name;
  if (d.calls != nullptr) {
    YAML::Node calls = incidentFlowMap();
    calls["file"] = d.calls_source.file;
    calls["format"] = d.calls_source.format;
    if (!d.calls_source.mapping.empty()) calls["map"] = d.calls_source.mapping;
    n["recorded_calls"] = calls;
  }
  const DependencyCapacity defaults;
  if (d.capacity.concurrency != defaults.concurrency ||
      d.capacity.discipline != defaults.discipline) {
    YAML::Node c = incidentFlowMap();
    c["concurrency"] = std::to_string(d.capacity.concurrency);
    static constexpr const char* kDiscipline[] = {"queue", "share", "load"};
    c["discipline"] = std::string(kDiscipline[static_cast<int>(d.capacity.discipline)]);
    if (d.capacity.per_call > 0) c["per_call"] = formatDuration(d.capacity.per_call);
    c["queue_timeout"] = formatDuration(d.capacity.queue_timeout);
    c["keeps_working"] = d.capacity.keeps_working ? "true" : "false";
    n["capacity"] = c;
  }
  YAML::Node segments(YAML::NodeType::Sequence);
  for (const DependencySegment& s : d.segments) {
    YAML::Node seg(YAML::NodeType::Map);
    seg["state"] = s.state;
    seg["from"] = timePoint(s.from);
    seg["to"] = timePoint(s.to);
    seg["health"] = std::string(s.health == Health::green ? "green" : "red");
    seg["latency"] = latencyNode(s.latency_start);
    if (s.mix_start.total() > 0) seg["outcomes"] = mixNode(s.mix_start);
    seg["refused_latency"] = formatDuration(s.refused_latency);
    if (s.retry_correlation != 0) seg["retry_correlation"] = share(s.retry_correlation);
    const bool latency_ramps =
        !(s.latency_end.p50 == s.latency_start.p50 && s.latency_end.p99 == s.latency_start.p99);
    const bool mix_ramps =
        !(s.mix_end.timeout == s.mix_start.timeout && s.mix_end.refused == s.mix_start.refused &&
          s.mix_end.server_error == s.mix_start.server_error &&
          s.mix_end.client_error == s.mix_start.client_error);
    if (latency_ramps || mix_ramps) {
      YAML::Node ramp(YAML::NodeType::Map);
      if (latency_ramps) ramp["latency"] = latencyNode(s.latency_end);
      if (mix_ramps) {
        // ramp_to.outcomes starts from the start mix: every class is written so that a class
        // falling to 0 is said.
        YAML::Node end = incidentFlowMap();
        end["timeout"] = share(s.mix_end.timeout);
        end["refused"] = share(s.mix_end.refused);
        end["server_error"] = share(s.mix_end.server_error);
        end["client_error"] = share(s.mix_end.client_error);
        ramp["outcomes"] = end;
      }
      seg["ramp_to"] = ramp;
    }
    segments.push_back(seg);
  }
  n["segments"] = segments;
  YAML::Node health(YAML::NodeType::Sequence);
  for (const HealthSpan& h : d.health) {
    YAML::Node span = incidentFlowMap();
    span["from"] = timePoint(h.from);
    span["to"] = timePoint(h.to);
    span["state"] = std::string(h.health == Health::green ? "green" : "red");
    health.push_back(span);
  }
  n["health"] = health;
  return n;
}

YAML::Node laneNode(const Lane& lane) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (const LaneInterval& i : lane.intervals) {
    YAML::Node item = incidentFlowMap();
    item["state"] = i.state;
    if (!i.label.empty()) item["label"] = i.label;
    item["from"] = timePoint(i.from);
    item["to"] = timePoint(i.to);
    list.push_back(item);
  }
  return list;
}

YAML::Node recordedNode(const Recorded& r) {
  YAML::Node n(YAML::NodeType::Map);
  if (!r.lanes.empty()) {
    YAML::Node lanes(YAML::NodeType::Map);
    for (const Lane& lane : r.lanes) lanes[lane.name] = laneNode(lane);
    n["lanes"] = lanes;
  }
  if (!r.pod_breakers.empty()) {
    // In order: the reader pairs lane k with the replay's pod k+1.
    YAML::Node pods(YAML::NodeType::Map);
    for (const Lane& lane : r.pod_breakers) pods[lane.name] = laneNode(lane);
    n["pod_breakers"] = pods;
  }
  if (!r.events.empty()) {
    YAML::Node events(YAML::NodeType::Sequence);
    for (const RecordedEvent& e : r.events) {
      YAML::Node item = incidentFlowMap();
      item["at"] = timePoint(e.at);
      item["label"] = e.label;
      if (!e.lane.empty()) item["lane"] = e.lane;
      events.push_back(item);
    }
    n["events"] = events;
  }
  if (!r.brackets.empty()) {
    YAML::Node brackets(YAML::NodeType::Sequence);
    for (const Bracket& b : r.brackets) {
      YAML::Node item = incidentFlowMap();
      item["from"] = timePoint(b.from);
      item["to"] = timePoint(b.to);
      item["label"] = b.label;
      brackets.push_back(item);
    }
    n["brackets"] = brackets;
  }
  return n;
}

YAML::Node expectationNode(const Expectation& e) {
  if (e.kind == Expectation::Kind::lane) {
    YAML::Node n = incidentFlowMap();
    n["lane"] = e.lane;
    n["matches"] = "recorded";
    n["within"] = formatDuration(e.within);
    return n;
  }
  if (!e.text.empty()) return YAML::Node(e.text);
  std::string text = e.metric + " " + std::string(toString(e.op)) + " " + formatNumber(e.value);
  if (e.tolerance != 0)
    text += " ± " + (e.tolerance_relative ? formatNumber(e.tolerance * 100) + "%"
                                          : formatNumber(e.tolerance));
  return YAML::Node(text);
}

YAML::Node expectationList(const std::vector<Expectation>& list) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (const Expectation& e : list) n.push_back(expectationNode(e));
  return n;
}

// Dotted leaves of a config tree: "breaker.window.size" -> "20". Flow sequences are leaves.
void flatten(const YAML::Node& node, const std::string& prefix,
             std::map<std::string, YAML::Node>& out) {
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (prefix.empty() && key == "format") continue;
      flatten(it->second, prefix.empty() ? key : prefix + "." + key, out);
    }
    return;
  }
  out[prefix] = node;
}

std::string emitted(const YAML::Node& n) {
  YAML::Emitter e;
  e << n;
  return e.c_str();
}

// A change's value as the config file writes it.
std::string editText(const ConfigEdit& e) {
  const TimedKeyInfo& info = timedKeyInfo(e.key);
  switch (info.kind) {
    case TimedKeyInfo::Kind::duration:
      return formatDuration(static_cast<Micros>(e.value));
    case TimedKeyInfo::Kind::toggle:
      return e.value != 0 ? "true" : "false";
    case TimedKeyInfo::Kind::retry_mode:
      return static_cast<RetryMode>(static_cast<int>(e.value)) == RetryMode::background
                 ? "background"
                 : "in_request";
    case TimedKeyInfo::Kind::count:
    case TimedKeyInfo::Kind::number:
      break;
  }
  return formatNumber(e.value);
}

YAML::Node changesNode(const std::vector<TimedChange>& changes) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (const TimedChange& c : changes) {
    YAML::Node item = incidentFlowMap();
    item["at"] = timePoint(c.at);
    YAML::Node set = incidentFlowMap();
    for (const ConfigEdit& e : c.edits) set[std::string(timedKeyInfo(e.key).name)] = editText(e);
    item["set"] = set;
    if (!c.label.empty()) item["label"] = c.label;
    if (!c.enabled) item["enabled"] = "false";
    list.push_back(item);
  }
  return list;
}

// The keys a what-if changes, as `set:` assignments on the deployed config.
YAML::Node whatIfSet(const Config& deployed, const Config& what_if) {
  std::map<std::string, YAML::Node> base, changed;
  flatten(toYamlNode(deployed, true), "", base);
  flatten(toYamlNode(what_if, true), "", changed);
  YAML::Node set(YAML::NodeType::Map);
  for (const auto& [key, value] : changed) {
    const auto b = base.find(key);
    if (b != base.end() && emitted(b->second) == emitted(value)) continue;
    set[key] = value;
  }
  return set;
}

}  // namespace
}  // namespace data_detail

std::string incidentToYaml(const Incident& inc, const std::vector<std::string>& header) {
  using namespace data_detail;
  YAML::Node root(YAML::NodeType::Map);
  root["format"] = std::string(kIncidentFormat);
  root["id"] = inc.id;
  if (!inc.title.empty()) root["title"] = inc.title;
  if (!inc.summary.empty()) root["summary"] = inc.summary;
  if (!inc.source.empty()) root["source"] = inc.source;
  if (inc.clock_start) root["start"] = formatUtcTimestamp(*inc.clock_start);
  YAML::Node window = incidentFlowMap();
  window["from"] = timePoint(inc.start);
  window["to"] = timePoint(inc.end);
  root["window"] = window;
  root["seed"] = std::to_string(inc.seed);
  root["traffic"] = trafficNode(inc.traffic, inc.dependency.calls != nullptr);
  root["dependency"] = dependencyNode(inc.dependency);
  const CheckoutLaneRule lane_defaults;
  const CheckoutLaneRule& lane = inc.checkout_lane;
  if (lane.bucket != lane_defaults.bucket || lane.slow_latency != lane_defaults.slow_latency ||
      lane.slow_share != lane_defaults.slow_share ||
      lane.failed_share != lane_defaults.failed_share) {
    YAML::Node n = incidentFlowMap();
    n["bucket"] = formatDuration(lane.bucket);
    n["slow_latency"] = formatDuration(lane.slow_latency);
    n["slow_share"] = share(lane.slow_share);
    n["failed_share"] = share(lane.failed_share);
    root["checkout_lane"] = n;
  }
  YAML::Node config = toYamlNode(inc.deployed);
  config.remove("format");
  root["config"] = config;
  if (!inc.changes.empty()) root["changes"] = changesNode(inc.changes);
  if (!inc.what_ifs.empty()) {
    YAML::Node list(YAML::NodeType::Sequence);
    for (const WhatIf& w : inc.what_ifs) {
      YAML::Node item(YAML::NodeType::Map);
      item["name"] = w.name;
      if (!w.description.empty()) item["description"] = w.description;
      if (const YAML::Node set = whatIfSet(inc.deployed, w.config); set.size() > 0)
        item["set"] = set;
      if (w.changes) item["changes"] = changesNode(*w.changes);
      if (!w.expect.empty()) item["expect"] = expectationList(w.expect);
      list.push_back(item);
    }
    root["what_ifs"] = list;
  }
  const Recorded& r = inc.recorded;
  if (!r.lanes.empty() || !r.pod_breakers.empty() || !r.events.empty() || !r.brackets.empty())
    root["recorded"] = recordedNode(r);
  if (!inc.expect.empty()) root["expect"] = expectationList(inc.expect);
  if (!inc.goals.empty()) root["goals"] = expectationList(inc.goals);

  std::string text;
  for (const std::string& line : header) {
    // One comment line per line of the header, whatever it holds.
    std::size_t from = 0;
    for (;;) {
      const std::size_t nl = line.find('\n', from);
      text +=
          "# " + line.substr(from, nl == std::string::npos ? std::string::npos : nl - from) + "\n";
      if (nl == std::string::npos) break;
      from = nl + 1;
    }
  }
  YAML::Emitter out;
  out << root;
  text += out.c_str();
  text += '\n';
  return text;
}

}  // namespace breakerlab
