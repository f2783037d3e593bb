// Replay speed of the full model: the three incidents made by retries, pools, workers and the
// load balancer, and a 1 M-request storm with retries, pool waits, worker queues, timeouts and
// a capped dependency. Run: build/release/tests/bench/model_bench
// (items_per_second = simulated requests/s, lead-in included).
#include <benchmark/benchmark.h>

#include <map>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"

namespace {

using namespace breakerlab;

const Incident& bundled(const std::string& name) {
  static std::map<std::string, Incident> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/" + name))
             .first;
  return it->second;
}

void report(benchmark::State& state, const Result& r) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.simulated_requests));
  state.counters["simulated_requests"] = static_cast<double>(r.simulated_requests);
  state.counters["dependency_calls"] = static_cast<double>(r.metrics.dependency_calls);
  state.counters["failed_pct"] = r.metrics.failed_pct;
  state.counters["ns_per_request"] = benchmark::Counter(
      static_cast<double>(r.simulated_requests),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void replay(benchmark::State& state, const std::string& file, const std::string& what_if) {
  const Incident& inc = bundled(file);
  const WhatIf* w = what_if.empty() ? nullptr : inc.whatIf(what_if);
  const Config& config = w ? w->config : inc.deployed;
  Result r;
  for (auto _ : state) {
    r = simulate(inc, config);
    benchmark::DoNotOptimize(r.metrics.failed_checkouts);
  }
  report(state, r);
}

BENCHMARK_CAPTURE(replay, orders_0814_deployed, "inc-2026-0814-orders.yaml", "")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay, orders_0814_remediation, "inc-2026-0814-orders.yaml", "remediation")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay, payment_001_deployed, "inc-payment-retry-amplification.yaml", "")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay, payment_001_background, "inc-payment-retry-amplification.yaml",
                  "background-retries")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay, payment_0912_deployed, "inc-2026-0912-payment-timeout.yaml", "")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(replay, payment_0912_40_pods, "inc-2026-0912-payment-timeout.yaml",
                  "scale-to-40-pods")
    ->Unit(benchmark::kMillisecond);

// 1 M checkouts in 100 s (10,000/s) on 8 pods: 20% of calls hang into the 500 ms timeout, three
// attempts with jittered backoff, 50 connections per pod with a 200 ms wait, 200 workers per
// pod with a queue, a dependency capped at 2,000 calls, a breaker.
Incident storm() {
  Incident inc;
  inc.id = "storm";
  inc.end = 100 * kSecond;
  inc.seed = 99;
  inc.traffic.arrivals = ArrivalProcess::poisson;
  inc.traffic.rate = {{0, inc.end, 10'000, 10'000}};
  inc.traffic.keys = {1000, 0.8};
  inc.traffic.lead_in = 0;
  DependencySegment healthy;
  healthy.state = "healthy";
  healthy.from = 0;
  healthy.to = 30 * kSecond;
  healthy.latency_start =
      healthy.latency_end = {LatencyModel::Kind::lognormal, 20 * kMillisecond, 200 * kMillisecond};
  DependencySegment storm = healthy;
  storm.state = "storm";
  storm.from = 30 * kSecond;
  storm.to = 70 * kSecond;
  storm.health = Health::red;
  storm.mix_start.timeout = storm.mix_end.timeout = 0.2;
  storm.mix_start.server_error = storm.mix_end.server_error = 0.05;
  DependencySegment after = healthy;
  after.from = 70 * kSecond;
  after.to = inc.end;
  inc.dependency.segments = {healthy, storm, after};
  inc.dependency.health = {{30 * kSecond, 70 * kSecond, Health::red}};
  inc.dependency.capacity.concurrency = 2000;
  Config& c = inc.deployed;
  c.timeout.attempt = 500 * kMillisecond;
  c.retry.max_attempts = 3;
  c.retry.base = 50 * kMillisecond;
  c.pool = {50, 200 * kMillisecond};
  c.workers = {200, 100, false};
  c.load_balancer.pods = 8;
  c.breaker.window_type = WindowType::time;
  c.breaker.window_size = 5;
  c.breaker.min_calls = 100;
  c.breaker.open_interval = 5 * kSecond;
  return inc;
}

void BM_Storm1M(benchmark::State& state) {
  const Incident inc = storm();
  Result r;
  for (auto _ : state) {
    r = simulate(inc, inc.deployed);
    benchmark::DoNotOptimize(r.metrics.failed_checkouts);
  }
  report(state, r);
  state.counters["retries"] = static_cast<double>(r.metrics.retries);
  state.counters["pool_waits_pct"] = r.metrics.pool_wait_share_pct.value_or(0);
}
BENCHMARK(BM_Storm1M)->Unit(benchmark::kMillisecond);

// The same storm on one pod with nothing limited: the cost of the resource bookkeeping.
void BM_Storm1MUnlimited(benchmark::State& state) {
  Incident inc = storm();
  inc.dependency.capacity.concurrency = 0;
  inc.deployed.pool = {};
  inc.deployed.workers = {};
  inc.deployed.load_balancer.pods = 1;
  Result r;
  for (auto _ : state) {
    r = simulate(inc, inc.deployed);
    benchmark::DoNotOptimize(r.metrics.failed_checkouts);
  }
  report(state, r);
}
BENCHMARK(BM_Storm1MUnlimited)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
