// recorded: the lanes, events and brackets of the postmortem, to overlay and compare.
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/values.h"
#include "incident_parts.h"

namespace breakerlab::data_detail {

Span readSpan(const MapReader& m) {
  const Source& src = m.source();
  const YAML::Node& to_node = m.require("to");
  Span span;
  span.from = readTimePoint(src, m.require("from"), m.path("from"));
  span.to = readTimePoint(src, to_node, m.path("to"));
  if (span.to <= span.from)
    fail(src, to_node,
         m.path("to") + ": must be after from (" + formatSeconds(span.from) + " s), got " +
             formatSeconds(span.to) + " s");
  return span;
}

void requireInOrder(const Source& src, const YAML::Node& at, const std::string& path, Micros from,
                    Micros previous_end) {
  if (from >= previous_end) return;
  fail(src, at,
       path + ": " + formatSeconds(from) + " s is before the end of the previous item (" +
           formatSeconds(previous_end) + " s); items must be sorted by time and must not overlap");
}

namespace {
Lane readLane(const Source& src, const std::string& name, const YAML::Node& node,
              const std::string& path) {
  requireList(src, node, path);
  Lane lane;
  lane.name = name;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const MapReader m(src, *it, indexPath(path, i), {"state", "from", "to", "label"});
    LaneInterval interval;
    interval.state = readString(src, m.require("state"), m.path("state"));
    const Span span = readSpan(m);
    if (!lane.intervals.empty())
      requireInOrder(src, m.require("from"), m.path("from"), span.from, lane.intervals.back().to);
    interval.from = span.from;
    interval.to = span.to;
    if (auto* v = m.find("label")) interval.label = readString(src, *v, m.path("label"));
    lane.intervals.push_back(std::move(interval));
  }
  return lane;
}
}  // namespace

Recorded readRecorded(const Source& src, const YAML::Node& node, const std::string& path) {
  const MapReader m(src, node, path, {"lanes", "pod_breakers", "events", "brackets"});
  Recorded r;
  if (auto* v = m.find("lanes")) {
    const std::string lanes_path = m.path("lanes");
    for (const auto& entry : mapEntries(src, *v, lanes_path)) {
      if (entry.key.empty()) fail(src, entry.key_node, lanes_path + ": a lane needs a name");
      r.lanes.push_back(readLane(src, entry.key, entry.value, joinPath(lanes_path, entry.key)));
    }
  }
  // The fleet as recorded: one breaker lane per pod, in the file's order (lane k beside the
  // replay's pod k+1), each named by its instance.
  if (auto* v = m.find("pod_breakers")) {
    const std::string pods_path = m.path("pod_breakers");
    const auto entries = mapEntries(src, *v, pods_path);
    if (entries.size() > kMaxRecordedPods)
      fail(src, *v,
           pods_path + ": " + std::to_string(entries.size()) + " pods, more than the limit of " +
               std::to_string(kMaxRecordedPods));
    for (const auto& entry : entries) {
      if (entry.key.empty()) fail(src, entry.key_node, pods_path + ": a pod lane needs a name");
      r.pod_breakers.push_back(
          readLane(src, entry.key, entry.value, joinPath(pods_path, entry.key)));
    }
  }
  if (auto* v = m.find("events")) {
    const std::string events_path = m.path("events");
    requireList(src, *v, events_path);
    std::size_t i = 0;
    for (auto it = v->begin(); it != v->end(); ++it, ++i) {
      const MapReader e(src, *it, indexPath(events_path, i), {"at", "label", "lane"});
      RecordedEvent event;
      event.at = readTimePoint(src, e.require("at"), e.path("at"));
      if (auto* x = e.find("label")) event.label = readString(src, *x, e.path("label"));
      if (auto* x = e.find("lane")) event.lane = readString(src, *x, e.path("lane"));
      r.events.push_back(std::move(event));
    }
  }
  if (auto* v = m.find("brackets")) {
    const std::string brackets_path = m.path("brackets");
    requireList(src, *v, brackets_path);
    std::size_t i = 0;
    for (auto it = v->begin(); it != v->end(); ++it, ++i) {
      const MapReader b(src, *it, indexPath(brackets_path, i), {"from", "to", "label"});
      const Span span = readSpan(b);
      Bracket bracket{span.from, span.to, {}};
      if (auto* x = b.find("label")) bracket.label = readString(src, *x, b.path("label"));
      r.brackets.push_back(std::move(bracket));
    }
  }
  return r;
}

}  // namespace breakerlab::data_detail
