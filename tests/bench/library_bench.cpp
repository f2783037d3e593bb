// Decisions per second of each breaker over a 1 M-call log (breaker --library without the file
// reading and the JSON): healthy, failing and recovering phases, slow failures, 40 calls/s on
// average. Run: build/release/tests/bench/library_bench (items_per_second = decisions/s).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "breakerlab/core/replay/call_log_replay.h"

namespace {

using namespace breakerlab;

// A deterministic log of `n` calls (splitmix64 draws): phases of 5 to 400 calls.
std::vector<LoggedCall> makeLog(std::size_t n) {
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    x += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  };
  std::vector<LoggedCall> log;
  log.reserve(n);
  Micros t = 0;
  while (log.size() < n) {
    const double fail = next() < 0.4 ? 0.8 : 0.03;
    const bool slow = next() < 0.3;
    const std::size_t length = 5 + static_cast<std::size_t>(next() * 395);
    for (std::size_t k = 0; k < length && log.size() < n; ++k) {
      t += 1 + static_cast<Micros>(next() * 50) * kMillisecond;
      LoggedCall c;
      c.start = t;
      const bool failed = next() < fail;
      c.outcome = failed ? CallOutcome::failure : CallOutcome::success;
      c.duration = (failed && slow ? 500 + static_cast<Micros>(next() * 5000)
                                   : 1 + static_cast<Micros>(next() * 200)) *
                   kMillisecond;
      log.push_back(c);
    }
  }
  return log;
}

const std::vector<LoggedCall>& log1M() {
  static const std::vector<LoggedCall> log = makeLog(1'000'000);
  return log;
}

void decisions(benchmark::State& state, BreakerLibrary library) {
  Config c;
  c.breaker.library = library;
  c.native.resilience4j.minimum_number_of_calls = 20;
  c.native.resilience4j.sliding_window_size = 20;
  c.native.resilience4j.wait_duration_in_open_state = 10 * kSecond;
  c.native.gobreaker.max_requests = 1;
  c.native.gobreaker.timeout = 10 * kSecond;
  c.native.gobreaker.ready_to_trip = GobreakerTripRule::consecutiveFailures(Comparison::ge, 5);
  c.native.polly.minimum_throughput = 20;
  c.native.opossum.volume_threshold = 20;
  c.native.opossum.reset_timeout = 10 * kSecond;
  c.native.cockatiel.half_open_after.delay = 10 * kSecond;
  c.native.cockatiel.half_open_calls = 3;
  c.native.envoy.max_ejection_percent = 100;
  const auto& log = log1M();
  std::uint64_t permitted = 0, transitions = 0;
  std::vector<BreakerTransition> taken;
  for (auto _ : state) {
    CallLogReplay replay(c.breaker, c.native);
    CallDecision d;
    permitted = 0;
    transitions = 0;
    for (const LoggedCall& call : log) {
      replay.add(call);
      while (replay.popDecision(d)) permitted += d.permitted;
      if ((call.start & 0xff) == 0) {
        replay.takeTransitions(taken);
        transitions += taken.size();
        taken.clear();
      }
    }
    replay.finish();
    while (replay.popDecision(d)) permitted += d.permitted;
    replay.takeTransitions(taken);
    transitions += taken.size();
    taken.clear();
    benchmark::DoNotOptimize(permitted);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(log.size()));
  state.counters["permitted_pct"] = 100.0 * static_cast<double>(permitted) / log.size();
  state.counters["transitions"] = static_cast<double>(transitions);
}

BENCHMARK_CAPTURE(decisions, breakerlab, BreakerLibrary::breakerlab)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decisions, resilience4j, BreakerLibrary::resilience4j)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decisions, gobreaker, BreakerLibrary::gobreaker)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decisions, polly, BreakerLibrary::polly)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decisions, opossum, BreakerLibrary::opossum)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decisions, cockatiel, BreakerLibrary::cockatiel)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(decisions, envoy, BreakerLibrary::envoy)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
