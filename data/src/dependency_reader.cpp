// dependency: segments (latency, outcome mix, ramps) and the health signal.
#include <cmath>

#include "breakerlab/data/values.h"
#include "incident_parts.h"

namespace breakerlab::data_detail {

namespace {

std::optional<Micros> optionalDuration(const MapReader& m, std::string_view key) {
  if (auto* v = m.find(key)) return readDuration(m.source(), *v, m.path(key));
  return std::nullopt;
}

void requireP99AtLeastP50(const MapReader& m, const LatencyModel& l) {
  if (l.kind != LatencyModel::Kind::lognormal || l.p99 >= l.p50) return;
  const YAML::Node* at = m.find("p99");
  if (at == nullptr) at = &m.node();
  fail(m.source(), *at,
       m.path("p99") + ": must be at least p50 (" + formatDuration(l.p50) + "), got " +
           formatDuration(l.p99));
}

LatencyModel readLatency(const Source& src, const YAML::Node& node, const std::string& path) {
  const MapReader m(src, node, path, {"fixed", "p50", "p99", "mean"});
  LatencyModel l;
  const auto fixed = optionalDuration(m, "fixed");
  const auto p50 = optionalDuration(m, "p50");
  const auto p99 = optionalDuration(m, "p99");
  const auto mean = optionalDuration(m, "mean");
  if (fixed) {
    if (p50 || p99)
      fail(src, *m.keyNode(p50 ? "p50" : "p99"),
           path + ": give either fixed or p50 and p99, not both");
    if (mean) fail(src, *m.keyNode("mean"), path + ": give either fixed or mean, not both");
    l.kind = LatencyModel::Kind::fixed;
    l.p50 = l.p99 = *fixed;
    return l;
  }
  if (mean) {
    if (p50 || p99)
      fail(src, *m.keyNode(p50 ? "p50" : "p99"),
           path + ": give either mean or p50 and p99, not both");
    l.kind = LatencyModel::Kind::exponential;
    l.p50 = l.p99 = *mean;  // the mean lives in p50; p99 is not used
    return l;
  }
  if (!p50 && !p99) failExpected(src, node, path, "{fixed: D}, {p50: D, p99: D} or {mean: D}");
  if (!p50 || !p99) m.require(p50 ? "p99" : "p50");
  l.kind = LatencyModel::Kind::lognormal;
  l.p50 = *p50;
  l.p99 = *p99;
  requireP99AtLeastP50(m, l);
  return l;
}

// ramp_to.latency: the end values; keys not given keep the start value; same form as the start.
LatencyModel readLatencyEnd(const Source& src, const YAML::Node& node, const std::string& path,
                            const LatencyModel& start) {
  std::vector<std::string_view> keys;
  switch (start.kind) {
    case LatencyModel::Kind::fixed:
      keys = {"fixed"};
      break;
    case LatencyModel::Kind::lognormal:
      keys = {"p50", "p99"};
      break;
    case LatencyModel::Kind::exponential:
      keys = {"mean"};
      break;
  }
  const MapReader m(src, node, path, keys);
  LatencyModel l = start;
  switch (start.kind) {
    case LatencyModel::Kind::fixed:
      if (auto d = optionalDuration(m, "fixed")) l.p50 = l.p99 = *d;
      return l;
    case LatencyModel::Kind::exponential:
      if (auto d = optionalDuration(m, "mean")) l.p50 = l.p99 = *d;
      return l;
    case LatencyModel::Kind::lognormal:
      break;
  }
  if (auto d = optionalDuration(m, "p50")) l.p50 = *d;
  if (auto d = optionalDuration(m, "p99")) l.p99 = *d;
  requireP99AtLeastP50(m, l);
  return l;
}

OutcomeMix readMix(const Source& src, const YAML::Node& node, const std::string& path,
                   OutcomeMix mix) {
  const MapReader m(src, node, path, {"timeout", "refused", "server_error", "client_error"});
  const auto read = [&](std::string_view key, double& out) {
    if (auto* v = m.find(key)) out = readPercent(src, *v, m.path(key)) / 100.0;
  };
  read("timeout", mix.timeout);
  read("refused", mix.refused);
  read("server_error", mix.server_error);
  read("client_error", mix.client_error);
  if (mix.total() > 1.0 + 1e-9)
    fail(src, node,
         path + ": the outcomes add up to " + formatPercent(std::round(mix.total() * 1e8) / 1e6) +
             ", more than 100%");
  return mix;
}

DependencySegment readSegment(const Source& src, const YAML::Node& node, const std::string& path) {
  const MapReader m(src, node, path,
                    {"state", "from", "to", "health", "latency", "outcomes", "refused_latency",
                     "retry_correlation", "ramp_to"});
  DependencySegment s;
  s.state = readString(src, m.require("state"), m.path("state"));
  const Span span = readSpan(m);
  s.from = span.from;
  s.to = span.to;
  if (auto* v = m.find("health"))
    s.health = readEnum<Health>(src, *v, m.path("health"),
                                {{"green", Health::green}, {"red", Health::red}});
  if (auto* v = m.find("latency")) s.latency_start = readLatency(src, *v, m.path("latency"));
  if (auto* v = m.find("outcomes")) s.mix_start = readMix(src, *v, m.path("outcomes"), {});
  if (auto d = optionalDuration(m, "refused_latency")) s.refused_latency = *d;
  if (auto* v = m.find("retry_correlation"))
    s.retry_correlation = readPercent(src, *v, m.path("retry_correlation")) / 100.0;
  s.latency_end = s.latency_start;
  s.mix_end = s.mix_start;
  if (auto* v = m.find("ramp_to")) {
    const MapReader r(src, *v, m.path("ramp_to"), {"latency", "outcomes"});
    if (auto* x = r.find("latency"))
      s.latency_end = readLatencyEnd(src, *x, r.path("latency"), s.latency_start);
    if (auto* x = r.find("outcomes")) s.mix_end = readMix(src, *x, r.path("outcomes"), s.mix_start);
  }
  return s;
}

std::vector<HealthSpan> readHealth(const Source& src, const YAML::Node& node,
                                   const std::string& path) {
  requireList(src, node, path);
  std::vector<HealthSpan> spans;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const MapReader m(src, *it, indexPath(path, i), {"from", "to", "state"});
    const Span span = readSpan(m);
    if (!spans.empty())
      requireInOrder(src, m.require("from"), m.path("from"), span.from, spans.back().to);
    const Health h = readEnum<Health>(src, m.require("state"), m.path("state"),
                                      {{"green", Health::green}, {"red", Health::red}});
    spans.push_back({span.from, span.to, h});
  }
  return spans;
}

std::vector<HealthSpan> healthFromSegments(const std::vector<DependencySegment>& segments) {
  std::vector<HealthSpan> spans;
  for (const auto& s : segments) {
    if (!spans.empty() && spans.back().health == s.health && spans.back().to == s.from)
      spans.back().to = s.to;
    else
      spans.push_back({s.from, s.to, s.health});
  }
  return spans;
}

DependencyCapacity readCapacity(const Source& src, const YAML::Node& node,
                                const std::string& path) {
  const MapReader m(src, node, path,
                    {"concurrency", "discipline", "queue_timeout", "keeps_working", "per_call"});
  DependencyCapacity c;
  if (auto* v = m.find("concurrency")) c.concurrency = readUint32(src, *v, m.path("concurrency"));
  if (auto d = optionalDuration(m, "queue_timeout")) c.queue_timeout = *d;
  if (auto* v = m.find("discipline"))
    c.discipline = readEnum<CapacityDiscipline>(src, *v, m.path("discipline"),
                                                {{"queue", CapacityDiscipline::queue},
                                                 {"share", CapacityDiscipline::share},
                                                 {"load", CapacityDiscipline::load}});
  if (auto d = optionalDuration(m, "per_call")) c.per_call = *d;
  if (c.discipline == CapacityDiscipline::load && c.per_call <= 0)
    fail(src, node,
         path +
             ": discipline load needs per_call, the latency each call in service "
             "adds (e.g. 10ms)");
  if (auto* v = m.find("keeps_working"))
    c.keeps_working = readBool(src, *v, m.path("keeps_working"));
  return c;
}

}  // namespace

Dependency readDependency(const Source& src, const YAML::Node& node, const std::string& path,
                          Span window) {
  const MapReader m(src, node, path, {"name", "capacity", "segments", "health", "recorded_calls"});
  Dependency d;
  if (auto* v = m.find("name")) d.name = readString(src, *v, m.path("name"));
  if (auto* v = m.find("recorded_calls")) {
    // Read by readIncident, which knows where the incident file is.
    const MapReader r(src, *v, m.path("recorded_calls"), {"file", "format", "map"});
    d.calls_source.file = readString(src, r.require("file"), r.path("file"));
    d.calls_source.format = "csv";
    if (auto* f = r.find("format"))
      d.calls_source.format =
          readEnum<std::string>(src, *f, r.path("format"), {{"csv", "csv"}, {"jsonl", "jsonl"}});
    if (auto* x = r.find("map")) d.calls_source.mapping = readString(src, *x, r.path("map"));
  }
  if (auto* v = m.find("capacity")) d.capacity = readCapacity(src, *v, m.path("capacity"));
  const YAML::Node& segments = m.require("segments");
  const std::string seg_path = m.path("segments");
  requireList(src, segments, seg_path);
  if (segments.size() == 0) failExpected(src, segments, seg_path, "at least one segment");
  std::size_t i = 0;
  for (auto it = segments.begin(); it != segments.end(); ++it, ++i) {
    const std::string item_path = indexPath(seg_path, i);
    DependencySegment s = readSegment(src, *it, item_path);
    const YAML::Node from_node = (*it)["from"];
    if (d.segments.empty() && s.from > window.from)
      fail(src, from_node,
           item_path + ".from: the first segment must start by the window start (" +
               formatDuration(window.from) + "), got " + formatDuration(s.from));
    if (!d.segments.empty() && s.from != d.segments.back().to)
      fail(src, from_node,
           item_path + ".from: segments must be in order and contiguous: expected " +
               formatDuration(d.segments.back().to) + " (where the previous segment ends), got " +
               formatDuration(s.from));
    d.segments.push_back(std::move(s));
  }
  if (d.segments.back().to < window.to) {
    const YAML::Node last = segments[segments.size() - 1];
    fail(src, last["to"],
         indexPath(seg_path, segments.size() - 1) +
             ".to: the last segment must reach the window end (" + formatDuration(window.to) +
             "), got " + formatDuration(d.segments.back().to));
  }
  if (auto* v = m.find("health"))
    d.health = readHealth(src, *v, m.path("health"));
  else
    d.health = healthFromSegments(d.segments);
  return d;
}

}  // namespace breakerlab::data_detail
