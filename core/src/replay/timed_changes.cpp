// The operators' changes, made as their times come, and how the report shows them.
#include <algorithm>

#include "replay/simulation.h"

namespace breakerlab {

// Everything due before each change runs first; a change applies before anything else due
// at its time.
void Simulation::applyChangesThrough(Micros t) {
  while (next_change_at_ <= t) {
    const TimedChange& change = changes_[next_change_];
    drain(change.at - 1);
    applyTimedChange(change);
    ++next_change_;
    next_change_at_ = next_change_ < changes_.size() ? changes_[next_change_].at : kNever;
  }
}

void Simulation::applyTimedChange(const TimedChange& change) {
  const Micros t = change.at;
  const Config before = config_;
  applyChange(config_, change);
  timeout_ = effectiveTimeout(config_);
  cache_first_ = config_.pricing.mode == PricingMode::cache_first && config_.cache.enabled;
  pool_limit_ = poolLimit(config_);
  if (config_.pool.size > before.pool.size || (before.pool.size > 0 && config_.pool.size == 0))
    for (std::uint16_t pod = 0; pod < pods_.size(); ++pod)
      // A grown pool opens a connection for each waiter, up to its new size.
      for (PendingCall waiter; pods_.belowConnectionLimit(pod, podLimits()) &&
                               pods_.nextConnectionWaiter(pod, waiter);) {
        serveWaiter(waiter, t);
        levels_.pool.set(t, pods_.openConnection(pod));
      }
  if (config_.load_balancer.pods != before.load_balancer.pods) scalePods(t, before);
  if (config_.breaker.enabled != before.breaker.enabled) switchBreaker(t);
  // The dependency's keys: its model draws the latency, its servers keep the ceiling.
  const DependencyScales scales_before = dependency_scales_;
  applyChange(dependency_scales_, change);
  if (dependency_scales_.latency != scales_before.latency)
    dependency_.scaleLatency(dependency_scales_.latency);
  const DependencyCapacity& capacity = incident_.dependency.capacity;
  // Without a ceiling there is nothing to scale (validate(Incident) refuses such a change).
  if (dependency_scales_.capacity != scales_before.capacity && capacity.hasCeiling())
    client_.servers.setCeiling(t, capacity.scaledConcurrency(dependency_scales_.capacity));
}

void Simulation::scalePods(Micros t, const Config& before) {
  const std::uint32_t pods = config_.load_balancer.pods;
  // Added (or added back) pods are in rotation with their health counters fresh; scaled-in ones
  // leave it.
  pods_.scale(pods, before.load_balancer.pods);
  for (std::uint32_t i = 0; i < pods_.size(); ++i) {
    const bool serving = i < pods;
    // An added pod's breaker, cache and retry accounts are new (per pod).
    if (serving && i >= before.load_balancer.pods) renewPod(t, static_cast<std::uint16_t>(i));
    if (!serving && i < in_service_since_.size() && in_service_since_[i] != kNever) {
      // Scaled in: the pod's state goes with it.
      pod_spans_.push_back({i, in_service_since_[i], t});
      in_service_since_[i] = kNever;
    }
  }
  levels_.ejected.set(t, shape_.max_pods - pods_.inRotation());
  if (health_checks_) pods_.restartChecks(t);
}

void Simulation::renewPod(Micros t, std::uint16_t pod) {
  if (!breakers_.single()) {
    breakers_.replace(pod, config_.breaker, config_.native, &health_,
                      config_.breaker.enabled ? t : kNever,
                      [this](std::uint32_t index, const Breaker& b) { retireBreaker(index, b); });
  }
  if (in_service_since_[pod] == kNever) in_service_since_[pod] = t;
  if (caches_.size() > 1) {
    caches_[pod] = PriceCache(keys_.count());
    for (std::uint32_t key = 0; key < keys_.count(); ++key) {
      client_.refreshing[cacheSlot(pod, key)] = 0;
      client_.refreshed_at[cacheSlot(pod, key)] = kNever;
    }
  }
  retries_.resetPod(pod, config_.retry);
  if (!client_.throttles.empty())
    client_.throttles[pod] = AdaptiveThrottle(config_.client_throttling);
}

// The breaker of `index` is replaced or the run ends: what it did goes to the report.
void Simulation::retireBreaker(std::uint32_t index, const Breaker& breaker) {
  if (breakers_.single()) {
    earlier_transitions_.insert(earlier_transitions_.end(), breaker.transitions().begin(),
                                breaker.transitions().end());
    earlier_probes_.insert(earlier_probes_.end(), breaker.probeResults().begin(),
                           breaker.probeResults().end());
    return;
  }
  std::vector<BreakerTransition>& lane = pod_transitions_[index];
  lane.insert(lane.end(), breaker.transitions().begin(), breaker.transitions().end());
}

void Simulation::switchBreaker(Micros t) {
  if (config_.breaker.enabled) {
    // A new breaker (one in every pod), closed and empty, that sees the calls from now on.
    for (std::uint32_t i = 0; i < breakers_.size(); ++i)
      breakers_.replace(i, config_.breaker, config_.native, &health_, t,
                        [this](std::uint32_t index, const Breaker& b) { retireBreaker(index, b); });
    if (breaker_off_since_ != kNever) breaker_off_.push_back({breaker_off_since_, t});
    breaker_off_since_ = kNever;
  } else {
    breaker_off_since_ = t;
  }
}

// The changes as events, and the breaker lane "disabled" where a change had switched it off.
void Simulation::reportChanges() {
  std::vector<Event> changes;
  for (const TimedChange& c : changes_) {
    std::string text;
    for (const ConfigEdit& e : c.edits) {
      if (!text.empty()) text += ", ";
      text += std::string(timedKeyInfo(e.key).name);
    }
    changes.push_back({c.at, EventKind::change, "changes", c.label.empty() ? text : c.label});
  }
  std::vector<Event> merged;
  merged.reserve(result_.events.size() + changes.size());
  std::merge(result_.events.begin(), result_.events.end(), changes.begin(), changes.end(),
             std::back_inserter(merged),
             [](const Event& a, const Event& b) { return a.at < b.at; });
  result_.events = std::move(merged);
  if (!shape_.breaker_switches) return;
  std::vector<std::pair<Micros, Micros>> off = breaker_off_;
  if (breaker_off_since_ != kNever) off.push_back({breaker_off_since_, incident_.end});
  const Micros start = incident_.start, end = incident_.end;
  Lane lane{result_.breaker.name, {}};
  auto offAt = [&](Micros t) {
    for (const auto& [a, b] : off)
      if (t >= a && t < b) return true;
    return false;
  };
  // Cut the lane at every off-spell boundary and rename what falls inside.
  std::vector<Micros> cuts;
  for (const auto& i : result_.breaker.intervals) cuts.push_back(i.from);
  for (const auto& [a, b] : off) {
    cuts.push_back(std::clamp(a, start, end));
    cuts.push_back(std::clamp(b, start, end));
  }
  cuts.push_back(end);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const Micros a = cuts[k], b = cuts[k + 1];
    if (b <= a) continue;
    lane.append(offAt(a) ? kBreakerDisabled : result_.breaker.stateAt(a), a, b);
  }
  result_.breaker = std::move(lane);
}

}  // namespace breakerlab
