// Pools, workers, the load balancer and dependency capacity, checked against queueing theory
// (Erlang C, Little's law, the c/T ceiling) and against the rules in docs/model.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "breakerlab/core/replay/simulate.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

// One dependency segment over [0, length) with the given latency; no breaker, no cache.
Incident plain(double rps, Micros length, LatencyModel latency,
               ArrivalProcess arrivals = ArrivalProcess::poisson) {
  Incident inc;
  inc.end = length;
  inc.seed = 777;
  inc.traffic.arrivals = arrivals;
  inc.traffic.rate = {{0, length, rps, rps}};
  inc.traffic.lead_in = 0;
  DependencySegment seg;
  seg.state = "healthy";
  seg.from = 0;
  seg.to = length;
  seg.latency_start = seg.latency_end = latency;
  inc.dependency.segments = {seg};
  inc.deployed.breaker.enabled = false;
  inc.deployed.cache.enabled = false;
  inc.deployed.timeout.attempt = 60 * s;
  return inc;
}

LatencyModel exponential(Micros mean) {
  return {LatencyModel::Kind::exponential, mean, mean};
}
LatencyModel fixed(Micros value) {
  return {LatencyModel::Kind::fixed, value, value};
}

// Erlang C by the Erlang B recursion (research note, section 3).
double erlangC(int c, double a) {
  double b = 1;
  for (int k = 1; k <= c; ++k) b = a * b / (k + a * b);
  return c * b / (c - a * (1 - b));
}

TEST(Pool, MM20MatchesErlangCWaitProbabilityAndMeanWait) {
  // Table V8: c = 20, exponential hold with mean 50 ms, Poisson arrivals, no timeouts. At
  // rho = 0.9 one 4000 s run is within about 5% of the mean wait; four seeds average it down.
  struct Row {
    double lambda, p_wait, wq_ms;
  };
  for (const Row row : {Row{300, 0.160, 1.60}, Row{360, 0.551, 13.8}}) {
    double wait_share = 0, wait_ms = 0;
    constexpr int kSeeds = 4;
    for (int seed = 1; seed <= kSeeds; ++seed) {
      Incident inc = plain(row.lambda, 4000 * s, exponential(50 * ms));
      inc.seed = static_cast<std::uint64_t>(seed);
      inc.deployed.pool.size = 20;  // max_wait 0: wait as long as it takes
      const Metrics m = simulate(inc, inc.deployed).metrics;
      ASSERT_TRUE(m.pool_wait_share_pct && m.mean_pool_wait_ms);
      EXPECT_EQ(m.pool_exhausted, 0u);
      wait_share += *m.pool_wait_share_pct / 100 / kSeeds;
      wait_ms += *m.mean_pool_wait_ms / kSeeds;
    }
    const double c = erlangC(20, row.lambda * 0.05);
    EXPECT_NEAR(c, row.p_wait, 0.001);  // the formula agrees with the published table
    const double wq_ms = 1000 * c / (20 / 0.05 - row.lambda);
    EXPECT_NEAR(wq_ms, row.wq_ms, 0.01 * row.wq_ms);
    EXPECT_NEAR(wait_share, c, 0.05 * c) << row.lambda;
    EXPECT_NEAR(wait_ms, wq_ms, 0.05 * wq_ms) << row.lambda;
  }
}

TEST(Pool, LittlesLawHoldsForConnectionsAndWorkers) {
  // Time-average occupancy = throughput x mean hold, each side measured separately: the
  // occupancy integrated at every change, the hold from the calls and the checkouts.
  Incident inc = plain(300, 600 * s, {LatencyModel::Kind::lognormal, 40 * ms, 300 * ms});
  inc.deployed.pool.size = 20;
  inc.deployed.workers.per_pod = 100;
  inc.deployed.load_balancer.pods = 3;
  const Result r = simulate(inc, inc.deployed);
  const Metrics& m = r.metrics;
  const double window_s = 600;
  ASSERT_TRUE(m.mean_pool_busy && m.mean_workers_busy);
  const double pool_little =
      static_cast<double>(m.dependency_calls) / window_s * m.mean_call_ms / 1000;
  EXPECT_NEAR(*m.mean_pool_busy, pool_little, 0.02 * pool_little);
  double latency_sum = 0;
  for (const auto& c : r.checkouts) latency_sum += c.latency_us;
  const double worker_little = latency_sum / 1e6 / window_s;
  EXPECT_NEAR(*m.mean_workers_busy, worker_little, 0.02 * worker_little);
  EXPECT_GT(*m.mean_pool_busy, 10.0);  // a pool that is used, not an empty check
}

TEST(Pool, ThroughputAtTheCeilingIsCapacityOverHoldTime) {
  // Research V10 / source 004: every call hangs, so each holds its connection for the whole
  // timeout. 200 connections give 100 completions/s at 2 s and 6.67/s at 30 s.
  for (const auto& [timeout, expected] : {std::pair{2 * s, 100.0}, std::pair{30 * s, 200.0 / 30}}) {
    Incident inc = plain(500, 600 * s, fixed(10 * ms), ArrivalProcess::uniform);
    inc.dependency.segments[0].mix_start.timeout = inc.dependency.segments[0].mix_end.timeout = 1;
    inc.deployed.timeout.attempt = timeout;
    inc.deployed.pool.size = 200;
    inc.deployed.pool.max_wait = 1 * s;
    const Result r = simulate(inc, inc.deployed);
    // Calls sent per second once the pool is saturated (after the first timeout).
    const auto& calls = r.per_second.dependency_calls;
    const auto from = static_cast<std::size_t>(2 * timeout / s);
    const double sent =
        std::accumulate(calls.begin() + static_cast<std::ptrdiff_t>(from), calls.end(), 0.0);
    const double per_second = sent / static_cast<double>(calls.size() - from);
    EXPECT_NEAR(per_second, expected, 0.02 * expected) << timeout;
    EXPECT_NEAR(*r.metrics.peak_pool_utilization_pct, 100.0, 1e-9);
    EXPECT_GT(r.metrics.pool_exhausted, 0u);
  }
}

TEST(Pool, AWaiterThatWaitsMaxWaitFailsWithPoolExhausted) {
  // One connection, 1 s calls, two arrivals 100 ms apart: the second waits 300 ms and gives up.
  Incident inc = plain(10, 200 * ms, fixed(1 * s), ArrivalProcess::uniform);
  inc.deployed.pool.size = 1;
  inc.deployed.pool.max_wait = 300 * ms;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 2u);
  EXPECT_EQ(r.checkouts[0].outcome, CheckoutOutcome::fresh);
  EXPECT_EQ(r.checkouts[1].outcome, CheckoutOutcome::failed);
  EXPECT_EQ(r.checkouts[1].latency_us, 300 * ms);
  EXPECT_EQ(r.metrics.pool_exhausted, 1u);
  EXPECT_EQ(r.metrics.dependency_calls, 1u);
}

TEST(Pool, ATimedOutAttemptHandsItsConnectionToTheNextWaiter) {
  // Arrivals at 50 and 150 ms. The first call hangs and times out at 550 ms; the waiter gets
  // the connection then.
  Incident inc = plain(10, 200 * ms, fixed(20 * ms), ArrivalProcess::uniform);
  DependencySegment hang = inc.dependency.segments[0];
  hang.to = 100 * ms;
  hang.mix_start.timeout = hang.mix_end.timeout = 1;
  inc.dependency.segments[0].from = 100 * ms;
  inc.dependency.segments.insert(inc.dependency.segments.begin(), hang);
  inc.deployed.timeout.attempt = 500 * ms;
  inc.deployed.pool.size = 1;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 2u);
  EXPECT_EQ(r.checkouts[0].outcome, CheckoutOutcome::failed);
  EXPECT_EQ(r.checkouts[0].latency_us, 500 * ms);
  EXPECT_EQ(r.checkouts[1].outcome, CheckoutOutcome::fresh);
  // Arrived at 150 ms, connection at 550 ms, answered 20 ms later.
  EXPECT_EQ(r.checkouts[1].latency_us, 420 * ms);
}

TEST(Workers, ACheckoutWithoutAWorkerOrQueueSpaceFails) {
  // 2 workers, queue 1, 1 s calls, 10 arrivals 10 ms apart: 2 run, 1 waits, 7 fail at once.
  Incident inc = plain(100, 100 * ms, fixed(1 * s), ArrivalProcess::uniform);
  inc.deployed.workers.per_pod = 2;
  inc.deployed.workers.queue = 1;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 10u);
  EXPECT_EQ(r.metrics.worker_rejections, 7u);
  EXPECT_EQ(r.metrics.fresh_checkouts, 3u);
  EXPECT_EQ(r.checkouts[2].latency_us, 2 * s - 20 * ms);  // waited for the first worker
  EXPECT_EQ(r.checkouts[3].reason, FailReason::no_worker);
  EXPECT_NEAR(*r.metrics.peak_worker_utilization_pct, 100.0, 1e-9);
}

TEST(Workers, InRequestRetriesHoldTheWorkerAndBackgroundRetriesDoNot) {
  // Every first attempt fails (5xx in 100 ms), every retry succeeds.
  Incident inc = plain(5, 20 * s, fixed(100 * ms), ArrivalProcess::uniform);
  inc.dependency.segments[0].mix_start.server_error = 1;
  inc.dependency.segments[0].mix_end.server_error = 1;
  DependencySegment ok = inc.dependency.segments[0];
  ok.mix_start = ok.mix_end = {};
  ok.from = 20 * s;
  ok.to = 40 * s;
  inc.dependency.segments.push_back(ok);
  inc.dependency.segments[0].to = 20 * s;
  inc.deployed.retry.max_attempts = 2;
  inc.deployed.retry.backoff = BackoffKind::fixed;
  inc.deployed.retry.jitter = Jitter::none;
  inc.deployed.retry.base = 25 * s;  // the retry lands in the healthy segment
  inc.deployed.workers.per_pod = 1000;
  Config in_request = inc.deployed;
  Config background = inc.deployed;
  background.retry.mode = RetryMode::background;
  const Result a = simulate(inc, in_request);
  const Result b = simulate(inc, background);
  EXPECT_EQ(a.metrics.fresh_checkouts, a.metrics.checkouts);
  EXPECT_EQ(b.metrics.fresh_checkouts, b.metrics.checkouts);  // the background retry settles it
  EXPECT_EQ(a.checkouts[0].latency_us, 25 * s + 200 * ms);
  EXPECT_EQ(b.checkouts[0].latency_us, 100 * ms);  // the client waited for the first attempt
  EXPECT_GT(*a.metrics.mean_workers_busy, 50 * *b.metrics.mean_workers_busy);
  EXPECT_EQ(a.metrics.retries, b.metrics.retries);
}

TEST(Workers, ACallThreadStaysBusyUntilTheDependencyAnswers) {
  // call_threads: each call takes a second worker, kept after the 100 ms timeout until the
  // dependency answers at 1 s. Arrivals at 200, 600, 1000, 1400 ms on 2 workers.
  Incident inc = plain(2.5, 1600 * ms, fixed(1 * s), ArrivalProcess::uniform);
  inc.deployed.timeout.attempt = 100 * ms;
  inc.deployed.workers.per_pod = 2;
  inc.deployed.workers.call_threads = true;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 4u);
  EXPECT_EQ(r.checkouts[0].latency_us, 100 * ms);  // timed out; its call thread busy to 1.2 s
  EXPECT_EQ(r.checkouts[1].latency_us, 0);         // no worker to make the call on
  EXPECT_EQ(r.checkouts[2].latency_us, 0);
  EXPECT_EQ(r.checkouts[3].latency_us, 100 * ms);  // the call thread is free again
  EXPECT_EQ(r.metrics.pool_exhausted, 2u);
  EXPECT_EQ(r.metrics.dependency_calls, 2u);
  for (const auto& c : r.checkouts) EXPECT_EQ(c.outcome, CheckoutOutcome::failed);
}

TEST(LoadBalancer, SharedHealthChecksEjectBusyPodsAndSeparateOnesDoNot) {
  // 4 pods x 5 workers, every call hangs for the 5 s timeout: workers fill, checks fail.
  Incident inc = plain(20, 120 * s, fixed(10 * ms), ArrivalProcess::uniform);
  inc.dependency.segments[0].mix_start.timeout = inc.dependency.segments[0].mix_end.timeout = 1;
  inc.deployed.timeout.attempt = 5 * s;
  inc.deployed.workers.per_pod = 5;
  inc.deployed.load_balancer.pods = 4;
  inc.deployed.load_balancer.health_check.enabled = true;
  inc.deployed.load_balancer.health_check.interval = 2 * s;
  const Result shared = simulate(inc, inc.deployed);
  EXPECT_GT(shared.metrics.pod_ejections, 0u);
  ASSERT_TRUE(shared.metrics.min_pods_in_rotation);
  EXPECT_LT(*shared.metrics.min_pods_in_rotation, 4u);
  EXPECT_FALSE(shared.pods.intervals.empty());
  EXPECT_TRUE(std::any_of(shared.events.begin(), shared.events.end(),
                          [](const Event& e) { return e.kind == EventKind::pod_ejected; }));
  Config separate = inc.deployed;
  separate.load_balancer.health_check.pool = HealthCheckPool::separate;
  const Result own = simulate(inc, separate);
  EXPECT_EQ(own.metrics.pod_ejections, 0u);
  EXPECT_EQ(*own.metrics.min_pods_in_rotation, 4u);
}

TEST(LoadBalancer, WithEveryPodEjectedCheckoutsFailWithNoPod) {
  Incident inc = plain(50, 60 * s, fixed(10 * ms), ArrivalProcess::uniform);
  inc.dependency.segments[0].mix_start.timeout = inc.dependency.segments[0].mix_end.timeout = 1;
  inc.deployed.timeout.attempt = 30 * s;
  inc.deployed.workers.per_pod = 2;
  inc.deployed.load_balancer.pods = 2;
  inc.deployed.load_balancer.health_check.enabled = true;
  inc.deployed.load_balancer.health_check.interval = 1 * s;
  const Result r = simulate(inc, inc.deployed);
  EXPECT_EQ(*r.metrics.min_pods_in_rotation, 0u);
  EXPECT_GT(r.metrics.no_pod_rejections, 0u);
}

TEST(DependencyCapacity, CallsBeyondTheCeilingQueueFirstComeFirstServed) {
  // One server, 100 ms of work, a call every 50 ms: the n-th call waits n x 50 ms.
  Incident inc = plain(20, 500 * ms, fixed(100 * ms), ArrivalProcess::uniform);
  inc.dependency.capacity.concurrency = 1;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 10u);
  for (std::size_t i = 0; i < r.checkouts.size(); ++i)
    EXPECT_EQ(r.checkouts[i].latency_us, 100 * ms + static_cast<Micros>(i) * 50 * ms) << i;
}

TEST(DependencyCapacity, QueueTimeoutAnswers503) {
  // One server, 100 ms of work, a call every 50 ms (arrivals at 25, 75, ... ms): the queue
  // grows, and a call that would wait 225 ms or more is answered 503 after 225 ms and takes
  // no server, so the one behind it may be served.
  Incident inc = plain(20, 1 * s, fixed(100 * ms), ArrivalProcess::uniform);
  inc.dependency.capacity.concurrency = 1;
  inc.dependency.capacity.queue_timeout = 225 * ms;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 20u);
  // Calls 0-4 wait 0, 50, ..., 200 ms. From then on the server is always 250 ms ahead of an
  // arrival: the odd calls are refused and each even one waits 200 ms.
  for (std::size_t n = 0; n < r.checkouts.size(); ++n) {
    const auto& c = r.checkouts[n];
    if (n < 5 || n % 2 == 0) {
      EXPECT_EQ(c.outcome, CheckoutOutcome::fresh) << n;
      EXPECT_EQ(c.latency_us, 100 * ms + std::min<Micros>(static_cast<Micros>(n), 4) * 50 * ms)
          << n;
    } else {
      EXPECT_EQ(c.outcome, CheckoutOutcome::failed) << n;
      EXPECT_EQ(c.latency_us, 225 * ms) << n;
    }
  }
}

TEST(DependencyCapacity, AbandonedWorkThatKeepsGoingDelaysRecovery) {
  // A burst at twice the capacity for 1 s, then a quarter of it. Work the client gave up on
  // (150 ms timeout) but the dependency keeps doing holds back the calls after the burst;
  // cancelled work does not.
  Incident inc = plain(20, 3 * s, fixed(100 * ms), ArrivalProcess::uniform);
  inc.traffic.rate = {{0, 1 * s, 20, 20}, {1 * s, 3 * s, 2.5, 2.5}};
  inc.dependency.capacity.concurrency = 1;
  inc.deployed.timeout.attempt = 150 * ms;
  auto freshAfterBurst = [](const Result& r) {
    int n = 0;
    for (const auto& c : r.checkouts)
      n += c.arrival >= 1 * s && c.outcome == CheckoutOutcome::fresh ? 1 : 0;
    return n;
  };
  const int keeps = freshAfterBurst(simulate(inc, inc.deployed));
  inc.dependency.capacity.keeps_working = false;
  const int cancels = freshAfterBurst(simulate(inc, inc.deployed));
  EXPECT_EQ(cancels, 5);  // every call after the burst
  EXPECT_LT(keeps, cancels);
}

TEST(DependencyCapacity, SharingStretchesWorkByTheCallsHeld) {
  // One server shared: arrivals at 25, 75, 125, 175 ms with 100 ms of work each. Held calls at
  // each arrival (itself included): 1, 2, 2, 3.
  Incident inc = plain(20, 200 * ms, fixed(100 * ms), ArrivalProcess::uniform);
  inc.dependency.capacity.concurrency = 1;
  inc.dependency.capacity.discipline = CapacityDiscipline::share;
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.checkouts.size(), 4u);
  const Micros expected[] = {100 * ms, 200 * ms, 200 * ms, 300 * ms};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(r.checkouts[i].latency_us, expected[i]) << i;
}

TEST(Workers, BackgroundRetriesRetryWhatTheBreakerRejected) {
  // 5xx for the first second, then healthy. One failure opens the breaker (inside the retry
  // loop) for 2 s; the second checkout is rejected. In the background it is retried 5 s later
  // and succeeds; in the request it fails.
  Incident inc = plain(5, 400 * ms, fixed(10 * ms), ArrivalProcess::uniform);
  DependencySegment bad = inc.dependency.segments[0];
  bad.to = 1 * s;
  bad.mix_start.server_error = bad.mix_end.server_error = 1;
  DependencySegment good = inc.dependency.segments[0];
  good.from = 1 * s;
  good.to = 20 * s;
  inc.dependency.segments = {bad, good};
  Config c = inc.deployed;
  c.breaker.enabled = true;
  c.breaker.placement = BreakerPlacement::inside_retry;
  c.breaker.window_type = WindowType::consecutive;
  c.breaker.consecutive_failures = 1;
  c.breaker.open_interval = 2 * s;
  c.breaker.probes = 1;
  c.breaker.probe_spacing = 0;
  c.retry.max_attempts = 2;
  c.retry.backoff = BackoffKind::fixed;
  c.retry.base = 5 * s;
  c.retry.jitter = Jitter::none;
  c.retry.mode = RetryMode::background;
  const Result bg = simulate(inc, c);
  ASSERT_EQ(bg.checkouts.size(), 2u);
  EXPECT_EQ(bg.checkouts[1].outcome, CheckoutOutcome::fresh);
  EXPECT_EQ(bg.checkouts[1].latency_us, 0);  // answered at once: "retrying later"
  EXPECT_EQ(bg.metrics.rejected_calls, 1u);
  c.retry.mode = RetryMode::in_request;
  const Result in_request = simulate(inc, c);
  EXPECT_EQ(in_request.checkouts[1].outcome, CheckoutOutcome::failed);
}

TEST(CacheFirst, ServesCachedPricesAndRefreshesInTheBackground) {
  // The dependency is down from 10 s to 50 s; prices were fetched before. Cache-first serves
  // every checkout from the cache while sync fails them once the TTL runs out.
  Incident inc = plain(50, 60 * s, fixed(20 * ms), ArrivalProcess::uniform);
  inc.traffic.lead_in = 30 * s;
  inc.traffic.keys = {20, 0};
  DependencySegment down = inc.dependency.segments[0];
  down.state = "refusing";
  down.from = 10 * s;
  down.to = 50 * s;
  down.mix_start.refused = down.mix_end.refused = 1;
  DependencySegment after = inc.dependency.segments[0];
  after.from = 50 * s;
  inc.dependency.segments[0].to = 10 * s;
  inc.dependency.segments.push_back(down);
  inc.dependency.segments.push_back(after);
  inc.deployed.cache.enabled = true;
  inc.deployed.cache.ttl = 60 * s;
  Config sync = inc.deployed;
  Config first = inc.deployed;
  first.pricing.mode = PricingMode::cache_first;
  first.pricing.refresh_after = 5 * s;
  const Metrics a = simulate(inc, sync).metrics;
  const Metrics b = simulate(inc, first).metrics;
  EXPECT_EQ(b.failed_checkouts, 0u);
  EXPECT_EQ(b.cached_checkouts, b.checkouts);
  // At most one refresh per key in flight, at most one per 5 s per key: far fewer calls.
  EXPECT_LT(b.dependency_calls, a.dependency_calls / 10);
  EXPECT_LE(b.dependency_calls, 20u * 60 / 5 + 20);
}

TEST(Resources, RunsAreBitIdenticalAndTheLeadInCacheChangesNothing) {
  Incident inc = plain(200, 120 * s, {LatencyModel::Kind::lognormal, 50 * ms, 2 * s});
  inc.traffic.lead_in = 30 * s;
  inc.dependency.capacity.concurrency = 60;
  inc.dependency.segments[0].mix_start.timeout = 0.05;
  inc.dependency.segments[0].mix_end.timeout = 0.3;
  inc.deployed.timeout.attempt = 1 * s;
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.pool.size = 15;
  inc.deployed.pool.max_wait = 200 * ms;
  inc.deployed.workers.per_pod = 40;
  inc.deployed.workers.queue = 10;
  inc.deployed.load_balancer.pods = 4;
  inc.deployed.load_balancer.health_check.enabled = true;
  inc.deployed.breaker.enabled = true;
  inc.deployed.breaker.window_type = WindowType::time;
  inc.deployed.breaker.window_size = 10;
  inc.deployed.cache.enabled = true;
  const Result a = simulate(inc, inc.deployed);
  const Result b = simulate(inc, inc.deployed);
  ASSERT_EQ(a.checkouts.size(), b.checkouts.size());
  EXPECT_EQ(0, std::memcmp(a.checkouts.data(), b.checkouts.data(),
                           a.checkouts.size() * sizeof(CheckoutRecord)));
  ReplayCache cache;
  Config tuned = inc.deployed;
  (void)simulate(inc, inc.deployed, cache);
  tuned.breaker.open_interval = 7 * s;  // a knob the lead-in never used
  const Result cached = simulate(inc, tuned, cache);
  const Result full = simulate(inc, tuned);
  EXPECT_EQ(cache.hits(), 1u);
  ASSERT_EQ(cached.checkouts.size(), full.checkouts.size());
  EXPECT_EQ(0, std::memcmp(cached.checkouts.data(), full.checkouts.data(),
                           full.checkouts.size() * sizeof(CheckoutRecord)));
  EXPECT_EQ(cached.per_second.workers_busy, full.per_second.workers_busy);
  EXPECT_EQ(cached.per_second.pods_in_rotation, full.per_second.pods_in_rotation);
  EXPECT_GT(a.metrics.failed_checkouts, 0u);  // the scenario exercises the failure paths
}

// Load-dependent latency (discipline load): W = b + k·N with N = λ·W (Little) gives
// W = b / (1 − kλ). Brooker's minimal model: b = 1 s, k = 10 ms, so 1.25 s at 20/s, 1.67 s
// at 40/s, and no fixed point at or above 100/s (research note, formula 11).
TEST(LoadDependentLatency, MeanLatencyIsTheFixedPointOfLittlesLaw) {
  for (const double rps : {20.0, 40.0, 60.0}) {
    Incident inc = plain(rps, 600 * s, fixed(1 * s));
    inc.dependency.capacity.discipline = CapacityDiscipline::load;
    inc.dependency.capacity.per_call = 10 * ms;
    inc.traffic.lead_in = 60 * s;
    const Result r = simulate(inc, inc.deployed);
    const double expected_ms = 1000.0 / (1 - 0.01 * rps);
    EXPECT_NEAR(r.metrics.mean_call_ms, expected_ms, 0.04 * expected_ms) << rps;
    EXPECT_EQ(r.metrics.failed_checkouts, 0u) << rps;
  }
}

TEST(LoadDependentLatency, AboveTheLimitLatencyGrowsWithoutBoundAndEveryCallTimesOut) {
  // 120/s: k·λ = 1.2, no fixed point; with a 3 s timeout the calls soon all time out, and the
  // work abandoned by the client (keeps_working) keeps the dependency slow.
  Incident inc = plain(120, 120 * s, fixed(1 * s));
  inc.dependency.capacity.discipline = CapacityDiscipline::load;
  inc.dependency.capacity.per_call = 10 * ms;
  inc.deployed.timeout.attempt = 3 * s;
  const Result r = simulate(inc, inc.deployed);
  std::uint64_t late_fresh = 0;
  for (std::size_t sec = 60; sec < 120; ++sec) late_fresh += r.per_second.fresh[sec];
  EXPECT_EQ(late_fresh, 0u);
}

}  // namespace
}  // namespace breakerlab
