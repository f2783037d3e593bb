// traffic: arrivals, rate pieces or recorded times, keys, lead-in.
#include <limits>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/data/values.h"
#include "incident_parts.h"

namespace breakerlab::data_detail {

namespace {
constexpr double kMaxRps = 1e8;

std::vector<RatePiece> readRate(const Source& src, const YAML::Node& node,
                                const std::string& path) {
  requireList(src, node, path);
  if (node.size() == 0) failExpected(src, node, path, "at least one rate piece");
  std::vector<RatePiece> pieces;
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const MapReader m(src, *it, indexPath(path, i), {"from", "to", "rps", "to_rps"});
    const Span span = readSpan(m);
    if (!pieces.empty())
      requireInOrder(src, m.require("from"), m.path("from"), span.from, pieces.back().to);
    RatePiece p{span.from, span.to, 0, 0};
    p.rps_from = readNumber(src, m.require("rps"), m.path("rps"), 0, kMaxRps);
    p.rps_to = p.rps_from;
    if (auto* v = m.find("to_rps")) p.rps_to = readNumber(src, *v, m.path("to_rps"), 0, kMaxRps);
    pieces.push_back(p);
  }
  return pieces;
}

std::vector<Micros> readTimes(const Source& src, const YAML::Node& node, const std::string& path) {
  requireList(src, node, path);
  std::vector<Micros> times;
  times.reserve(node.size());
  std::size_t i = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++i) {
    const std::string item_path = indexPath(path, i);
    const Micros t = readTimePoint(src, *it, item_path);
    if (!times.empty() && t < times.back())
      fail(src, *it,
           item_path + ": " + formatSeconds(t) + " s comes before the previous time (" +
               formatSeconds(times.back()) + " s); times must be in ascending order");
    times.push_back(t);
  }
  return times;
}
}  // namespace

Traffic readTraffic(const Source& src, const YAML::Node& node, const std::string& path) {
  const MapReader m(src, node, path, {"arrivals", "rate", "times", "keys", "lead_in"});
  Traffic t;
  if (auto* v = m.find("arrivals"))
    t.arrivals = readEnum<ArrivalProcess>(src, *v, m.path("arrivals"),
                                          {{"uniform", ArrivalProcess::uniform},
                                           {"poisson", ArrivalProcess::poisson},
                                           {"recorded", ArrivalProcess::recorded}});
  if (t.arrivals == ArrivalProcess::recorded) {
    if (m.find("rate") != nullptr)
      fail(src, *m.keyNode("rate"),
           m.path("rate") + ": not used with arrivals: recorded (the times give the arrivals)");
    // Without times the arrivals come from dependency.recorded_calls (readIncident checks).
    if (auto* v = m.find("times")) t.recorded = readTimes(src, *v, m.path("times"));
  } else {
    if (m.find("times") != nullptr)
      fail(src, *m.keyNode("times"), m.path("times") + ": only used with arrivals: recorded");
    t.rate = readRate(src, m.require("rate"), m.path("rate"));
  }
  if (auto* v = m.find("keys")) {
    const MapReader k(src, *v, m.path("keys"), {"count", "zipf"});
    if (auto* x = k.find("count")) {
      t.keys.count = readUint32(src, *x, k.path("count"), 1);
      // Each key holds its cache entry: a count of billions is gigabytes before t=0.
      if (t.keys.count > kMaxKeys)
        failExpected(src, *x, k.path("count"), "a whole number from 1 to 10000000");
    }
    if (auto* x = k.find("zipf")) t.keys.zipf = readNumber(src, *x, k.path("zipf"), 0, 10);
  }
  if (auto* v = m.find("lead_in")) {
    t.lead_in = readDuration(src, *v, m.path("lead_in"));
    if (t.lead_in < 0 || t.lead_in > kMaxLeadIn)
      failExpected(src, *v, m.path("lead_in"), "a duration from 0s to 7 days (604800s)");
  }
  return t;
}

}  // namespace breakerlab::data_detail
