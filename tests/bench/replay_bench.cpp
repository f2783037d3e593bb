// Replay speed: the bundled 8 Sep incident, and the same shape scaled to 1 M requests.
// Run: build/release/tests/bench/replay_bench  (items_per_second = simulated requests/s)
#include <benchmark/benchmark.h>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "fleet_of_1000.h"

namespace {

using namespace breakerlab;

const Incident& incident0908() {
  static const Incident inc =
      loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/inc-2026-0908-pricing.yaml");
  return inc;
}

// The 8 Sep shape with the rate scaled so that the 60 s window holds `requests` checkouts.
Incident scaled(std::size_t requests) {
  Incident inc = incident0908();
  const double rps = static_cast<double>(requests) / toSeconds(inc.end - inc.start);
  for (auto& piece : inc.traffic.rate) piece.rps_from = piece.rps_to = rps;
  return inc;
}

// items = every simulated request: the window's checkouts and the lead-in's (60 s at the t=0
// rate in the bundled incident, so the 1 M window simulates 2 M requests).
void report(benchmark::State& state, const Result& r) {
  const auto simulated = static_cast<double>(r.simulated_requests);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.simulated_requests));
  state.counters["window_requests"] = static_cast<double>(r.checkouts.size());
  state.counters["simulated_requests"] = simulated;
  state.counters["dependency_calls"] = static_cast<double>(r.metrics.dependency_calls);
  state.counters["ns_per_request"] = benchmark::Counter(
      simulated, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["bytes_per_request"] =
      static_cast<double>(r.checkouts.capacity() * sizeof(CheckoutRecord)) /
      static_cast<double>(r.checkouts.size());
}

void BM_Replay0908(benchmark::State& state) {
  const Incident& inc = incident0908();
  Result r;
  for (auto _ : state) {
    r = simulate(inc, inc.deployed);
    benchmark::DoNotOptimize(r.metrics.cached_checkouts);
  }
  report(state, r);
}
BENCHMARK(BM_Replay0908)->Unit(benchmark::kMicrosecond);

// 12 Sep (4 h 29 min, pods, pools, a capped provider) with the deployed config alone (0) and
// with its operators' timeline, the 10:26 scale-out and the 13:01 rollback, as timed changes (1).
void BM_Replay0912(benchmark::State& state) {
  static const Incident inc = loadIncident(std::string(BREAKERLAB_RESOURCES) +
                                           "/incidents/inc-2026-0912-payment-timeout.yaml");
  static const std::vector<TimedChange> none;
  SimulateOptions options;
  options.changes = state.range(0) == 1 ? nullptr : &none;
  Result r;
  for (auto _ : state) {
    r = simulate(inc, inc.deployed, options);
    benchmark::DoNotOptimize(r.metrics.failed_checkouts);
  }
  report(state, r);
}
BENCHMARK(BM_Replay0912)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Replay0908Scaled(benchmark::State& state) {
  const Incident inc = scaled(static_cast<std::size_t>(state.range(0)));
  Result r;
  for (auto _ : state) {
    r = simulate(inc, inc.deployed);
    benchmark::DoNotOptimize(r.metrics.cached_checkouts);
  }
  report(state, r);
}
BENCHMARK(BM_Replay0908Scaled)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// The same with a progress hook, as the CLI and the workbench run long replays: the hook is
// called every 65 536 events, so its cost per request is the countdown's.
void BM_Replay0908ScaledWithProgress(benchmark::State& state) {
  const Incident inc = scaled(static_cast<std::size_t>(state.range(0)));
  SimulateOptions options;
  std::uint64_t calls = 0;
  options.progress = [&](const ReplayProgress&) { return ++calls > 0; };
  Result r;
  for (auto _ : state) {
    r = simulate(inc, inc.deployed, options);
    benchmark::DoNotOptimize(r.metrics.cached_checkouts);
  }
  report(state, r);
  state.counters["progress_calls"] =
      static_cast<double>(calls) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Replay0908ScaledWithProgress)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// A knob the lead-in never exercises (the open interval): the replay cache resumes at t=0.
void BM_Replay0908ScaledLeadInCached(benchmark::State& state) {
  const Incident inc = scaled(static_cast<std::size_t>(state.range(0)));
  ReplayCache cache;
  simulate(inc, inc.deployed, cache);
  Config config = inc.deployed;
  Result r;
  int step = 0;
  for (auto _ : state) {
    config.breaker.open_interval = (10 + step++ % 10) * kSecond;
    r = simulate(inc, config, cache);
    benchmark::DoNotOptimize(r.metrics.cached_checkouts);
  }
  report(state, r);
  // Only the window was simulated: rate it by the window's requests.
  state.counters["ns_per_request"] = benchmark::Counter(
      static_cast<double>(r.checkouts.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.checkouts.size()));
  state.counters["cache_hits"] = static_cast<double>(cache.hits());
}
BENCHMARK(BM_Replay0908ScaledLeadInCached)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// No breaker at all: every request reaches the dependency (the all-calls worst case).
void BM_Replay0908ScaledNoBreaker(benchmark::State& state) {
  const Incident inc = scaled(static_cast<std::size_t>(state.range(0)));
  Config config = inc.deployed;
  config.breaker.enabled = false;
  Result r;
  for (auto _ : state) {
    r = simulate(inc, config);
    benchmark::DoNotOptimize(r.metrics.cached_checkouts);
  }
  report(state, r);
}
BENCHMARK(BM_Replay0908ScaledNoBreaker)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// A synthetic fleet of 1,000 pods at 10,000 checkouts/s for 10 minutes (6 M checkouts): Pricing
// refuses 60% of calls from 2 to 5 minutes. Arg 0: a breaker in every pod (each sees ~10 calls a
// second), 1: one breaker for the fleet. The pods' workers are unlimited: the fleet's cost is
// the routing and the 1,000 breakers, not the worker queues.
Incident fleetOf1000() {
  Incident inc = fleetOf1000(incident0908());
  return inc;
}

void BM_ReplayFleetOf1000(benchmark::State& state) {
  const Incident inc = fleetOf1000();
  Config config = inc.deployed;
  config.breaker.scope = state.range(0) == 0 ? StateScope::per_pod : StateScope::shared;
  Result r;
  for (auto _ : state) {
    r = simulate(inc, config);
    benchmark::DoNotOptimize(r.metrics.cached_checkouts);
  }
  report(state, r);
  state.counters["pod_trips"] = r.metrics.pod_trips;
  state.counters["failed_pct"] = r.metrics.failed_pct;
}
BENCHMARK(BM_ReplayFleetOf1000)
    ->ArgName("shared")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
