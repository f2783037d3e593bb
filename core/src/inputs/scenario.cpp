#include "breakerlab/core/inputs/scenario.h"

#include "breakerlab/core/basics/translatable.h"
#include "breakerlab/core/inputs/work_estimate.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace breakerlab {

namespace {
const std::array<ScenarioKeyInfo, 4> kKeys{{
    {"scenario.outage.extend", BREAKERLAB_TR_NOOP("breakerlab::Scenario", "Outage longer by"), true,
     0, 7 * 24 * 3600.0 * kSecond,
     [](const Scenario& s) { return static_cast<double>(s.outage_extend); },
     [](Scenario& s, double v) { s.outage_extend = static_cast<Micros>(std::llround(v)); },
     BREAKERLAB_TR_NOOP("breakerlab::Scenario",
                        "the outage (the first run of unhealthy segments) lasts this much longer; "
                        "what follows moves later")},
    {"scenario.traffic.scale", BREAKERLAB_TR_NOOP("breakerlab::Scenario", "Traffic ×"), false,
     kFactorMin, kFactorMax, [](const Scenario& s) { return s.traffic_scale; },
     [](Scenario& s, double v) { s.traffic_scale = v; },
     BREAKERLAB_TR_NOOP("breakerlab::Scenario", "every traffic rate multiplied by this")},
    {"scenario.latency.scale", BREAKERLAB_TR_NOOP("breakerlab::Scenario", "Latency ×"), false,
     kFactorMin, kFactorMax, [](const Scenario& s) { return s.latency_scale; },
     [](Scenario& s, double v) { s.latency_scale = v; },
     BREAKERLAB_TR_NOOP("breakerlab::Scenario", "every dependency latency multiplied by this")},
    {"scenario.capacity.scale", BREAKERLAB_TR_NOOP("breakerlab::Scenario", "Capacity ×"), false,
     kFactorMin, kFactorMax, [](const Scenario& s) { return s.capacity_scale; },
     [](Scenario& s, double v) { s.capacity_scale = v; },
     BREAKERLAB_TR_NOOP("breakerlab::Scenario",
                        "the dependency's concurrency ceiling multiplied by this")},
}};

Micros scaled(Micros v, double factor) {
  return static_cast<Micros>(std::llround(static_cast<double>(v) * factor));
}
}  // namespace

std::span<const ScenarioKeyInfo> scenarioKeys() {
  return kKeys;
}

const ScenarioKeyInfo* findScenarioKey(std::string_view name) {
  for (const ScenarioKeyInfo& k : kKeys)
    if (k.name == name) return &k;
  return nullptr;
}

std::string scenarioProblem(const Incident& incident, const Scenario& scenario) {
  if (scenario.outage_extend > 0) {
    if (incident.traffic.arrivals == ArrivalProcess::recorded || incident.dependency.calls)
      return "scenario.outage.extend: the incident replays recorded arrivals or calls, whose "
             "times cannot move";
    if (std::none_of(incident.dependency.segments.begin(), incident.dependency.segments.end(),
                     [](const DependencySegment& s) { return s.health == Health::red; }))
      return "scenario.outage.extend: the dependency has no unhealthy segment to stretch";
    if (incident.end - incident.start + scenario.outage_extend > kMaxWindow)
      return "scenario.outage.extend: the window would be longer than 7 days";
  }
  if (scenario.traffic_scale != 1 && incident.traffic.arrivals == ArrivalProcess::recorded)
    return "scenario.traffic.scale: the incident replays recorded arrivals";
  return {};
}

Incident applyScenario(const Incident& incident, const Scenario& scenario) {
  Incident out = incident;
  for (RatePiece& p : out.traffic.rate) {
    p.rps_from *= scenario.traffic_scale;
    p.rps_to *= scenario.traffic_scale;
  }
  for (DependencySegment& s : out.dependency.segments)
    for (LatencyModel* l : {&s.latency_start, &s.latency_end}) {
      l->p50 = std::max<Micros>(1, scaled(l->p50, scenario.latency_scale));
      l->p99 = std::max<Micros>(l->p50, scaled(l->p99, scenario.latency_scale));
    }
  out.dependency.capacity.concurrency =
      out.dependency.capacity.scaledConcurrency(scenario.capacity_scale);

  const Micros extra = scenario.outage_extend;
  if (extra <= 0) return out;
  // The outage: the first run of red segments; its longest segment is the one stretched.
  auto& segments = out.dependency.segments;
  std::size_t first = 0;
  while (first < segments.size() && segments[first].health != Health::red) ++first;
  if (first == segments.size()) return out;  // no outage to stretch
  std::size_t last = first;
  while (last + 1 < segments.size() && segments[last + 1].health == Health::red) ++last;
  std::size_t longest = first;
  for (std::size_t i = first; i <= last; ++i)
    if (segments[i].to - segments[i].from > segments[longest].to - segments[longest].from)
      longest = i;
  const Micros at = segments[longest].to;  // everything from here on moves later
  const auto shift = [&](Micros& t) {
    if (t >= at) t += extra;
  };
  for (DependencySegment& s : segments) {
    if (&s == &segments[longest]) {
      s.to += extra;
      continue;
    }
    shift(s.from);
    shift(s.to);
  }
  for (HealthSpan& h : out.dependency.health) {
    // A span that covers the stretch point grows with it.
    if (h.from < at && h.to >= at) {
      h.to += extra;
      continue;
    }
    shift(h.from);
    shift(h.to);
  }
  for (RatePiece& p : out.traffic.rate) {
    if (p.from < at && p.to >= at) {
      p.to += extra;
      continue;
    }
    shift(p.from);
    shift(p.to);
  }
  for (TimedChange& c : out.changes) shift(c.at);
  for (WhatIf& w : out.what_ifs)
    if (w.changes)
      for (TimedChange& c : *w.changes) shift(c.at);
  if (out.end >= at) out.end += extra;
  return out;
}

}  // namespace breakerlab
