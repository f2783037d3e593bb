// A replay's set-up and its stages, in the order run() calls them.
#include <algorithm>

#include "replay/simulation.h"

namespace breakerlab {

Simulation::Simulation(const Incident& incident, const Config& config,
                       const std::function<bool(const ReplayProgress&)>* progress,
                       const std::vector<TimedChange>& changes)
    : incident_(incident),
      deployed_(config),
      config_(config),
      changes_(orderedChanges(changes)),
      shape_(RunShape::of(config, changes_)),
      rng_(incident.seed),
      health_(incident.dependency.health),
      breakers_(config.breaker, config.native, &health_, incident.start - incident.traffic.lead_in,
                instances(config.breaker.scope)),
      timeout_(effectiveTimeout(config)),
      dependency_(incident.dependency, firstWindowArrival(incident)),
      keys_(incident.traffic.keys),
      caches_(instances(config.cache.scope), PriceCache(keys_.count())),
      in_flight_(incident.start - incident.traffic.lead_in, shape_.longest_timeout),
      retries_(config.retry, shape_.max_pods),
      client_(keys_.count() * instances(config.cache.scope), incident.dependency.capacity,
              shape_.ceiling_moves),
      pods_(config.load_balancer.pods),
      workers_limit_(config.workers.per_pod),
      pool_limit_(poolLimit(config)),
      health_checks_(config.load_balancer.health_check.enabled),
      retry_modes_(config, changes_),
      fifo_timeout_(timeout_.attempt),
      cache_first_(config.pricing.mode == PricingMode::cache_first && config.cache.enabled),
      call_threads_(config.workers.call_threads && config.workers.per_pod > 0),
      controls_(config.retry.throttling.max_tokens > 0 ||
                config.retry.concurrency_budget.budget_percent > 0 ||
                config.client_throttling.k > 0),
      holds_calls_(config.breaker.enabled && breakers_.first().holdsCalls()),
      connects_(config.breaker.library == BreakerLibrary::envoy &&
                (config.breaker.enabled || shape_.breaker_switches)),
      progress_(progress),
      // Without a hook the countdown never reaches zero (2^64 events).
      until_progress_(progress != nullptr ? kProgressEveryEvents : ~std::uint64_t{0}) {
  resources_ = shape_.resources || client_.servers.limited();
  next_change_at_ = changes_.empty() ? kNever : changes_.front().at;
  if (!breakers_.single()) pod_transitions_.resize(breakers_.size());
  in_service_since_.assign(shape_.max_pods, kNever);
  for (std::uint32_t pod = 0; pod < config.load_balancer.pods; ++pod)
    in_service_since_[pod] = incident.start - incident.traffic.lead_in;
  if (!config.breaker.enabled) {
    breakers_.setBorn(kNever);
    breaker_off_since_ = incident.start - incident.traffic.lead_in;
  }
  if (health_checks_) pods_.startChecks(incident.start - incident.traffic.lead_in);
  if (config.client_throttling.k > 0)
    client_.throttles.assign(shape_.max_pods, AdaptiveThrottle(config.client_throttling));
}

// The stages of a replay, in order: the lead-in (or its snapshot), the window's arrivals, the
// tail in which requests still under way at the end run to completion, and the collection of
// the report.
Result Simulation::run(ReplayCache* cache) {
  if (const WorkerLimitRun* same = sameRunUnderWorkerLimit(cache)) {
    // The run this config makes is that one: only the capacity the report reads differs.
    ++workerLimitReuses();
    result_ = same->result;
    facts_ = same->facts;
    facts_.worker_capacity = workers_limit_ * shape_.max_pods;
    return report();
  }
  const std::size_t seconds = windowSeconds();
  if (parts_.has(ReportPart::calls_per_second)) {
    // Left empty otherwise: countAt() counts nothing past a series' end.
    result_.per_second.dependency_calls.assign(seconds, 0);
    result_.per_second.dependency_failures.assign(seconds, 0);
  }
  const std::uint64_t lead_in_requests = leadIn(cache);
  beginTracking();
  beginTail(cache);
  const std::uint64_t window_requests = window(cache);
  finishTracking();
  if (!joined_) dispatch<true, true>(kNever);  // the tail
  result_.simulated_requests = lead_in_requests + window_requests;
  return collect(cache);
}

// Replays the lead-in, or restores it from the cache's snapshot when that serves this config;
// returns the lead-in's requests.
std::uint64_t Simulation::leadIn(ReplayCache* cache) {
  const Traffic& traffic = incident_.traffic;
  const Micros start = incident_.start;
  const ReplayCache::Snapshot* snapshot = cache ? cache->snapshot_.get() : nullptr;
  if (snapshot != nullptr && snapshot->serves(incident_, config_, shape_)) {
    breakers_ = snapshot->breakers;
    breakers_.rebind(config_.breaker, &health_);
    dependency_ = snapshot->dependency;
    caches_ = snapshot->caches;
    in_flight_ = snapshot->in_flight;
    retries_ = snapshot->retries;
    client_ = snapshot->client;
    pods_ = snapshot->pods;
    held_ = snapshot->held;
    free_held_ = snapshot->free_held;
    lead_in_times_ = snapshot->times;
    workers_lo_ = snapshot->workers_lo;
    workers_hi_ = snapshot->workers_hi;
    if (snapshot->shape.longest_timeout != shape_.longest_timeout)
      in_flight_.respan(start - 1, shape_.longest_timeout);
    ++cache->hits_;
    return snapshot->lead_in_requests;
  }
  const ArrivalProcess lead_process =
      traffic.arrivals == ArrivalProcess::recorded ? ArrivalProcess::uniform : traffic.arrivals;
  ArrivalStream lead_in(lead_process, leadInRate(traffic, start, incident_.end),
                        start - traffic.lead_in, start, rng_, Stream::lead_in);
  for (Micros t = lead_in.next(); t != kNever; t = lead_in.next()) {
    arrive(t, Stream::lead_in, lead_in.produced() - 1, kLeadInRecord);
  }
  // Events due exactly at the window start belong to the window.
  if (start > start - traffic.lead_in) drain(start - 1);
  const std::uint64_t requests = lead_in.produced();
  if (cache != nullptr) {
    std::shared_ptr<const WindowArrivals> arrivals =
        cache->snapshot_ != nullptr ? std::move(cache->snapshot_->arrivals) : nullptr;
    std::shared_ptr<const WorkerLimitRun> worker_limit_run =
        cache->snapshot_ != nullptr ? std::move(cache->snapshot_->worker_limit_run) : nullptr;
    std::shared_ptr<const TailRun> tail_run =
        cache->snapshot_ != nullptr ? std::move(cache->snapshot_->tail_run) : nullptr;
    cache->snapshot_ = std::make_unique<ReplayCache::Snapshot>(ReplayCache::Snapshot{
        &incident_, incident_.seed, traffic.lead_in, config_, shape_, breakers_.anyTransitions(),
        lead_in_times_, breakers_, dependency_, caches_, in_flight_, retries_, client_, pods_,
        held_, free_held_, requests, std::move(arrivals)});
    cache->snapshot_->workers_lo = workers_lo_;
    cache->snapshot_->workers_hi = workers_hi_;
    cache->snapshot_->worker_limit_run = std::move(worker_limit_run);
    cache->snapshot_->tail_run = std::move(tail_run);
  }
  return requests;
}

// Every checkout of the window arrives, with the timed changes made as their times come and
// everything due by the window's end run; returns the checkouts.
std::uint64_t Simulation::window(ReplayCache* cache) {
  const Traffic& traffic = incident_.traffic;
  const Micros start = incident_.start;
  const Micros end = incident_.end;
  if (const WindowArrivals* drawn = drawnArrivals(cache)) {
    const std::size_t n = drawn->times.size();
    if (cache->spare_records_.capacity() >= n) {
      result_.checkouts = std::move(cache->spare_records_);
      result_.checkouts.clear();
    }
    result_.checkouts.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Micros t = drawn->times[i];
      const auto index = static_cast<std::uint32_t>(i);
      if (t >= next_checkpoint_ && checkpointsThrough(t, index)) [[unlikely]]
        return n;
      result_.checkouts.push_back(
          CheckoutRecord{t, 0, CheckoutOutcome::fresh, FailReason::none, true, 0});
      arriveWithKey(t, index, index, drawn->keys[i]);
    }
    if (next_change_at_ <= end) applyChangesThrough(end);
    drain(end);
    return n;
  }
  ArrivalStream arrivals =
      traffic.arrivals == ArrivalProcess::recorded
          ? ArrivalStream(traffic.recorded, start, end)
          : ArrivalStream(traffic.arrivals, traffic.rate, start, end, rng_, Stream::window);
  if (cache != nullptr && cache->spare_records_.capacity() >= expectedArrivals()) {
    result_.checkouts = std::move(cache->spare_records_);
    result_.checkouts.clear();
  }
  result_.checkouts.reserve(expectedArrivals());
  for (Micros t = arrivals.next(); t != kNever; t = arrivals.next()) {
    const auto index = static_cast<std::uint32_t>(result_.checkouts.size());
    result_.checkouts.push_back(
        CheckoutRecord{t, 0, CheckoutOutcome::fresh, FailReason::none, true, 0});
    arrive(t, Stream::window, index, index);
  }
  if (next_change_at_ <= end) applyChangesThrough(end);
  drain(end);
  return arrivals.produced();
}

// The window's arrivals as the cache keeps them (drawn now if it has none for this incident),
// or nullptr: no cache, or traffic that is read rather than drawn.
const WindowArrivals* Simulation::drawnArrivals(ReplayCache* cache) {
  if (cache == nullptr || cache->snapshot_ == nullptr || !WindowArrivals::applies(incident_))
    return nullptr;
  std::shared_ptr<const WindowArrivals>& drawn = cache->snapshot_->arrivals;
  if (drawn == nullptr || !drawn->drawnFor(incident_)) drawn = WindowArrivals::draw(incident_);
  return drawn.get();
}

// The report: lanes, metrics and events from what the run recorded.
Result Simulation::collect(ReplayCache* cache) {
  for (std::uint32_t i = 0; i < breakers_.size(); ++i) retireBreaker(i, breakers_.at(i));
  for (std::uint32_t pod = 0; pod < in_service_since_.size(); ++pod)
    if (in_service_since_[pod] != kNever)
      pod_spans_.push_back({pod, in_service_since_[pod], kNever});
  if (breakers_.single()) {
    facts_.transitions = std::move(earlier_transitions_);
    facts_.probes = std::move(earlier_probes_);
    // Every pod behind the one breaker: the fleet's metrics count it once per pod in service.
    facts_.fleet = FleetBreakers{{facts_.transitions}, std::move(pod_spans_), true};
  } else {
    // Per pod: each pod's lane, and the fleet's at a glance.
    facts_.fleet = FleetBreakers{std::move(pod_transitions_), std::move(pod_spans_)};
    facts_.transitions = facts_.fleet.summary();
  }
  if (client_.servers.limited()) facts_.dependency_utilization = client_.servers.utilization();
  keepForOtherWorkerLimits(cache);
  keepTail(cache);
  return report();
}

// Lanes, metrics and events from the facts and records.
Result Simulation::report() {
  buildReport(incident_, deployed_, health_, facts_, result_, parts_);
  if (!changes_.empty()) reportChanges();
  if (!deployed_.breaker.enabled && !shape_.breaker_switches) {
    // Off for the whole run: a lane that says so, not one "closed" bar (the metrics above
    // were taken from the machine's lane, which never moved).
    Lane off{result_.breaker.name, {}};
    off.append(kBreakerDisabled, incident_.start, incident_.end);
    result_.breaker = std::move(off);
  }
  return std::move(result_);
}

// The window's seconds, the last one partial.
std::size_t Simulation::windowSeconds() const {
  return static_cast<std::size_t>((incident_.end - incident_.start + kSecond - 1) / kSecond);
}

std::size_t Simulation::expectedArrivals() const {
  const Traffic& traffic = incident_.traffic;
  if (traffic.arrivals == ArrivalProcess::recorded) return traffic.recorded.size();
  double total = 0;
  for (const auto& p : traffic.rate) {
    const Micros from = std::max(p.from, incident_.start);
    const Micros to = std::min(p.to, incident_.end);
    if (to > from) total += 0.5 * (p.rps_from + p.rps_to) * toSeconds(to - from);
  }
  return static_cast<std::size_t>(total * 1.05 + 16);
}

void Simulation::beginTracking() {
  const Micros start = incident_.start, end = incident_.end;
  // A level not begun is not followed (report parts left out).
  if (resources_) {
    if (workers_limit_ > 0 && parts_.has(ReportPart::worker_levels))
      levels_.workers.begin(start, end, pods_.workersBusy());
    if (shape_.pool_tracked && parts_.has(ReportPart::pool_levels))
      levels_.pool.begin(start, end, pods_.poolBusy());
    if ((health_checks_ || shape_.max_pods != config_.load_balancer.pods) &&
        parts_.has(ReportPart::pods_in_rotation))
      levels_.ejected.begin(start, end, shape_.max_pods - pods_.inRotation());
    if (parts_.has(ReportPart::calls_in_flight))
      levels_.load.begin(start, end, client_.calls_in_flight);
  }
  if (shape_.retries && parts_.has(ReportPart::pending_retries))
    levels_.pending.begin(start, end, static_cast<std::uint32_t>(retries_.waiting()));
  facts_.pods = config_.load_balancer.pods;
  facts_.pods_in_rotation_at_start = pods_.inRotation();
  facts_.health_checks = health_checks_;
  // With pods scaled during the run, the capacities are the largest it reaches.
  facts_.worker_capacity = workers_limit_ * shape_.max_pods;
  facts_.pool_capacity = shape_.max_pool_capacity;
  facts_.dependency_limited = client_.servers.limited();
  if (client_.servers.limited() && parts_.has(ReportPart::dependency_use))
    client_.servers.recordUsage(start, end);
}

void Simulation::reportProgress(Micros now) {
  until_progress_ = progress_every_;
  progress_events_ += progress_every_;
  const Micros run_start = incident_.start - incident_.traffic.lead_in;
  const double span = static_cast<double>(incident_.end - run_start);
  const double done = span > 0 ? static_cast<double>(now - run_start) / span : 1.0;
  if (!(*progress_)(ReplayProgress{std::clamp(done, 0.0, 1.0), progress_events_}))
    throw ReplayCancelled();
}

}  // namespace breakerlab
