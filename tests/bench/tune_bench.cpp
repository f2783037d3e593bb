// The tuner and the sensitivity maps (issue 13's speed floors): a 10,000-config tune on 8 Sep
// (<= 2 s on 2 cores), with and without early stopping and the second core; the search against
// random search with the same budget; a 50 x 50 map on 14 Aug (<= 10 s).
// Run: build/release/tests/bench/tune_bench --benchmark_min_time=1x (real time is what counts)
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "breakerlab/core/tuning/sweep.h"
#include "breakerlab/core/tuning/tune.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/incident_io.h"

namespace {

using namespace breakerlab;

const Incident& load(const char* name) {
  static std::map<std::string, Incident> loaded;
  auto it = loaded.find(name);
  if (it == loaded.end())
    it = loaded
             .emplace(name, loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/" + name +
                                         ".yaml"))
             .first;
  return it->second;
}

Evaluator pricing() {
  const Incident& inc = load("inc-2026-0908-pricing");
  TuneCase c{&inc, {parseExpectation("failed_checkouts == 0", "bench")}, inc.deployed};
  c.goals.insert(c.goals.end(), inc.goals.begin(), inc.goals.end());
  return Evaluator({c}, {findMetric("cached_while_healthy_s")});
}

std::vector<KnobRange> pricingKnobs() {
  return {{findKnob("breaker.open.interval"), 1, 60, true},
          {findKnob("breaker.open.early_probe.enabled"), 0, 1, false},
          {findKnob("breaker.open.early_probe.poll"), 0.5, 10, true},
          {findKnob("fallback.cache.ttl"), 10, 120, false}};
}

// Args: threads, give up early (0/1).
void BM_Tune0908(benchmark::State& state) {
  const Evaluator evaluator = pricing();
  const std::vector<KnobRange> knobs = pricingKnobs();
  TuneOptions options;
  options.budget = 10000;
  options.threads = static_cast<unsigned>(state.range(0));
  options.give_up_early = state.range(1) != 0;
  TuneResult result;
  for (auto _ : state) result = tune(evaluator, knobs, options);
  state.counters["configs"] = static_cast<double>(result.stats.evaluated);
  state.counters["gave_up"] = static_cast<double>(result.stats.gave_up);
  state.counters["best_cached_while_healthy_s"] =
      result.front.empty() ? -1 : result.front[0].evaluation.objectives[0];
}
BENCHMARK(BM_Tune0908)
    ->ArgsProduct({{1, 2}, {0, 1}})
    ->ArgNames({"threads", "give_up"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The search against random points with the same budget: the mean best objective over 20 search
// seeds, and how often each found a config meeting the goals. Arg: budget.
template <TuneOptions::Method kMethod>
void BM_TuneQuality0908(benchmark::State& state) {
  const Evaluator evaluator = pricing();
  const std::vector<KnobRange> knobs = pricingKnobs();
  double sum = 0;
  int found = 0, runs = 0;
  for (auto _ : state) {
    sum = 0;
    found = runs = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      TuneOptions options;
      options.method = kMethod;
      options.budget = static_cast<std::size_t>(state.range(0));
      options.seed = seed;
      const TuneResult r = tune(evaluator, knobs, options);
      ++runs;
      if (!r.front.empty()) {
        ++found;
        sum += r.front[0].evaluation.objectives[0];
      }
    }
  }
  state.counters["mean_best_cached_while_healthy_s"] = found > 0 ? sum / found : -1;
  state.counters["found_share"] = static_cast<double>(found) / runs;
}
BENCHMARK(BM_TuneQuality0908<TuneOptions::Method::pattern>)
    ->Name("BM_TuneQuality0908/pattern")
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_TuneQuality0908<TuneOptions::Method::random>)
    ->Name("BM_TuneQuality0908/random")
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// 14 Aug, where the metric moves smoothly with the knobs: the least failed_pct over retries,
// backoff, timeout, workers and the breaker, against random points; 5 search seeds. Arg: budget.
template <TuneOptions::Method kMethod>
void BM_TuneQuality0814(benchmark::State& state) {
  const Incident& inc = load("inc-2026-0814-orders");
  TuneCase c{&inc, {}, inc.deployed};
  const Evaluator evaluator({c}, {findMetric("failed_pct")});
  const std::vector<KnobRange> knobs = {{findKnob("retry.max_attempts"), 1, 6, false},
                                        {findKnob("retry.backoff.base"), 10, 2000, true},
                                        {findKnob("timeout.attempt"), 200, 10000, true},
                                        {findKnob("workers.per_pod"), 10, 100, false},
                                        {findKnob("breaker.enabled"), 0, 1, false}};
  double sum = 0;
  for (auto _ : state) {
    sum = 0;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      TuneOptions options;
      options.method = kMethod;
      options.budget = static_cast<std::size_t>(state.range(0));
      options.seed = seed;
      const TuneResult r = tune(evaluator, knobs, options);
      sum += r.front.empty() ? 100 : r.front[0].evaluation.objectives[0];
    }
  }
  state.counters["mean_best_failed_pct"] = sum / 5;
}
BENCHMARK(BM_TuneQuality0814<TuneOptions::Method::pattern>)
    ->Name("BM_TuneQuality0814/pattern")
    ->Arg(50)
    ->Arg(150)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_TuneQuality0814<TuneOptions::Method::random>)
    ->Name("BM_TuneQuality0814/random")
    ->Arg(50)
    ->Arg(150)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// 14 Aug: failed checkouts over the attempt timeout x workers per pod. Arg: points per axis.
void BM_Map0814(benchmark::State& state) {
  const Incident& inc = load("inc-2026-0814-orders");
  TuneCase c{&inc, inc.goals, inc.deployed};
  const Evaluator evaluator({c}, {findMetric("failed_pct")});
  const KnobRange knobs[] = {{findKnob("timeout.attempt"), 200, 10000, true},
                             {findKnob("workers.per_pod"), 10, 100, false}};
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::size_t points[] = {n, n};
  SweepResult result;
  for (auto _ : state) result = sweep(evaluator, knobs, points);
  state.counters["cells"] = static_cast<double>(result.cells.size());
}
BENCHMARK(BM_Map0814)
    ->Arg(10)
    ->Arg(50)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
