// The top level of a breakerlab/1 incident: metadata, window, sections, what-ifs, expectations.
#include <algorithm>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/request_log.h"
#include "breakerlab/data/values.h"
#include "config_yaml.h"
#include "expectation_reader.h"
#include "incident_parts.h"

namespace breakerlab {
namespace data_detail {

namespace {

CheckoutLaneRule readCheckoutLane(const Source& src, const YAML::Node& node,
                                  const std::string& path, Micros window) {
  const MapReader m(src, node, path, {"bucket", "slow_latency", "slow_share", "failed_share"});
  CheckoutLaneRule rule;
  if (auto* v = m.find("bucket")) {
    rule.bucket = readDuration(src, *v, m.path("bucket"));
    // One tally per bucket: a microsecond over a week would be 6e11 of them.
    const auto most = static_cast<Micros>(kMaxCheckoutBuckets);
    if (rule.bucket <= 0 ||
        (window > 0 && window / rule.bucket + (window % rule.bucket != 0 ? 1 : 0) > most))
      failExpected(src, *v, m.path("bucket"),
                   "a positive duration of at least the window / 1000000 (" +
                       formatNumber(toSeconds(std::max<Micros>(1, (window + most - 1) / most))) +
                       "s)");
  }
  if (auto* v = m.find("slow_latency"))
    rule.slow_latency = readDuration(src, *v, m.path("slow_latency"));
  if (auto* v = m.find("slow_share"))
    rule.slow_share = readPercent(src, *v, m.path("slow_share")) / 100.0;
  if (auto* v = m.find("failed_share"))
    rule.failed_share = readPercent(src, *v, m.path("failed_share")) / 100.0;
  return rule;
}

std::vector<Expectation> readExpectations(const Source& src, const YAML::Node& node,
                                          const std::string& path, const Recorded& recorded) {
  requireList(src, node, path);
  std::vector<Expectation> out;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i)
    out.push_back(readExpectation(src, *it, indexPath(path, i), recorded));
  return out;
}

std::vector<Expectation> readGoals(const Source& src, const YAML::Node& node,
                                   const std::string& path) {
  requireList(src, node, path);
  std::vector<Expectation> out;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i)
    out.push_back(readGoal(src, *it, indexPath(path, i)));
  return out;
}

void collectNodes(const YAML::Node& node, std::vector<YAML::Node>& out) {
  out.push_back(node);
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      out.push_back(it->first);
      collectNodes(it->second, out);
    }
  } else if (node.IsSequence()) {
    for (auto it = node.begin(); it != node.end(); ++it) collectNodes(*it, out);
  }
}

// Each change was checked on the deployed config alone; together, in time order, they may still
// make a config that is not valid (a total timeout below a raised attempt timeout). Said at the
// change that does it, rather than by validate() later, which knows no line.
void requireValidOverRun(const Source& src, const YAML::Node& node, const std::string& path,
                         const std::vector<TimedChange>& changes, const Config& base) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < changes.size(); ++i)
    if (changes[i].enabled) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return changes[a].at < changes[b].at; });
  Config config = base;
  for (const std::size_t i : order) {
    applyChange(config, changes[i]);
    if (std::string problem = validate(config); !problem.empty())
      fail(src, node[i],
           indexPath(path, i) + ": with this change (at " + windowBound(changes[i].at) +
               ") and the ones before it the config is not valid: " + problem);
  }
}

// `set:` overrides on the deployed config, read with the config parser. Nodes from the file
// keep their positions; problems elsewhere are reported at the what-if.
Config readWhatIfConfig(const Source& src, const YAML::Node& item, const YAML::Node* set,
                        const std::string& set_path, const std::string& name,
                        const Config& deployed) {
  if (set == nullptr) return deployed;
  std::vector<YAML::Node> trusted;
  collectNodes(*set, trusted);
  Source wsrc = src;
  wsrc.trusted = &trusted;
  const Position at = positionOf(src, item);
  wsrc.fallback_line = at.line;
  wsrc.fallback_column = at.column;
  wsrc.message_prefix = "what-if '" + clipText(name) + "': ";
  YAML::Node tree = toYamlNode(deployed, true);
  for (const auto& entry : mapEntries(src, *set, set_path))
    setAtPath(tree, entry.key, entry.value, wsrc, entry.key_node);
  const Config config = readConfigNode(wsrc, tree, "", false);
  validateConfigAt(wsrc, item, config);
  return config;
}

std::vector<WhatIf> readWhatIfs(const Source& src, const YAML::Node& node, const std::string& path,
                                const Config& deployed, const DependencyCapacity& capacity,
                                const Recorded& recorded, Span window) {
  requireList(src, node, path);
  std::vector<WhatIf> out;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const MapReader m(src, *it, indexPath(path, i),
                      {"name", "description", "set", "changes", "expect"});
    WhatIf w;
    const YAML::Node& name = m.require("name");
    w.name = readString(src, name, m.path("name"));
    if (w.name.empty()) failExpected(src, name, m.path("name"), "a name");
    for (const auto& other : out)
      if (other.name == w.name)
        fail(src, name, m.path("name") + ": the name '" + clipText(w.name) + "' is used twice");
    if (auto* v = m.find("description")) w.description = readString(src, *v, m.path("description"));
    w.config = readWhatIfConfig(src, *it, m.find("set"), m.path("set"), w.name, deployed);
    if (auto* v = m.find("changes")) {
      w.changes = readChanges(src, *v, m.path("changes"), w.config, capacity, window);
      requireValidOverRun(src, *v, m.path("changes"), *w.changes, w.config);
    }
    if (auto* v = m.find("expect"))
      w.expect = readExpectations(src, *v, m.path("expect"), recorded);
    out.push_back(std::move(w));
  }
  return out;
}

// dependency.recorded_calls: the request log (relative to the incident file) gives the arrivals
// and answers the calls; traffic.times are then not given.
void readRecordedCalls(const Source& src, const MapReader& m, Incident& inc) {
  const Dependency::CallsSource& source = inc.dependency.calls_source;
  const YAML::Node& traffic = m.require("traffic");
  if (source.file.empty()) {
    if (inc.traffic.arrivals == ArrivalProcess::recorded && !traffic["times"])
      fail(src, traffic,
           "traffic.times: required with arrivals: recorded (or give dependency.recorded_calls)");
    return;
  }
  const YAML::Node calls = m.require("dependency")["recorded_calls"];
  if (inc.traffic.arrivals != ArrivalProcess::recorded || traffic["times"])
    fail(src, calls,
         "dependency.recorded_calls: needs traffic arrivals: recorded without times (the log "
         "gives the arrivals)");
  std::filesystem::path file(source.file);
  const std::filesystem::path incident_file(src.file);
  if (file.is_relative() && incident_file.has_parent_path())
    file = incident_file.parent_path() / file;
  RequestLogOptions options;
  if (!source.mapping.empty())
    options.mapping =
        parseRequestLogMapping(source.mapping, src.file + ": dependency.recorded_calls.map");
  RequestLog log = readRequestLog(
      file, source.format == "jsonl" ? RequestLogFormat::jsonl : RequestLogFormat::csv, options);
  inc.traffic.keys.count = log.key_count;
  inc.traffic.recorded = std::move(log.arrivals);
  if (log.had_keys)
    inc.traffic.recorded_keys = std::move(log.arrival_keys);
  else
    inc.traffic.recorded_keys.clear();
  inc.dependency.calls = std::make_shared<const RecordedCalls>(std::move(log.calls));
}

Incident readIncident(const Source& file_src, const YAML::Node& root) {
  Source src = file_src;
  // The format first: a file of another kind fails with that, not with its first unknown key.
  for (const auto& entry : mapEntries(src, root, "")) {
    if (entry.key == "format" &&
        (!entry.value.IsScalar() || entry.value.Scalar() != kIncidentFormat))
      failExpected(src, entry.value, "format", data_detail::quoted(kIncidentFormat));
  }
  const MapReader m(src, root, "",
                    {"format", "id", "title", "summary", "source", "start", "window", "seed",
                     "traffic", "dependency", "checkout_lane", "config", "changes", "what_ifs",
                     "recorded", "expect", "goals"});
  const YAML::Node& format = m.require("format");
  if (!format.IsScalar() || format.Scalar() != kIncidentFormat)
    failExpected(src, format, "format", data_detail::quoted(kIncidentFormat));
  Incident inc;
  inc.id = readString(src, m.require("id"), "id");
  if (auto* v = m.find("title")) inc.title = readString(src, *v, "title");
  if (auto* v = m.find("summary")) inc.summary = readString(src, *v, "summary");
  if (auto* v = m.find("source")) inc.source = readString(src, *v, "source");
  if (auto* v = m.find("start")) {
    // Read first: every time point after it may be a clock time.
    std::string expected;
    const auto t = v->IsScalar() ? parseUtcTimestamp(v->Scalar(), &expected) : std::nullopt;
    if (!t) failExpected(src, *v, "start", "a UTC timestamp such as 2026-09-12T09:00:00Z");
    inc.clock_start = *t;
    src.clock_start = *t;
  }
  if (auto* v = m.find("window")) {
    const MapReader w(src, *v, "window", {"from", "to"});
    const Span window = readSpan(w);
    // Here, at the value, rather than by validate() later, which knows no line.
    if (window.to - window.from > kMaxWindow)
      fail(src, w.require("to"),
           "window.to: expected at most 7 days after window.from (" + windowBound(window.from) +
               "), got " + clipText(w.require("to").Scalar()));
    inc.start = window.from;
    inc.end = window.to;
  }
  if (auto* v = m.find("seed")) inc.seed = readUint64(src, *v, "seed");
  inc.traffic = readTraffic(src, m.require("traffic"), "traffic");
  inc.dependency = readDependency(src, m.require("dependency"), "dependency", {inc.start, inc.end});
  readRecordedCalls(src, m, inc);
  if (auto* v = m.find("checkout_lane"))
    inc.checkout_lane = readCheckoutLane(src, *v, "checkout_lane", inc.end - inc.start);
  if (auto* v = m.find("config")) {
    inc.deployed = readConfigNode(src, *v, "config", false);
    validateConfigAt(src, *v, inc.deployed);
  }
  if (auto* v = m.find("recorded")) inc.recorded = readRecorded(src, *v, "recorded");
  if (auto* v = m.find("changes")) {
    inc.changes = readChanges(src, *v, "changes", inc.deployed, inc.dependency.capacity,
                              {inc.start, inc.end});
    requireValidOverRun(src, *v, "changes", inc.changes, inc.deployed);
  }
  if (auto* v = m.find("what_ifs"))
    inc.what_ifs = readWhatIfs(src, *v, "what_ifs", inc.deployed, inc.dependency.capacity,
                               inc.recorded, {inc.start, inc.end});
  if (auto* v = m.find("expect")) inc.expect = readExpectations(src, *v, "expect", inc.recorded);
  if (auto* v = m.find("goals")) inc.goals = readGoals(src, *v, "goals");
  if (std::string problem = validate(inc); !problem.empty()) failAt(src, {}, problem);
  return inc;
}

}  // namespace
}  // namespace data_detail

Incident parseIncident(std::string_view text, std::string file_name) {
  using namespace data_detail;
  try {
    const YAML::Node root = parseYaml(text, file_name);
    const Source src{file_name, text};
    return readIncident(src, root);
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(file_name, 0, 0, std::string("cannot read the incident: ") + e.what());
  }
}

Incident loadIncident(const std::filesystem::path& path) {
  return parseIncident(readTextFile(path), path.string());
}

}  // namespace breakerlab
