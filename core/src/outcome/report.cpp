// Turns the raw facts of a run into what people read: lanes, events and metrics.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "outcome/latency_histogram.h"
#include "outcome/run_facts.h"

namespace breakerlab {

namespace {

// Outcomes of the checkouts that arrived in one bucket of the checkout lane.
struct LaneBucket {
  std::uint32_t total = 0;
  std::uint32_t cached = 0;
  std::uint32_t failed = 0;
  std::uint32_t slow = 0;
};

std::string_view plainOutcome(CallOutcome o) {
  switch (o) {
    case CallOutcome::success:
      return "success";
    case CallOutcome::timeout:
      return "timeout";
    case CallOutcome::refused:
      return "connection refused";
    case CallOutcome::server_error:
      return "server error";
    case CallOutcome::client_error:
      return "client error";
    case CallOutcome::pool_exhausted:
      return "no connection";
    case CallOutcome::failure:
      return "failure";
  }
  return "?";
}

Lane breakerLane(const std::vector<BreakerTransition>& transitions, Micros start, Micros end) {
  Lane lane{"breaker", {}};
  BreakerState state = BreakerState::closed;
  Micros since = start;
  for (const auto& t : transitions) {
    if (t.at >= end) break;
    if (t.at > start) {
      lane.append(toString(state), since, t.at);
      since = t.at;
    }
    state = t.to;
  }
  lane.append(toString(state), since, end);
  return lane;
}

Lane dependencyLane(const Dependency& dependency, Micros start, Micros end) {
  Lane lane{"dependency", {}};
  for (const auto& s : dependency.segments)
    lane.append(s.state, std::max(s.from, start), std::min(s.to, end));
  return lane;
}

Lane healthLane(const HealthTimeline& health, Micros start, Micros end) {
  Lane lane{"health", {}};
  Micros cursor = start;
  for (const auto& span : health.spans()) {
    const Micros from = std::clamp(span.from, start, end);
    const Micros to = std::clamp(span.to, start, end);
    if (from > cursor) lane.append("green", cursor, from);
    if (to > from) lane.append(span.health == Health::green ? "green" : "red", from, to);
    cursor = std::max(cursor, to);
  }
  lane.append("green", cursor, end);
  return lane;
}

// Pods in rotation over time ("8 of 8 pods"), from the load balancer's ejections and returns.
Lane podsLane(const RunFacts& facts, Micros start, Micros end) {
  Lane lane{"pods", {}};
  if (!facts.health_checks) return lane;
  auto label = [&](std::uint32_t n) {
    return std::to_string(n) + " of " + std::to_string(facts.pods) + " pods";
  };
  std::uint32_t in = facts.pods_in_rotation_at_start;
  Micros since = start;
  for (const auto& e : facts.pod_events) {
    if (e.at > since) {
      lane.append(label(in), since, e.at);
      since = e.at;
    }
    in = e.in_rotation;
  }
  lane.append(label(in), since, end);
  return lane;
}

// Each bucket is failed, slow, cached or fresh, checked in that order (docs/metrics.md).
Lane checkoutLane(const std::vector<LaneBucket>& buckets, const CheckoutLaneRule& rule,
                  Micros start, Micros end) {
  Lane lane{"checkout", {}};
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const LaneBucket& b = buckets[i];
    const Micros from = start + static_cast<Micros>(i) * rule.bucket;
    const Micros to = std::min(from + rule.bucket, end);
    const double n = b.total;
    std::string_view state = "idle";
    if (b.total > 0) {
      if (b.failed >= rule.failed_share * n) {
        state = "failed";
      } else if (b.slow >= rule.slow_share * n) {
        state = "slow";
      } else if (2 * b.cached >= b.total) {
        state = "cached";
      } else {
        state = "fresh";
      }
    }
    lane.append(state, from, to);
  }
  return lane;
}

// Seconds that the intervals of lane `a` not in state `a_not_state` overlap intervals of lane `b`
// in state `b_state` (b == nullptr: no restriction).
double overlapSeconds(const Lane& a, std::string_view a_not_state, const Lane* b,
                      std::string_view b_state) {
  Micros total = 0;
  for (const auto& x : a.intervals) {
    if (x.state == a_not_state) continue;
    if (b == nullptr) {
      total += x.to - x.from;
      continue;
    }
    for (const auto& y : b->intervals) {
      if (y.state != b_state) continue;
      const Micros from = std::max(x.from, y.from);
      const Micros to = std::min(x.to, y.to);
      if (to > from) total += to - from;
    }
  }
  return toSeconds(total);
}

std::string tripLabel(const BreakerTransition& t, const BreakerConfig& config) {
  using C = BreakerTransition::Cause;
  std::ostringstream s;
  if (config.library == BreakerLibrary::envoy) {
    s << "host ejected by outlier detection";
    // Envoy keeps a host out for base_ejection_time times its ejection backoff (one more for each
    // ejection before the last decayed), capped at max_ejection_time (outlier_detection_impl.cc,
    // checkHostForUneject): say so, or a second ejection twice as long as the first reads as a
    // fault of the replay.
    if (t.ejection_length > 0) {
      s << " for " << toSeconds(t.ejection_length) << " s";
      if (t.ejection_multiplier > 1)
        s << " (" << t.ejection_multiplier
          << " \u00d7 base_ejection_time, at most max_ejection_time: ejected again before the "
             "last ejection decayed)";
    }
    return s.str();
  }
  if (config.library != BreakerLibrary::breakerlab) {
    s << libraryInfo(config.library).title << ": ";
    if (t.cause == C::consecutive) {
      s << t.window_failures << " consecutive failures";
    } else {
      s << t.window_failures << " of " << t.window_calls << " calls failed";
    }
    return s.str();
  }
  if (t.cause == C::consecutive) {
    s << t.window_failures << " consecutive failures";
  } else if (t.cause == C::slow_call_rate) {
    s << "slow calls at or above " << config.slow_call_rate_pct << "%";
  } else if (config.window_type == WindowType::time) {
    s << t.window_failures << " of " << t.window_calls << " calls in the last "
      << config.window_size << " s failed";
  } else {
    s << t.window_failures << " of last " << t.window_calls << " calls failed";
  }
  return s.str();
}

// What a library's own transition was, for its event label.
std::string transitionLabel(const BreakerTransition& t) {
  using C = BreakerTransition::Cause;
  switch (t.cause) {
    case C::health_green:
      return "half-open: health check seen green";
    case C::interval_elapsed:
      return t.to == BreakerState::half_open ? "half-open: open interval elapsed"
                                             : "open interval elapsed";
    case C::first_call_after_wait:
      return "half-open at the first call after the wait";
    case C::half_open_expired:
      return t.to == BreakerState::closed ? "closed: half-open wait elapsed"
                                          : "reopened: half-open wait elapsed";
    case C::probes_failed:
      return "trial failed";
    case C::probes_succeeded:
      return "trial succeeded";
    case C::late_result:
      return t.to == BreakerState::closed ? "closed by a late success"
                                          : "reopened by a late failure";
    case C::hosts_ejected:
      return t.to == BreakerState::open ? "every host ejected" : "hosts ejected";
    case C::hosts_returned:
      return t.to == BreakerState::closed ? "every host back" : "hosts back";
    default:
      return std::string(toString(t.cause));
  }
}

std::string probesLabel(const std::vector<const ProbeResult*>& spell) {
  std::map<std::string_view, int> by_outcome;
  for (const auto* p : spell) ++by_outcome[plainOutcome(p->outcome)];
  std::ostringstream s;
  s << spell.size() << (spell.size() == 1 ? " probe: " : " probes: ");
  bool first = true;
  for (const auto& [name, n] : by_outcome) {
    if (!first) s << ", ";
    first = false;
    if (by_outcome.size() > 1) s << n << " ";
    s << name;
  }
  return s.str();
}

void addEvents(const RunFacts& facts, const Config& config, const Result& result, Micros start,
               Micros end, std::vector<Event>& events) {
  auto inWindow = [&](Micros t) { return t >= start && t <= end; };
  for (std::size_t i = 1; i < result.health.intervals.size(); ++i) {
    const auto& h = result.health.intervals[i];
    const bool green = h.state == "green";
    events.push_back({h.from, green ? EventKind::health_green : EventKind::health_red, "dependency",
                      green ? "health check green" : "health check red"});
  }
  std::size_t probe_cursor = 0;
  std::vector<const ProbeResult*> spell;
  for (const auto& t : facts.transitions) {
    // Probe results up to this transition belong to the spell it ends.
    spell.clear();
    while (probe_cursor < facts.probes.size() && facts.probes[probe_cursor].at <= t.at) {
      const ProbeResult& p = facts.probes[probe_cursor++];
      spell.push_back(&p);
      if (inWindow(p.at)) {
        events.push_back({p.at, EventKind::probe, "breaker",
                          "probe " + std::to_string(p.index + 1) + "/" +
                              std::to_string(config.breaker.probes) + ": " +
                              std::string(plainOutcome(p.outcome))});
      }
    }
    if (!inWindow(t.at)) continue;
    switch (t.to) {
      case BreakerState::open:
        if (t.from == BreakerState::closed) {
          events.push_back({t.at, EventKind::trip, "breaker", tripLabel(t, config.breaker)});
        } else {
          events.push_back({t.at, EventKind::reopen, "breaker",
                            spell.empty() ? transitionLabel(t) : probesLabel(spell)});
        }
        break;
      case BreakerState::half_open:
        events.push_back({t.at, EventKind::half_open, "breaker", transitionLabel(t)});
        break;
      case BreakerState::closed:
        events.push_back({t.at, EventKind::close, "breaker",
                          spell.empty() ? transitionLabel(t) : probesLabel(spell)});
        break;
    }
  }
  for (const auto& e : facts.pod_events) {
    events.push_back({e.at, e.ejected ? EventKind::pod_ejected : EventKind::pod_returned, "pods",
                      "pod " + std::to_string(e.pod + 1) +
                          (e.ejected ? " ejected by the load balancer" : " back in rotation") +
                          " (" + std::to_string(e.in_rotation) + " of " +
                          std::to_string(facts.pods) + ")"});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.at < b.at; });
}

// One pass over the checkouts in arrival order: outcome counts, per-second series, the
// checkout lane's buckets and the latency histogram. Bucket boundaries move forward with the
// arrivals, so there is no division per checkout.
struct Tally {
  std::vector<LaneBucket> buckets;
  LatencyHistogram latency;
};

void tallyCheckouts(const Incident& incident, Result& result, Tally& tally, ReportParts parts) {
  Metrics& m = result.metrics;
  if (!parts.has(ReportPart::checkouts_per_second) && !parts.has(ReportPart::latency) &&
      !parts.has(ReportPart::lanes_and_events)) {
    // The outcomes alone: what a map's or a tune's replay reads.
    for (const CheckoutRecord& r : result.checkouts) {
      m.fresh_checkouts += r.outcome == CheckoutOutcome::fresh ? 1 : 0;
      m.failed_checkouts += r.outcome == CheckoutOutcome::failed ? 1 : 0;
      if (r.outcome == CheckoutOutcome::cached) {
        ++m.cached_checkouts;
        m.cached_window_checkouts += r.breaker_closed ? 0 : 1;
      }
    }
    m.checkouts = result.checkouts.size();
    return;
  }
  const bool latencies = parts.has(ReportPart::latency);
  const Micros start = incident.start;
  const Micros end = incident.end;
  const Micros bucket = incident.checkout_lane.bucket;
  const Micros slow = incident.checkout_lane.slow_latency;
  const auto seconds = static_cast<std::size_t>((end - start + kSecond - 1) / kSecond);
  SecondSeries& series = result.per_second;
  for (auto* v : {&series.checkouts, &series.fresh, &series.cached, &series.failed})
    v->assign(seconds, 0);
  tally.buckets.assign(static_cast<std::size_t>((end - start + bucket - 1) / bucket), {});

  std::size_t second = 0;
  Micros second_end = start + kSecond;
  std::size_t b = 0;
  Micros bucket_end = start + bucket;
  for (const CheckoutRecord& r : result.checkouts) {
    while (r.arrival >= second_end) ++second, second_end += kSecond;
    while (r.arrival >= bucket_end) ++b, bucket_end += bucket;
    LaneBucket& lane = tally.buckets[b];
    ++lane.total;
    lane.slow += r.latency_us > slow ? 1 : 0;
    ++series.checkouts[second];
    if (latencies) tally.latency.record(r.latency_us);
    switch (r.outcome) {
      case CheckoutOutcome::fresh:
        ++m.fresh_checkouts;
        ++series.fresh[second];
        break;
      case CheckoutOutcome::cached:
        ++m.cached_checkouts;
        m.cached_window_checkouts += r.breaker_closed ? 0 : 1;
        ++series.cached[second];
        ++lane.cached;
        break;
      case CheckoutOutcome::failed:
        ++m.failed_checkouts;
        ++series.failed[second];
        ++lane.failed;
        break;
    }
  }
  m.checkouts = result.checkouts.size();
}

// After the last red health span ends: the first second from which no second of the window
// has failed checkouts at or above the checkout lane's failed share.
std::optional<double> timeToRecover(const Incident& incident, const Result& result) {
  Micros trigger_end = kNever;
  for (const auto& h : result.health.intervals)
    if (h.state == "red") trigger_end = h.to;
  if (trigger_end == kNever || trigger_end >= incident.end) return std::nullopt;
  const SecondSeries& s = result.per_second;
  const double share = incident.checkout_lane.failed_share;
  std::size_t settled = s.checkouts.size();
  while (settled > 0) {
    const std::size_t i = settled - 1;
    const bool failing = s.checkouts[i] > 0 && s.failed[i] >= share * s.checkouts[i];
    if (failing) break;
    settled = i;
  }
  if (settled == s.checkouts.size()) return std::nullopt;  // still failing at the end
  const Micros recovered = incident.start + static_cast<Micros>(settled) * kSecond;
  return toSeconds(std::max<Micros>(0, recovered - trigger_end));
}

void computeResourceMetrics(const Incident& incident, const RunFacts& facts, Result& result) {
  Metrics& m = result.metrics;
  if (facts.pool_capacity > 0) {
    m.peak_pool_utilization_pct = 100.0 * facts.peak_pool / facts.pool_capacity;
    m.mean_pool_busy = facts.mean_pool;
    m.pool_wait_share_pct = facts.pool_acquisitions
                                ? 100.0 * static_cast<double>(facts.pool_waits) /
                                      static_cast<double>(facts.pool_acquisitions)
                                : 0.0;
    m.mean_pool_wait_ms = facts.pool_acquisitions
                              ? static_cast<double>(facts.pool_wait_sum) /
                                    static_cast<double>(facts.pool_acquisitions) / 1000.0
                              : 0.0;
  }
  m.pool_exhausted = facts.pool_exhausted;
  if (facts.worker_capacity > 0) {
    m.peak_worker_utilization_pct = 100.0 * facts.peak_workers / facts.worker_capacity;
    m.mean_workers_busy = facts.mean_workers;
    // As a dashboard with 10 s samples shows it: the mean over the 10 s before the trip.
    if (facts.first_trip && !facts.workers_second_means.empty()) {
      const auto trip_second =
          static_cast<std::size_t>((*facts.first_trip - incident.start) / kSecond);
      const std::size_t to = std::min(trip_second + 1, facts.workers_second_means.size());
      const std::size_t from = to > 10 ? to - 10 : 0;
      double busy = 0;
      for (std::size_t i = from; i < to; ++i) busy += facts.workers_second_means[i];
      if (to > from)
        m.worker_utilization_at_trip_pct =
            100.0 * busy / static_cast<double>(to - from) / facts.worker_capacity;
    }
  }
  m.worker_rejections = facts.worker_rejections;
  m.no_pod_rejections = facts.no_pod_rejections;
  if (facts.health_checks) {
    std::uint32_t least = facts.pods_in_rotation_at_start;
    for (const auto& e : facts.pod_events) {
      least = std::min(least, e.in_rotation);
      m.pod_ejections += e.ejected ? 1 : 0;
    }
    m.min_pods_in_rotation = least;
  }
  if (facts.dependency_limited || facts.pool_capacity > 0 || facts.worker_capacity > 0)
    m.peak_calls_in_flight = facts.peak_load;
  m.peak_pending_retries = facts.peak_pending_retries;
  if (!facts.dependency_utilization.empty()) {
    double peak = 0, saturated = 0;
    auto& busy = result.per_second.dependency_busy;
    busy.clear();
    for (double u : facts.dependency_utilization) {
      peak = std::max(peak, u);
      saturated += u >= 0.99 ? 1 : 0;
      busy.push_back(static_cast<std::uint32_t>(std::lround(100 * u)));
    }
    m.peak_dependency_utilization_pct = 100 * peak;
    m.dependency_saturated_s = saturated;
  }
  // Calls per second while the health check was red.
  double red_s = 0, red_calls = 0;
  const auto& calls = result.per_second.dependency_calls;
  for (const auto& h : result.health.intervals) {
    if (h.state != "red") continue;
    red_s += toSeconds(h.to - h.from);
    for (Micros t = h.from; t < h.to; t += kSecond) {
      const auto i = static_cast<std::size_t>((t - incident.start) / kSecond);
      if (i < calls.size()) red_calls += calls[i];
    }
  }
  if (red_s > 0) {
    m.dependency_load_while_unhealthy = red_calls / red_s;
    m.calls_to_failing_dependency = red_calls;
  }
  m.time_to_recover_s = timeToRecover(incident, result);
}

void computeMetrics(const Incident& incident, const RunFacts& facts, const Tally& tally,
                    Result& result) {
  Metrics& m = result.metrics;
  const Micros start = incident.start;
  const Micros end = incident.end;
  m.failed_pct = m.checkouts ? 100.0 * static_cast<double>(m.failed_checkouts) /
                                   static_cast<double>(m.checkouts)
                             : 0.0;
  m.cached_window_s = overlapSeconds(result.breaker, "closed", nullptr, {});
  m.cached_while_healthy_s = overlapSeconds(result.breaker, "closed", &result.health, "green");

  for (const auto& t : facts.transitions) {
    if (t.at < start || t.at > end) continue;
    if (t.from == BreakerState::closed) {
      ++m.trips;
      if (!m.time_to_trip_s) m.time_to_trip_s = toSeconds(t.at - t.episode_start);
    }
    if (t.from == BreakerState::half_open && t.to == BreakerState::open) ++m.reopens;
  }
  // Recovery: the last close in the window, measured from the start of the green spell it
  // falls in, when that spell began inside the window (health had been red).
  for (auto it = facts.transitions.rbegin(); it != facts.transitions.rend(); ++it) {
    if (it->to != BreakerState::closed || it->at < start || it->at > end) continue;
    for (const auto& h : result.health.intervals) {
      if (h.state == "green" && h.from <= it->at && it->at <= h.to && h.from > start)
        m.time_to_close_after_recovery_s = toSeconds(it->at - h.from);
    }
    break;
  }
  const FleetMetrics fleet = fleetMetrics(facts.fleet, start, end);
  m.pod_trips = fleet.pod_trips;
  m.pod_seconds_open = fleet.pod_seconds_open;
  m.any_pod_open_s = fleet.any_pod_open_s;
  m.all_pods_open_s = fleet.all_pods_open_s;
  m.trip_spread_s = fleet.trip_spread_s;
  m.close_spread_s = fleet.close_spread_s;
  if (!facts.fleet.empty()) {
    // The pod lanes the report drew, or (without lanes, or with a shared breaker) made here.
    std::vector<Lane> made;
    const std::vector<Lane>& lanes =
        result.pod_breakers.empty() ? (made = facts.fleet.lanes(start, end)) : result.pod_breakers;
    if (const auto cached = podCachedWhileHealthy(lanes, result.health)) {
      m.pod_cached_while_healthy_max_s = cached->max_s;
      m.pod_cached_while_healthy_mean_s = cached->mean_s;
    }
  }
  m.oldest_cached_price_s = toSeconds(facts.oldest_cached_age);
  m.dependency_calls = facts.dependency_calls;
  m.dependency_failures = facts.dependency_failures;
  m.rejected_calls = facts.rejected_calls;
  m.retries = facts.retries;
  m.retries_refused = facts.retries_refused;
  m.client_throttled = facts.client_throttled;
  m.amplification = m.checkouts
                        ? static_cast<double>(m.dependency_calls) / static_cast<double>(m.checkouts)
                        : 0.0;
  m.latency_p50_ms = tally.latency.quantileMicros(0.50) / 1000.0;
  m.latency_p95_ms = tally.latency.quantileMicros(0.95) / 1000.0;
  m.latency_p99_ms = tally.latency.quantileMicros(0.99) / 1000.0;
  m.latency_max_ms = static_cast<double>(tally.latency.max()) / 1000.0;
  if (facts.failed_checkouts_with_attempts > 0) {
    m.calls_per_failed_checkout = static_cast<double>(facts.failed_checkout_attempts) /
                                  static_cast<double>(facts.failed_checkouts_with_attempts);
  }
  m.mean_call_ms = facts.dependency_calls ? static_cast<double>(facts.call_duration_sum) /
                                                static_cast<double>(facts.dependency_calls) / 1000.0
                                          : 0.0;
  computeResourceMetrics(incident, facts, result);
}

}  // namespace

void buildReport(const Incident& incident, const Config& config, const HealthTimeline& health,
                 RunFacts& facts, Result& result, ReportParts parts) {
  const Micros start = incident.start;
  const Micros end = incident.end;
  // The metrics read the breaker and health lanes.
  result.breaker = breakerLane(facts.transitions, start, end);
  if (!facts.fleet.shared && !facts.fleet.empty() && parts.has(ReportPart::lanes_and_events)) {
    result.pod_breakers = facts.fleet.lanes(start, end);
    result.fleet = facts.fleet.shareLane(start, end);
    result.fleet_counts = facts.fleet.counts();
  }
  result.dependency = dependencyLane(incident.dependency, start, end);
  result.health = healthLane(health, start, end);
  Tally tally;
  tallyCheckouts(incident, result, tally, parts);
  if (parts.has(ReportPart::lanes_and_events)) {
    result.checkout = checkoutLane(tally.buckets, incident.checkout_lane, start, end);
    result.pods = podsLane(facts, start, end);
    addEvents(facts, config, result, start, end, result.events);
  }
  computeMetrics(incident, facts, tally, result);
}

}  // namespace breakerlab
