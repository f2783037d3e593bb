#include "replay/replay_cache.h"

namespace breakerlab {

Config leadInView(Config config, bool breaker_moved, bool calls_outlasted) {
  const Config defaults;
  if (calls_outlasted) {
    config.timeout = defaults.timeout;
    const RetryBudget budget = config.retry.budget;
    const RetryTokenBucket bucket = config.retry.token_bucket;
    const RetryThrottling throttling = config.retry.throttling;
    const RetryConcurrencyBudget concurrency_budget = config.retry.concurrency_budget;
    config.retry = defaults.retry;
    config.retry.budget = budget;
    config.retry.token_bucket = bucket;
    config.retry.throttling = throttling;
    config.retry.concurrency_budget = concurrency_budget;
  }
  if (config.pricing.mode != PricingMode::cache_first) {
    // The settings go unread, but the prices the lead-in stored are kept per pod or for the fleet.
    const StateScope scope = config.cache.scope;
    config.cache = defaults.cache;
    config.cache.scope = scope;
  }
  if (config.breaker.library == BreakerLibrary::breakerlab) {
    config.native = defaults.native;
    if (!breaker_moved) {
      BreakerConfig& b = config.breaker;
      const BreakerConfig& d = defaults.breaker;
      b.open_interval = d.open_interval;
      b.backoff_multiplier = d.backoff_multiplier;
      b.backoff_max = d.backoff_max;
      b.early_probe = d.early_probe;
      b.early_probe_poll = d.early_probe_poll;
      b.probes = d.probes;
      b.probe_spacing = d.probe_spacing;
      b.close_when = d.close_when;
      b.reopen_on_first_failure = d.reopen_on_first_failure;
    }
  }
  return config;
}

bool ReplayCache::Snapshot::serves(const Incident& i, const Config& c,
                                   const RunShape& run_shape) const {
  if (incident != &i || seed != i.seed || lead_in != i.traffic.lead_in) return false;
  // The snapshot's own timeouts outlasted every lead-in call unless one failed (a call as long as
  // its timeout is a timeout), so only the new config's need asking.
  const bool outlasted = times.outlastedBy(effectiveTimeout(c));
  RunShape lead_in_shape = shape;
  if (outlasted) {
    // Set up from the start for what the window needs; the lead-in used neither.
    lead_in_shape.longest_timeout = run_shape.longest_timeout;
    lead_in_shape.retries = run_shape.retries;
  }
  if (!(lead_in_shape == run_shape)) return false;
  return leadInView(config, breaker_moved, outlasted) == leadInView(c, breaker_moved, outlasted);
}

std::uint64_t& workerLimitReuses() {
  thread_local std::uint64_t reuses = 0;
  return reuses;
}

std::uint64_t& tailJoins() {
  thread_local std::uint64_t joins = 0;
  return joins;
}

ReplayCache::ReplayCache() = default;
ReplayCache::~ReplayCache() = default;
ReplayCache::ReplayCache(ReplayCache&&) noexcept = default;
ReplayCache& ReplayCache::operator=(ReplayCache&&) noexcept = default;
void ReplayCache::clear() {
  snapshot_.reset();
}

bool ReplayCache::servesLeadIn(const Incident& incident, const Config& config,
                               const std::vector<TimedChange>& changes) const {
  return snapshot_ != nullptr &&
         snapshot_->serves(incident, config, RunShape::of(config, orderedChanges(changes)));
}

void ReplayCache::shareLeadIn(const ReplayCache& from, const Incident& from_incident,
                              const Incident& to) {
  if (from.snapshot_ == nullptr || from.snapshot_->incident != &from_incident) return;
  if (from_incident.traffic.arrivals == ArrivalProcess::recorded) return;
  if (to.start != from_incident.start || to.seed != from_incident.seed ||
      !(to.traffic.rate == from_incident.traffic.rate) ||
      to.traffic.lead_in != from_incident.traffic.lead_in ||
      to.traffic.arrivals != from_incident.traffic.arrivals)
    return;
  snapshot_ = std::make_unique<Snapshot>(*from.snapshot_);
  snapshot_->incident = &to;
}

}  // namespace breakerlab
