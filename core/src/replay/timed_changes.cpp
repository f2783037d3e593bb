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
    for (std::size_t pod = 0; pod < client_.pods.size(); ++pod)
      while (client_.pods[pod].pool_busy < pool_limit_ &&
             serveNextWaiter(static_cast<std::uint16_t>(pod), t)) {
        ++client_.pods[pod].pool_busy;
        levels_.pool.set(t, ++client_.pool_busy);
      }
  if (config_.load_balancer.pods != before.load_balancer.pods) scalePods(t, before);
  if (config_.breaker.enabled != before.breaker.enabled) switchBreaker(t);
}

void Simulation::scalePods(Micros t, const Config& before) {
  const std::uint32_t pods = config_.load_balancer.pods;
  if (client_.pods.size() < pods) {
    // New pods join below, counted as they do.
    const std::size_t old_size = client_.pods.size();
    client_.pods.resize(pods);
    for (std::size_t i = old_size; i < pods; ++i) client_.pods[i].in_rotation = false;
  }
  for (std::uint32_t i = 0; i < client_.pods.size(); ++i) {
    Pod& p = client_.pods[i];
    const bool serving = i < pods;
    if (serving && i >= before.load_balancer.pods) {
      // Added (or added back): in rotation, its health counters fresh.
      p.failed_checks = p.passed_checks = 0;
      if (!p.in_rotation) {
        p.in_rotation = true;
        ++client_.in_rotation;
      }
    } else if (!serving && p.in_rotation) {
      p.in_rotation = false;
      --client_.in_rotation;
    }
  }
  levels_.ejected.set(t, shape_.max_pods - client_.in_rotation);
  if (client_.round_robin >= pods) client_.round_robin = 0;
  if (health_checks_) {
    client_.checks_origin = std::max(t, client_.next_check_at);
    client_.checks_done = 0;
    client_.next_check_at = client_.checks_origin;
  }
}

void Simulation::switchBreaker(Micros t) {
  if (config_.breaker.enabled) {
    // A new breaker, closed and empty, that sees the calls from now on.
    earlier_transitions_.insert(earlier_transitions_.end(), breaker_.transitions().begin(),
                                breaker_.transitions().end());
    earlier_probes_.insert(earlier_probes_.end(), breaker_.probeResults().begin(),
                           breaker_.probeResults().end());
    breaker_ = Breaker(config_.breaker, config_.native, &health_, t);
    breaker_since_ = t;
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
