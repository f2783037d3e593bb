#include "breakerlab/core/inputs/incident.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "breakerlab/core/inputs/work_estimate.h"

namespace breakerlab {

const Lane* Recorded::lane(std::string_view name) const {
  for (const auto& l : lanes)
    if (l.name == name) return &l;
  return nullptr;
}

const WhatIf* Incident::whatIf(std::string_view name) const {
  for (const auto& w : what_ifs)
    if (w.name == name) return &w;
  return nullptr;
}

std::uint32_t DependencyCapacity::scaledConcurrency(double factor) const {
  if (concurrency == 0) return 0;
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::lround(concurrency * factor)));
}

namespace {
// A change that scales the dependency's ceiling needs one (else it would silently do nothing).
std::string ceilingToScale(const std::vector<TimedChange>& changes,
                           const DependencyCapacity& capacity) {
  if (capacity.hasCeiling()) return {};
  for (std::size_t i = 0; i < changes.size(); ++i)
    for (const ConfigEdit& e : changes[i].edits)
      if (e.key == TimedKey::dependency_capacity_scale)
        return "changes[" + std::to_string(i) + "].set: " + std::string(kNoCeilingToScale);
  return {};
}

// A name from the file as a message quotes it: at most 80 characters (a UTF-8 boundary).
std::string shortName(std::string_view name) {
  constexpr std::size_t kMax = 80;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if ((static_cast<unsigned char>(name[i]) & 0xC0) == 0x80) continue;
    if (chars++ == kMax) return std::string(name.substr(0, i)) + "...";
  }
  return std::string(name);
}

std::string validateMix(const OutcomeMix& m, const std::string& where) {
  for (double p : {m.timeout, m.refused, m.server_error, m.client_error}) {
    if (!(p >= 0 && p <= 1)) return where + ": outcome probabilities must be within 0%..100%";
  }
  if (m.total() > 1 + 1e-9) return where + ": outcome probabilities add up to more than 100%";
  return {};
}

std::string validateLatency(const LatencyModel& l, const std::string& where) {
  if (l.p50 < 0) return where + ": latency must not be negative";
  if (l.kind == LatencyModel::Kind::lognormal && l.p99 < l.p50)
    return where + ": latency p99 must be at least p50";
  return {};
}
}  // namespace

std::string validate(const Incident& incident) {
  if (incident.end <= incident.start) return "window: 'to' must be after 'from'";
  if (incident.end - incident.start > kMaxWindow) return "window: longer than 7 days";
  const Traffic& traffic = incident.traffic;
  if (traffic.keys.count == 0) return "traffic.keys.count must be at least 1";
  // Every key has its cache entry and refresh state (about 40 bytes).
  if (traffic.keys.count > kMaxKeys) return "traffic.keys.count must be at most 10000000";
  if (!(traffic.keys.zipf >= 0 && traffic.keys.zipf <= 10))
    return "traffic.keys.zipf must be between 0 and 10";
  if (traffic.lead_in < 0) return "traffic.lead_in must not be negative";
  if (traffic.lead_in > kMaxLeadIn) return "traffic.lead_in must be at most 7 days";
  if (traffic.arrivals == ArrivalProcess::recorded) {
    if (!std::is_sorted(traffic.recorded.begin(), traffic.recorded.end()))
      return "traffic.times must be in ascending order";
    if (!traffic.recorded_keys.empty()) {
      if (traffic.recorded_keys.size() != traffic.recorded.size())
        return "traffic: one recorded key per recorded arrival is needed";
      for (const std::uint32_t k : traffic.recorded_keys)
        if (k >= traffic.keys.count) return "traffic: a recorded key is not below keys.count";
    }
  } else {
    Micros previous_end = std::numeric_limits<Micros>::min();
    for (const auto& p : traffic.rate) {
      if (p.to <= p.from) return "traffic.rate: each piece must end after it starts";
      if (p.from < previous_end) return "traffic.rate: pieces must be in order and not overlap";
      if (!(p.rps_from >= 0 && p.rps_to >= 0 && std::isfinite(p.rps_from) &&
            std::isfinite(p.rps_to)))
        return "traffic.rate: rates must be finite and not negative";
      if (std::max(p.rps_from, p.rps_to) > 1e8) return "traffic.rate: above 100 M requests/s";
      previous_end = p.to;
    }
  }
  const auto& segments = incident.dependency.segments;
  if (segments.empty()) return "dependency.segments: at least one segment is needed";
  if (segments.front().from > incident.start || segments.back().to < incident.end)
    return "dependency.segments must cover the whole window";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& s = segments[i];
    const std::string where =
        "dependency.segments[" + std::to_string(i) + "] (" + shortName(s.state) + ")";
    if (s.to <= s.from) return where + ": must end after it starts";
    if (i > 0 && s.from != segments[i - 1].to)
      return where + ": must start where the previous segment ends";
    for (auto* e : {&s.mix_start, &s.mix_end})
      if (auto m = validateMix(*e, where); !m.empty()) return m;
    for (auto* l : {&s.latency_start, &s.latency_end})
      if (auto m = validateLatency(*l, where); !m.empty()) return m;
    if (s.refused_latency < 0) return where + ": refused_latency must not be negative";
    if (!(s.retry_correlation >= 0 && s.retry_correlation <= 1))
      return where + ": retry_correlation must be 0% to 100%";
  }
  if (incident.dependency.calls != nullptr) {
    if (traffic.arrivals != ArrivalProcess::recorded)
      return "dependency: recorded calls need the recorded arrivals";
    if (auto m = validate(*incident.dependency.calls, traffic.recorded.size()); !m.empty())
      return "dependency." + m;
  }
  for (const auto& h : incident.dependency.health)
    if (h.to <= h.from) return "dependency.health: each span must end after it starts";
  if (auto m = validate(incident.deployed); !m.empty()) return "config: " + m;
  for (const auto& w : incident.what_ifs)
    if (auto m = validate(w.config); !m.empty()) return "what_ifs." + shortName(w.name) + ": " + m;
  if (auto m = validateChanges(incident.changes, incident.deployed, incident.start, incident.end);
      !m.empty())
    return m;
  if (auto m = ceilingToScale(incident.changes, incident.dependency.capacity); !m.empty()) return m;
  for (const auto& w : incident.what_ifs) {
    const std::vector<TimedChange>& changes = w.changes ? *w.changes : incident.changes;
    if (auto m = validateChanges(changes, w.config, incident.start, incident.end); !m.empty())
      return "what_ifs." + shortName(w.name) + ": " + m;
    if (auto m = ceilingToScale(changes, incident.dependency.capacity); !m.empty())
      return "what_ifs." + shortName(w.name) + ": " + m;
  }
  for (const auto& g : incident.goals)
    if (g.kind != Expectation::Kind::metric)
      return "goals: '" + shortName(g.text) +
             "' is a lane check; goals compare metrics (lane checks belong under expect)";
  if (incident.checkout_lane.bucket <= 0) return "checkout_lane.bucket must be positive";
  if (incident.checkout_lane.bucket > kMaxWindow)
    return "checkout_lane.bucket must be at most 7 days";
  // The bucket count, rounded up.
  const Micros window = incident.end - incident.start;
  const Micros bucket = incident.checkout_lane.bucket;
  if (window / bucket + (window % bucket != 0 ? 1 : 0) > static_cast<Micros>(kMaxCheckoutBuckets))
    return "checkout_lane.bucket: the window would have more than 1000000 buckets";
  return {};
}

}  // namespace breakerlab
