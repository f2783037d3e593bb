// Properties of simulate() on small, hand-built incidents.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "breakerlab/core/simulate.h"

namespace breakerlab {
namespace {

constexpr Micros s = kSecond;
constexpr Micros ms = kMillisecond;

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

}  // namespace
}  // namespace breakerlab
