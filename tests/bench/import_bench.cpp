// Reading hostile native configs and postmortems: linear in the input, and refused at a limit
// before the work. Sizes ten times the reproducers' (tests/data/*_hostile_test.cpp has their
// messages); a refused input reports the time to the error.
// Run: build/release/tests/bench/import_bench (items_per_second = instances or blocks/s).
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/native_config.h"

namespace {

using namespace breakerlab;

std::string resource(const std::string& name) {
  std::ifstream in(std::string(BREAKERLAB_RESOURCES) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The bundled application.yml with `n` more instances, one line each (the reproducer's gen.py).
std::string r4jYaml(std::int64_t n) {
  std::string text = resource("configs/inc-2026-0908-resilience4j.yml");
  std::string extra;
  for (std::int64_t i = 0; i < n; ++i)
    extra += "      i" + std::to_string(i) +
             ": {slidingWindowSize: " + std::to_string(i % 100 + 1) + "}\n";
  const std::string at = "    instances:\n";
  text.insert(text.find(at) + at.size(), extra);
  return text;
}

std::string r4jProperties(std::int64_t n) {
  std::string text;
  for (std::int64_t i = 0; i < n; ++i)
    text += "resilience4j.circuitbreaker.instances.p" + std::to_string(i) +
            ".slidingWindowSize=" + std::to_string(i % 100 + 1) + "\n";
  return text;
}

// Reads `text` once per iteration; counts the refusals (LoadError) in the "refused" counter.
void readNative(benchmark::State& state, const std::string& text, const std::string& file) {
  std::int64_t refused = 0;
  for (auto _ : state) {
    try {
      benchmark::DoNotOptimize(parseNativeConfig(text, file));
    } catch (const LoadError&) {
      ++refused;
    }
  }
  state.counters["refused"] =
      static_cast<double>(refused) / static_cast<double>(state.iterations());
  state.counters["bytes"] = static_cast<double>(text.size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// 5,000 instances took 56 s, 10,000 257 s. The limit is 10,000 (9,999 and the file's own are
// the most accepted); 50,000 is refused after the YAML is read.
void BM_Resilience4jYaml(benchmark::State& state) {
  const std::string text = r4jYaml(state.range(0));
  readNative(state, text, "application.yml");
}
BENCHMARK(BM_Resilience4jYaml)->Arg(5'000)->Arg(9'999)->Arg(50'000)->Unit(benchmark::kMillisecond);

// 5,000 took 51 s; 300,000 807 MB. Refused at the 10,001st instance's line.
void BM_Resilience4jProperties(benchmark::State& state) {
  const std::string text = r4jProperties(state.range(0));
  readNative(state, text, "application.properties");
}
BENCHMARK(BM_Resilience4jProperties)
    ->Arg(5'000)
    ->Arg(10'000)
    ->Arg(50'000)
    ->Arg(300'000)
    ->Unit(benchmark::kMillisecond);

// The 8 Sep postmortem followed by `n` copies of its ```timing block (1,660 bytes each; the
// reproducer's gen.py). 30,000 took 49.5 s and 1.29 GB. Each copy adds two expectations, so 490
// copies are the most accepted (1,000 expectations); 1,000 are refused at the 1,001st fenced
// block. 300,000 copies (500 MB) are beyond the 64 MiB a document may have: a file that size is
// refused before it is read, so the largest refusal benched is the reproducer's 30,000 (50 MB).
std::string manyTimingBlocks(std::int64_t n) {
  std::string text = resource("postmortems/inc-2026-0908-pricing-postmortem.md");
  const std::size_t open = text.find("```timing\n");
  const std::string block = text.substr(open, text.find("```\n", open + 4) + 4 - open);
  text += "\n";
  for (std::int64_t i = 0; i < n; ++i) text += block + "\n";
  return text;
}

// Imports the postmortem `text` without calibration (the replays are the calibration's, not
// the reader's), counting the runs refused with a LoadError.
void importPostmortem(benchmark::State& state, const std::string& text) {
  ImportOptions options;
  options.calibrate = false;
  std::int64_t refused = 0;
  for (auto _ : state) {
    try {
      benchmark::DoNotOptimize(importIncident(text, "pm.md", options));
    } catch (const LoadError&) {
      ++refused;
    }
  }
  state.counters["refused"] =
      static_cast<double>(refused) / static_cast<double>(state.iterations());
  state.counters["bytes"] = static_cast<double>(text.size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_PostmortemTimingBlocks(benchmark::State& state) {
  const std::string text = manyTimingBlocks(state.range(0));
  importPostmortem(state, text);
}
BENCHMARK(BM_PostmortemTimingBlocks)
    ->Arg(100)
    ->Arg(490)
    ->Arg(1'000)
    ->Arg(30'000)
    ->Unit(benchmark::kMillisecond);

// A Breaker lane of `n` states (the reproducer's 10^6 is 53 MB): refused at the state that takes
// the blocks past 1,000,000 YAML values, before yaml-cpp reads the block. 9,000 are accepted
// (a lane may have 10,000).
void BM_PostmortemLaneStates(benchmark::State& state) {
  std::string text = resource("postmortems/inc-2026-0908-pricing-postmortem.md");
  std::string rows;
  for (std::int64_t i = 0; i < state.range(0); ++i)
    rows += "      - { state: " + std::string(i % 2 ? "open" : "closed") +
            ", from: " + std::to_string(i) + ", to: " + std::to_string(i + 1) + " }\n";
  const std::string at = "  - label: Breaker\n    states:\n";
  text.insert(text.find(at) + at.size(), rows);
  importPostmortem(state, text);
}
BENCHMARK(BM_PostmortemLaneStates)->Arg(9'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// Go: `n` constants of durations (the map of them was copied for each) and `n` nested const
// blocks (each scanned to its end).
void BM_GoConstants(benchmark::State& state) {
  std::string text;
  for (std::int64_t i = 0; i < state.range(0); ++i)
    text += "const c" + std::to_string(i) + " = " + std::to_string(i % 60) + " * time.Second\n";
  for (std::int64_t i = 0; i < state.range(0); ++i) text += "const (\n";
  text += std::string(static_cast<std::size_t>(state.range(0)), ')') +
          "\nvar s = gobreaker.Settings{\n\tTimeout: c7,\n}\n";
  readNative(state, text, "breaker.go");
}
BENCHMARK(BM_GoConstants)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
