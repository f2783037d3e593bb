// The workspace's costs: a run saved (one transaction, fsync'd), the run list the panel shows,
// a run read back, an autosave, and a stored incident read back for replay.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/workspace.h"
#include "breakerlab/data/workspace_run.h"

namespace {
using namespace breakerlab;

const std::filesystem::path kIncident =
    std::filesystem::path(BREAKERLAB_RESOURCES) / "incidents/inc-2026-0908-pricing.yaml";

struct Scratch {
  Scratch() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ws-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::filesystem::path dir;
};

struct Filled {
  Scratch scratch;
  Workspace ws = Workspace::open(scratch.dir / "bench.breakerlab");
  ImportedIncident opened = openIncidentFile(kIncident);
  std::int64_t incident = ws.addIncident(storedIncidentOf(opened, kIncident));
  NewRun run = [this] {
    const RunInputs inputs = inputsOf(opened.incident, opened.incident.deployed);
    return newRunOf(incident, inputs, replayRun(opened.incident, inputs), "bench");
  }();
  explicit Filled(int runs) {
    for (int i = 0; i < runs; ++i) ws.saveRun(run);
  }
};

void BM_SaveRun(benchmark::State& state) {
  Filled f(0);
  for (auto _ : state) benchmark::DoNotOptimize(f.ws.saveRun(f.run));
}
BENCHMARK(BM_SaveRun)->Unit(benchmark::kMicrosecond);

void BM_Autosave(benchmark::State& state) {
  Filled f(0);
  const Autosave a{f.incident, f.run.inputs, {}};
  for (auto _ : state) f.ws.autosave(a);
}
BENCHMARK(BM_Autosave)->Unit(benchmark::kMicrosecond);

// The panel's list of an incident's runs, newest first, with their metrics and goals.
void BM_ListRuns(benchmark::State& state) {
  Filled f(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.ws.runs());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ListRuns)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ReadRun(benchmark::State& state) {
  Filled f(1);
  const std::int64_t id = f.ws.runs().front().id;
  for (auto _ : state) benchmark::DoNotOptimize(f.ws.run(id));
}
BENCHMARK(BM_ReadRun)->Unit(benchmark::kMicrosecond);

void BM_RestoreIncident(benchmark::State& state) {
  Filled f(0);
  for (auto _ : state) benchmark::DoNotOptimize(restoreIncident(f.ws.incident(f.incident)));
}
BENCHMARK(BM_RestoreIncident)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
