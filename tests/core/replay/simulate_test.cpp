// Properties of simulate() on small, hand-built incidents.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "breakerlab/core/replay/simulate.h"
#include "same_result.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

DependencySegment healthy(Micros from, Micros to) {
  DependencySegment seg;
  seg.state = "healthy";
  seg.from = from;
  seg.to = to;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::lognormal, 20 * ms, 100 * ms};
  return seg;
}

DependencySegment failing(Micros from, Micros to, CallOutcome outcome) {
  DependencySegment seg = healthy(from, to);
  seg.state = std::string(toString(outcome));
  seg.health = Health::red;
  OutcomeMix mix;
  if (outcome == CallOutcome::timeout) mix.timeout = 1;
  if (outcome == CallOutcome::refused) mix.refused = 1;
  if (outcome == CallOutcome::server_error) mix.server_error = 1;
  if (outcome == CallOutcome::client_error) mix.client_error = 1;
  seg.mix_start = seg.mix_end = mix;
  return seg;
}

// 30 s at 50 rps; the dependency fails in [10, 20) with `outcome`.
Incident outage(CallOutcome outcome) {
  Incident inc;
  inc.start = 0;
  inc.end = 30 * s;
  inc.seed = 77;
  inc.traffic.rate = {{0, 30 * s, 50, 50}};
  inc.traffic.keys = {20, 0.0};
  inc.dependency.segments = {healthy(0, 10 * s), failing(10 * s, 20 * s, outcome),
                             healthy(20 * s, 30 * s)};
  inc.dependency.health = {{10 * s, 20 * s, Health::red}};
  inc.deployed.breaker.open_interval = 5 * s;
  return inc;
}

TEST(Simulate, SameInputsGiveBitIdenticalResults) {
  const Incident inc = outage(CallOutcome::timeout);
  const Result a = simulate(inc, inc.deployed);
  const Result b = simulate(inc, inc.deployed);
  ASSERT_EQ(a.checkouts.size(), b.checkouts.size());
  EXPECT_EQ(std::memcmp(a.checkouts.data(), b.checkouts.data(),
                        a.checkouts.size() * sizeof(CheckoutRecord)),
            0);
  EXPECT_EQ(a.breaker, b.breaker);
  EXPECT_EQ(a.checkout, b.checkout);
  EXPECT_EQ(a.per_second.cached, b.per_second.cached);
  EXPECT_EQ(std::memcmp(&a.metrics.latency_p99_ms, &b.metrics.latency_p99_ms, sizeof(double)), 0);
}

TEST(Simulate, OutcomesAddUpAndSeriesMatchTotals) {
  const Incident inc = outage(CallOutcome::refused);
  const Result r = simulate(inc, inc.deployed);
  const Metrics& m = r.metrics;
  EXPECT_EQ(m.checkouts, 1500u);
  EXPECT_EQ(m.fresh_checkouts + m.cached_checkouts + m.failed_checkouts, m.checkouts);
  auto sum = [](const std::vector<std::uint32_t>& v) {
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
  };
  EXPECT_EQ(sum(r.per_second.cached), m.cached_checkouts);
  EXPECT_EQ(sum(r.per_second.fresh), m.fresh_checkouts);
  EXPECT_EQ(sum(r.per_second.dependency_calls), m.dependency_calls);
  EXPECT_EQ(m.dependency_calls + m.rejected_calls, m.checkouts);
  EXPECT_GT(m.trips, 0u);
}

TEST(Simulate, ClientErrorStormNeverTripsTheBreaker) {
  const Incident inc = outage(CallOutcome::client_error);
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.breaker.intervals.size(), 1u);
  EXPECT_EQ(r.breaker.intervals[0].state, "closed");
  EXPECT_EQ(r.metrics.trips, 0u);
  // A business answer is not a dependency failure: no cache fallback, the checkout fails.
  EXPECT_EQ(r.metrics.failed_checkouts, 500u);
  EXPECT_EQ(r.metrics.cached_checkouts, 0u);
  for (const auto& c : r.checkouts)
    if (c.outcome == CheckoutOutcome::failed) {
      EXPECT_EQ(c.reason, FailReason::client_error);
    }
}

TEST(Simulate, CountingClientErrorsAsFailuresDoesTrip) {
  const Incident inc = outage(CallOutcome::client_error);
  Config config = inc.deployed;
  config.breaker.failures.insert(CallOutcome::client_error);
  EXPECT_GT(simulate(inc, config).metrics.trips, 0u);
}

TEST(Simulate, CommonRandomNumbersKnobsChangeOnlyWhatTheyTouch) {
  const Incident inc = outage(CallOutcome::timeout);
  Config shorter_ttl = inc.deployed;
  shorter_ttl.cache.ttl = 2 * s;
  const Result base = simulate(inc, inc.deployed);
  const Result ttl = simulate(inc, shorter_ttl);
  // The cache does not feed back into calls: lanes and call counts are identical.
  EXPECT_EQ(base.breaker, ttl.breaker);
  EXPECT_EQ(base.metrics.dependency_calls, ttl.metrics.dependency_calls);
  EXPECT_GT(ttl.metrics.failed_checkouts, base.metrics.failed_checkouts);

  // A longer open interval changes nothing before the first trip.
  Config longer_open = inc.deployed;
  longer_open.breaker.open_interval = 9 * s;
  const Result open = simulate(inc, longer_open);
  const Micros trip = base.breaker.intervals[0].to;
  EXPECT_EQ(open.breaker.intervals[0].to, trip);
  for (std::size_t i = 0; i < base.checkouts.size() && base.checkouts[i].arrival < trip; ++i) {
    EXPECT_EQ(base.checkouts[i].outcome, open.checkouts[i].outcome) << i;
    EXPECT_EQ(base.checkouts[i].latency_us, open.checkouts[i].latency_us) << i;
  }
}

TEST(Simulate, LeadInWarmsTheCache) {
  Incident inc = outage(CallOutcome::refused);
  inc.dependency.segments = {failing(0, 30 * s, CallOutcome::refused)};
  inc.dependency.segments[0].from = 0;
  inc.traffic.lead_in = 0;
  const Result cold = simulate(inc, inc.deployed);
  EXPECT_EQ(cold.metrics.failed_checkouts, cold.metrics.checkouts) << "nothing was ever cached";
  // With a lead-in, the dependency before t=0 behaves as at t=0 (refusing), so make the
  // first segment healthy and the outage start at once.
  inc.dependency.segments = {healthy(0, 1), failing(1, 30 * s, CallOutcome::refused)};
  inc.traffic.lead_in = 10 * s;
  const Result warm = simulate(inc, inc.deployed);
  EXPECT_EQ(warm.metrics.failed_checkouts, 0u);
  EXPECT_EQ(warm.metrics.cached_checkouts, warm.metrics.checkouts - warm.metrics.fresh_checkouts);
}

TEST(Simulate, TimeoutCutsSlowCallsAndBoundsLatency) {
  Incident inc = outage(CallOutcome::timeout);
  inc.deployed.breaker.enabled = false;
  const Result r = simulate(inc, inc.deployed);
  EXPECT_NEAR(r.metrics.latency_max_ms, 800.0, 1e-9);
  EXPECT_EQ(r.metrics.dependency_calls, r.metrics.checkouts) << "no breaker: every call goes out";
  EXPECT_EQ(r.breaker.intervals.size(), 1u);
}

TEST(Simulate, CachedWhileHealthyCountsOnlyGreenTime) {
  // Refusals from 10 s, health green again at 20 s; an open interval of 15 s keeps the
  // breaker open well past recovery.
  Incident inc = outage(CallOutcome::refused);
  inc.deployed.breaker.open_interval = 15 * s;
  inc.deployed.breaker.backoff_max = 15 * s;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_GE(r.breaker.intervals.size(), 3u);
  const Micros opened = r.breaker.intervals[1].from;
  const Micros closed = r.breaker.intervals.back().from;
  EXPECT_EQ(r.breaker.intervals.back().state, "closed");
  EXPECT_NEAR(r.metrics.cached_while_healthy_s, toSeconds(closed - 20 * s), 1e-9);
  EXPECT_NEAR(r.metrics.cached_window_s, toSeconds(closed - opened), 1e-9);
  ASSERT_TRUE(r.metrics.time_to_close_after_recovery_s.has_value());
  EXPECT_NEAR(*r.metrics.time_to_close_after_recovery_s, toSeconds(closed - 20 * s), 1e-9);
}

using test::expectSameRun;

TEST(ReplayCache, ResumingAfterTheLeadInGivesBitIdenticalResults) {
  const Incident inc = outage(CallOutcome::timeout);
  ASSERT_GT(inc.traffic.lead_in, 0);
  ReplayCache cache;
  struct Step {
    const char* what;
    void (*edit)(Config&);
    bool reuses;
  };
  const Step steps[] = {
      {"deployed", [](Config&) {}, false},  // fills the cache
      {"open interval", [](Config& c) { c.breaker.open_interval = 9 * s; }, true},
      {"cache ttl", [](Config& c) { c.cache.ttl = 3 * s; }, true},
      {"early probe", [](Config& c) { c.breaker.early_probe = true; }, true},
      {"probes", [](Config& c) { c.breaker.probes = 1; }, true},
      {"threshold", [](Config& c) { c.breaker.failure_rate_pct = 30; }, false},
      {"deployed again", [](Config&) {}, false},  // the cache held the threshold's lead-in
      // No lead-in call failed or came near the 800 ms timeout: a timeout that still outlasts
      // every lead-in call, and any retry policy, leave the lead-in as it was.
      {"longer timeout", [](Config& c) { c.timeout.attempt = 2 * s; }, true},
      {"retries", [](Config& c) { c.retry.max_attempts = 3; }, true},
      {"retry backoff",
       [](Config& c) {
         c.retry.max_attempts = 4;
         c.retry.base = 50 * ms;
         c.retry.jitter = Jitter::none;
       },
       true},
      {"background retries",
       [](Config& c) {
         c.retry.max_attempts = 3;
         c.retry.mode = RetryMode::background;
       },
       true},
      {"deadline", [](Config& c) { c.timeout.total = 5 * s; }, true},
      {"retry budget", [](Config& c) { c.retry.budget.ratio = 0.1; },
       false},  // every request feeds it
      {"deployed again", [](Config&) {}, false},
      // Shorter than most lead-in calls: they time out, and the lead-in is another run.
      {"timeout below the lead-in's calls", [](Config& c) { c.timeout.attempt = 15 * ms; }, false},
      // That lead-in had failures, so its timeout and retries are compared exactly.
      {"deployed after failures", [](Config&) {}, false},
      {"backoff", [](Config& c) { c.breaker.backoff_multiplier = 2; }, true},
  };
  for (const Step& step : steps) {
    Config config = inc.deployed;
    step.edit(config);
    const std::uint64_t hits = cache.hits();
    const Result cached = simulate(inc, config, cache);
    EXPECT_EQ(cache.hits() - hits, step.reuses ? 1u : 0u) << step.what;
    expectSameRun(simulate(inc, config), cached, step.what);
  }
}

// A lead-in resumed under a much longer timeout: the calls in flight at its end move to a wheel
// that spans the new timeout, so that the window's slow calls (up to seconds, far past the
// deployed 400 ms) still complete in order.
TEST(ReplayCache, ALongerTimeoutResumesTheLeadInWithTheCallsInFlightInOrder) {
  Incident inc;
  inc.start = 0;
  inc.end = 20 * s;
  inc.seed = 5;
  inc.traffic.rate = {{0, 20 * s, 400, 400}};
  inc.traffic.keys = {20, 0.0};
  inc.traffic.lead_in = 10 * s;
  DependencySegment slow = healthy(5 * s, 15 * s);
  slow.state = "slow";
  slow.latency_start = slow.latency_end = {LatencyModel::Kind::lognormal, 1500 * ms, 6 * s};
  inc.dependency.segments = {healthy(0, 5 * s), slow, healthy(15 * s, 20 * s)};
  inc.deployed.timeout.attempt = 400 * ms;
  inc.deployed.breaker.enabled = false;
  ReplayCache cache;
  (void)simulate(inc, inc.deployed, cache);
  for (const Micros timeout : {10 * s, 30 * s, 500 * ms}) {
    Config longer = inc.deployed;
    longer.timeout.attempt = timeout;
    const std::uint64_t hits = cache.hits();
    const Result cached = simulate(inc, longer, cache);
    EXPECT_EQ(cache.hits(), hits + 1) << timeout;
    const Result full = simulate(inc, longer);
    if (timeout > s) {
      EXPECT_GT(full.metrics.mean_call_ms, 400) << "calls outlast the old timeout";
    }
    expectSameRun(full, cached, "timeout " + std::to_string(timeout));
  }
}

TEST(ReplayCache, IsNotReusedForAnotherSeedOrIncident) {
  Incident inc = outage(CallOutcome::refused);
  ReplayCache cache;
  simulate(inc, inc.deployed, cache);
  inc.seed += 1;
  const Result other_seed = simulate(inc, inc.deployed, cache);
  EXPECT_EQ(cache.hits(), 0u);
  expectSameRun(simulate(inc, inc.deployed), other_seed, "seed");
  const Incident copy = inc;
  simulate(copy, copy.deployed, cache);
  EXPECT_EQ(cache.hits(), 0u) << "another Incident object";
}

}  // namespace
}  // namespace breakerlab
