#include "breakerlab/core/simulate.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "breakerlab/core/breaker.h"
#include "dependency_model.h"
#include "health_timeline.h"
#include "in_flight.h"
#include "random.h"
#include "run_facts.h"
#include "traffic_model.h"

namespace breakerlab {

namespace {
constexpr std::uint32_t kLeadIn = 0xffffffffu;  // record index of a lead-in request

// The closed-state rules: all that a lead-in in which the breaker never left closed depends on.
bool sameClosedRules(const BreakerConfig& a, const BreakerConfig& b) {
  return a.enabled == b.enabled && a.window_type == b.window_type &&
         a.window_size == b.window_size && a.min_calls == b.min_calls &&
         a.failure_rate_pct == b.failure_rate_pct &&
         a.consecutive_failures == b.consecutive_failures &&
         a.slow_call_duration == b.slow_call_duration &&
         a.slow_call_rate_pct == b.slow_call_rate_pct && a.failures == b.failures;
}
}  // namespace

// The simulation's state right after the lead-in. The cache's fallback settings are not part of
// it: the lead-in's requests are not counted, so nothing in it reads the cache.
struct ReplayCache::Snapshot {
  const Incident* incident;
  std::uint64_t seed;
  Micros lead_in;
  Config config;
  bool breaker_moved;  // the breaker left the closed state during the lead-in
  CircuitBreaker breaker;
  DependencyModel dependency;
  std::vector<Micros> price_fetched_at;
  InFlight in_flight;
  std::uint64_t lead_in_requests;

  bool serves(const Incident& i, const Config& c) const {
    if (incident != &i || seed != i.seed || lead_in != i.traffic.lead_in) return false;
    if (!(config.timeout == c.timeout)) return false;
    return breaker_moved ? config.breaker == c.breaker : sameClosedRules(config.breaker, c.breaker);
  }
};

ReplayCache::ReplayCache() = default;
ReplayCache::~ReplayCache() = default;
ReplayCache::ReplayCache(ReplayCache&&) noexcept = default;
ReplayCache& ReplayCache::operator=(ReplayCache&&) noexcept = default;
void ReplayCache::clear() {
  snapshot_.reset();
}

class Simulation {
 public:
  Simulation(const Incident& incident, const Config& config)
      : incident_(incident),
        config_(config),
        rng_(incident.seed),
        health_(incident.dependency.health),
        breaker_(config.breaker, &health_),
        dependency_(incident.dependency),
        keys_(incident.traffic.keys),
        price_fetched_at_(keys_.count(), kNever),
        in_flight_(incident.start - incident.traffic.lead_in, config.timeout.attempt) {}

  Result run(ReplayCache* cache) {
    const Traffic& traffic = incident_.traffic;
    const Micros start = incident_.start;
    const Micros end = incident_.end;
    const auto seconds = static_cast<std::size_t>((end - start + kSecond - 1) / kSecond);
    result_.per_second.dependency_calls.assign(seconds, 0);
    result_.per_second.dependency_failures.assign(seconds, 0);

    std::uint64_t lead_in_requests = 0;
    const ReplayCache::Snapshot* snapshot = cache ? cache->snapshot_.get() : nullptr;
    if (snapshot != nullptr && snapshot->serves(incident_, config_)) {
      breaker_ = snapshot->breaker;
      breaker_.rebind(config_.breaker, &health_);
      dependency_ = snapshot->dependency;
      price_fetched_at_ = snapshot->price_fetched_at;
      in_flight_ = snapshot->in_flight;
      lead_in_requests = snapshot->lead_in_requests;
      ++cache->hits_;
    } else {
      const ArrivalProcess lead_process =
          traffic.arrivals == ArrivalProcess::recorded ? ArrivalProcess::uniform : traffic.arrivals;
      ArrivalStream lead_in(lead_process, leadInRate(traffic, start, end), start - traffic.lead_in,
                            start, rng_, Stream::lead_in);
      for (Micros t = lead_in.next(); t != kNever; t = lead_in.next()) {
        arrive(t, Stream::lead_in, lead_in.produced() - 1, kLeadIn);
      }
      lead_in_requests = lead_in.produced();
      if (cache != nullptr) {
        cache->snapshot_ = std::make_unique<ReplayCache::Snapshot>(ReplayCache::Snapshot{
            &incident_, incident_.seed, traffic.lead_in, config_, !breaker_.transitions().empty(),
            breaker_, dependency_, price_fetched_at_, in_flight_, lead_in_requests});
      }
    }

    ArrivalStream window =
        traffic.arrivals == ArrivalProcess::recorded
            ? ArrivalStream(traffic.recorded, start, end)
            : ArrivalStream(traffic.arrivals, traffic.rate, start, end, rng_, Stream::window);
    result_.checkouts.reserve(expectedArrivals());
    for (Micros t = window.next(); t != kNever; t = window.next()) {
      const auto index = static_cast<std::uint32_t>(result_.checkouts.size());
      result_.checkouts.push_back(
          CheckoutRecord{t, 0, CheckoutOutcome::fresh, FailReason::none, true, 0});
      arrive(t, Stream::window, index, index);
    }
    drain(end);
    while (!in_flight_.empty()) complete(in_flight_.pop());  // calls still out at the end
    result_.simulated_requests = lead_in_requests + window.produced();

    facts_.transitions = breaker_.transitions();
    facts_.probes = breaker_.probeResults();
    buildReport(incident_, config_, health_, facts_, result_);
    return std::move(result_);
  }

 private:
  std::size_t expectedArrivals() const {
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

  // Runs every completion and breaker timer due at or before t. Completions go first at
  // equal times, then timers, then the arrival that called this.
  void drain(Micros t) {
    for (;;) {
      const Micros completion = in_flight_.nextAt();
      const Micros timer = breaker_.nextTimer();
      if (completion <= timer) {
        if (completion > t) return;
        complete(in_flight_.pop());
      } else {
        if (timer > t) return;
        breaker_.fireTimer();
      }
    }
  }

  void arrive(Micros t, Stream stream, std::uint64_t request, std::uint32_t record) {
    if (t >= in_flight_.nextAt() || t >= breaker_.nextTimer()) drain(t);
    const std::uint32_t key = keys_.sample(rng_.uniform(stream, request, 0, Purpose::key));
    const bool counted = record != kLeadIn;
    CircuitBreaker::Permit permit{true, false, 0, 0};
    if (config_.breaker.enabled) {
      if (counted)
        result_.checkouts[record].breaker_closed = breaker_.state() == BreakerState::closed;
      permit = breaker_.acquire(t);
    }
    if (!permit.permitted) {
      if (counted) {
        ++facts_.rejected_calls;
        fallBack(record, key, t, 0);
      }
      return;
    }
    const DependencyAnswer answer = dependency_.answer(t, rng_, stream, request, 0);
    const Micros timeout = config_.timeout.attempt;
    PendingCall call{0, t, key, record, permit, answer.outcome};
    if (counted) {
      ++facts_.dependency_calls;
      ++result_.per_second.dependency_calls[secondOf(t)];
    }
    if (answer.latency >= timeout) {
      call.at = t + timeout;
      call.outcome = CallOutcome::timeout;
      in_flight_.pushTimeout(call);
    } else {
      call.at = t + answer.latency;
      in_flight_.push(call);
    }
    if (counted && config_.breaker.failures.contains(call.outcome)) {
      ++facts_.dependency_failures;
      ++result_.per_second.dependency_failures[secondOf(t)];
    }
  }

  void complete(const PendingCall& call) {
    const Micros duration = call.at - call.start;
    if (config_.breaker.enabled) breaker_.record(call.at, call.permit, call.outcome, duration);
    if (call.outcome == CallOutcome::success) price_fetched_at_[call.key] = call.at;
    if (call.record == kLeadIn) return;
    switch (call.outcome) {
      case CallOutcome::success:
        finish(call.record, CheckoutOutcome::fresh, FailReason::none, duration);
        break;
      case CallOutcome::client_error:
        finish(call.record, CheckoutOutcome::failed, FailReason::client_error, duration);
        break;
      default:
        fallBack(call.record, call.key, call.at, duration);
    }
  }

  void fallBack(std::uint32_t record, std::uint32_t key, Micros now, Micros waited) {
    const Micros fetched = price_fetched_at_[key];
    if (config_.cache.enabled && fetched != kNever && now - fetched < config_.cache.ttl) {
      facts_.oldest_cached_age = std::max(facts_.oldest_cached_age, now - fetched);
      finish(record, CheckoutOutcome::cached, FailReason::none, waited);
    } else {
      finish(record, CheckoutOutcome::failed, FailReason::cache_miss, waited);
    }
  }

  void finish(std::uint32_t record, CheckoutOutcome outcome, FailReason reason, Micros latency) {
    CheckoutRecord& r = result_.checkouts[record];
    r.outcome = outcome;
    r.reason = reason;
    r.latency_us = static_cast<std::int32_t>(std::min<Micros>(latency, INT32_MAX));
  }

  std::size_t secondOf(Micros t) const {
    return static_cast<std::size_t>((t - incident_.start) / kSecond);
  }

  const Incident& incident_;
  const Config& config_;
  CounterRng rng_;
  HealthTimeline health_;
  CircuitBreaker breaker_;
  DependencyModel dependency_;
  KeySampler keys_;
  std::vector<Micros> price_fetched_at_;
  InFlight in_flight_;
  RunFacts facts_;
  Result result_;
};

Result simulate(const Incident& incident, const Config& config) {
  return Simulation(incident, config).run(nullptr);
}

Result simulate(const Incident& incident, const Config& config, ReplayCache& cache) {
  return Simulation(incident, config).run(&cache);
}

const Lane* Result::lane(std::string_view name) const {
  for (const Lane* l : {&breaker, &dependency, &health, &checkout})
    if (l->name == name) return l;
  return nullptr;
}

}  // namespace breakerlab
