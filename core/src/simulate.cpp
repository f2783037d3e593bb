#include "breakerlab/core/simulate.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "breakerlab/core/breaker.h"
#include "dependency_model.h"
#include "health_timeline.h"
#include "in_flight.h"
#include "random.h"
#include "retry_governor.h"
#include "run_facts.h"
#include "traffic_model.h"

namespace breakerlab {

namespace {

// Attempts waiting for their backoff to end, earliest first (ties in the order they were
// scheduled).
class RetryQueue {
 public:
  bool empty() const { return heap_.empty(); }
  Micros nextAt() const { return heap_.empty() ? kNever : heap_.front().call.at; }
  void push(const PendingCall& c) {
    heap_.push_back({c, seq_++});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  PendingCall pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    PendingCall c = heap_.back().call;
    heap_.pop_back();
    return c;
  }

 private:
  struct Entry {
    PendingCall call;
    std::uint64_t seq;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.call.at != b.call.at ? a.call.at > b.call.at : a.seq > b.seq;
    }
  };
  std::vector<Entry> heap_;
  std::uint64_t seq_ = 0;
};

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
  RetryQueue retries;
  RetryGovernor governor;
  std::uint64_t lead_in_requests;

  bool serves(const Incident& i, const Config& c) const {
    if (incident != &i || seed != i.seed || lead_in != i.traffic.lead_in) return false;
    if (!(config.timeout == c.timeout) || !(config.retry == c.retry)) return false;
    if (config.breaker.placement != c.breaker.placement) return false;
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
        in_flight_(incident.start - incident.traffic.lead_in, config.timeout.attempt),
        governor_(config.retry) {}

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
      retries_ = snapshot->retries;
      governor_ = snapshot->governor;
      lead_in_requests = snapshot->lead_in_requests;
      ++cache->hits_;
    } else {
      const ArrivalProcess lead_process =
          traffic.arrivals == ArrivalProcess::recorded ? ArrivalProcess::uniform : traffic.arrivals;
      ArrivalStream lead_in(lead_process, leadInRate(traffic, start, end), start - traffic.lead_in,
                            start, rng_, Stream::lead_in);
      for (Micros t = lead_in.next(); t != kNever; t = lead_in.next()) {
        arrive(t, Stream::lead_in, lead_in.produced() - 1, kLeadInRecord);
      }
      lead_in_requests = lead_in.produced();
      if (cache != nullptr) {
        cache->snapshot_ = std::make_unique<ReplayCache::Snapshot>(ReplayCache::Snapshot{
            &incident_, incident_.seed, traffic.lead_in, config_, !breaker_.transitions().empty(),
            breaker_, dependency_, price_fetched_at_, in_flight_, retries_, governor_,
            lead_in_requests});
      }
    }

    ArrivalStream window =
        traffic.arrivals == ArrivalProcess::recorded
            ? ArrivalStream(traffic.recorded, start, end)
            : ArrivalStream(traffic.arrivals, traffic.rate, start, end, rng_, Stream::window);
    if (cache != nullptr && cache->spare_records_.capacity() >= expectedArrivals()) {
      result_.checkouts = std::move(cache->spare_records_);
      result_.checkouts.clear();
    }
    result_.checkouts.reserve(expectedArrivals());
    for (Micros t = window.next(); t != kNever; t = window.next()) {
      const auto index = static_cast<std::uint32_t>(result_.checkouts.size());
      result_.checkouts.push_back(
          CheckoutRecord{t, 0, CheckoutOutcome::fresh, FailReason::none, true, 0});
      arrive(t, Stream::window, index, index);
    }
    drain(end);
    // Requests still in their retry loop at the end run to completion; breaker timers after the
    // window no longer matter.
    while (!in_flight_.empty() || !retries_.empty()) {
      if (in_flight_.nextAt() <= retries_.nextAt()) {
        complete(in_flight_.pop());
      } else {
        startRetry(retries_.pop());
      }
    }
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

  // Runs everything due at or before t, in this order at equal times: call completions, breaker
  // timers, attempts whose backoff ended; then the arrival that called this.
  void drain(Micros t) {
    for (;;) {
      const Micros completion = in_flight_.nextAt();
      const Micros timer = breaker_.nextTimer();
      const Micros retry = retries_.nextAt();
      if (completion <= timer && completion <= retry) {
        if (completion > t) return;
        complete(in_flight_.pop());
      } else if (timer <= retry) {
        if (timer > t) return;
        breaker_.fireTimer();
      } else {
        if (retry > t) return;
        startRetry(retries_.pop());
      }
    }
  }

  bool breakerOutside() const {
    return config_.breaker.enabled && config_.breaker.placement == BreakerPlacement::outside_retry;
  }
  bool breakerInside() const {
    return config_.breaker.enabled && config_.breaker.placement == BreakerPlacement::inside_retry;
  }
  Stream streamOf(const PendingCall& c) const {
    return c.record == kLeadInRecord ? Stream::lead_in : Stream::window;
  }

  void arrive(Micros t, Stream stream, std::uint64_t request, std::uint32_t record) {
    if (t >= in_flight_.nextAt() || t >= breaker_.nextTimer() || t >= retries_.nextAt()) drain(t);
    const std::uint32_t key = keys_.sample(rng_.uniform(stream, request, 0, Purpose::key));
    const bool counted = record != kLeadInRecord;
    if (counted && config_.breaker.enabled)
      result_.checkouts[record].breaker_closed = breaker_.state() == BreakerState::closed;
    CircuitBreaker::Permit permit{true, false, 0, 0};
    if (breakerOutside()) {
      permit = breaker_.acquire(t);
      if (!permit.permitted) {
        if (counted) {
          ++facts_.rejected_calls;
          fallBack(record, key, t, 0);
        }
        return;
      }
    }
    startAttempt(t, t, key, record, static_cast<std::uint32_t>(request), permit, 0);
  }

  // Sends attempt `attempt` of a request at time t. (Scalars rather than a PendingCall: the
  // call record is written once, where it is queued.)
  [[gnu::always_inline]] void startAttempt(Micros t, Micros request_start, std::uint32_t key,
                                           std::uint32_t record, std::uint32_t request,
                                           CircuitBreaker::Permit permit, std::uint8_t attempt) {
    const bool counted = record != kLeadInRecord;
    if (breakerInside()) {
      permit = breaker_.acquire(t);
      if (!permit.permitted) {
        // Rejected: the first attempt falls back at once; a retry ends the loop with the
        // failure it was retrying.
        if (counted) {
          ++facts_.rejected_calls;
          fallBack(record, key, t, t - request_start);
        }
        return;
      }
    }
    if (attempt == 0) governor_.onRequest(t);
    Micros timeout = config_.timeout.attempt;
    if (config_.timeout.total > 0)
      timeout = std::min(timeout, request_start + config_.timeout.total - t);
    const Stream stream = counted ? Stream::window : Stream::lead_in;
    const DependencyAnswer answer = dependency_.answer(t, rng_, stream, request, attempt);
    if (counted) {
      ++facts_.dependency_calls;
      facts_.retries += attempt > 0 ? 1 : 0;
      countPerSecond(result_.per_second.dependency_calls, t);
    }
    const bool hung = answer.latency >= timeout;
    const Micros duration = hung ? timeout : answer.latency;
    const CallOutcome outcome = hung ? CallOutcome::timeout : answer.outcome;
    const PendingCall call{t + duration, request_start, key,
                           record,       request,       static_cast<std::int32_t>(duration),
                           permit,       outcome,       attempt};
    // Only full-length timeouts complete in start order; a deadline-shortened one does not.
    if (hung && timeout == config_.timeout.attempt) {
      in_flight_.pushTimeout(call);
    } else {
      in_flight_.push(call);
    }
    if (counted && config_.breaker.failures.contains(outcome)) {
      ++facts_.dependency_failures;
      countPerSecond(result_.per_second.dependency_failures, t);
    }
  }

  void startRetry(const PendingCall& c) {
    startAttempt(c.at, c.request_start, c.key, c.record, c.request, c.permit, c.attempt);
  }

  void complete(const PendingCall& call) {
    if (breakerInside()) breaker_.record(call.at, call.permit, call.outcome, call.duration);
    if (call.outcome == CallOutcome::success) {
      price_fetched_at_[call.key] = call.at;
      if (call.attempt == 0) governor_.onFirstAttemptSuccess();
    }
    const bool failed =
        call.outcome != CallOutcome::success && call.outcome != CallOutcome::client_error;
    if (failed && config_.retry.max_attempts > 1 && retryAfter(call)) return;
    // The request is over: the outside breaker sees it once, for the whole loop.
    const Micros total = call.at - call.request_start;
    if (breakerOutside()) breaker_.record(call.at, call.permit, call.outcome, total);
    if (call.record == kLeadInRecord) return;
    switch (call.outcome) {
      case CallOutcome::success:
        finish(call.record, CheckoutOutcome::fresh, FailReason::none, total);
        break;
      case CallOutcome::client_error:
        finish(call.record, CheckoutOutcome::failed, FailReason::client_error, total);
        break;
      default:
        fallBack(call.record, call.key, call.at, total);
    }
  }

  // Schedules the next attempt of a failed call when the retry policy allows it.
  [[gnu::noinline]] bool retryAfter(const PendingCall& call) {
    const RetryConfig& r = config_.retry;
    const std::uint32_t next = call.attempt + 1u;
    if (next >= r.max_attempts || !r.retry_on.contains(call.outcome)) return false;
    const Stream stream = streamOf(call);
    const Micros delay = retryDelay(r, next, [&](std::uint32_t n) {
      return rng_.uniform(stream, call.request, n, Purpose::backoff);
    });
    const Micros at = call.at + delay;
    if (config_.timeout.total > 0 && at >= call.request_start + config_.timeout.total) return false;
    if (!governor_.allowRetry(call.at)) {
      facts_.retries_refused += call.record != kLeadInRecord ? 1 : 0;
      return false;
    }
    PendingCall retry = call;
    retry.at = at;
    retry.attempt = static_cast<std::uint8_t>(next);
    retries_.push(retry);
    return true;
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

  // Retries of the window's last requests can start after the window ends: those are counted
  // in the totals but have no second of their own.
  void countPerSecond(std::vector<std::uint32_t>& series, Micros t) const {
    const std::size_t second = secondOf(t);
    if (second < series.size()) ++series[second];
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
  RetryQueue retries_;
  RetryGovernor governor_;
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
