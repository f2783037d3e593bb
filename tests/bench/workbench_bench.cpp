// Knob change to repainted lanes, charts and metrics, in the real workbench window (offscreen),
// for every bundled incident and a 1 M-request one. Small replays run on the UI thread; large
// ones on the worker, so their figure includes waiting for the worker's (first) answer.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QCoreApplication>
#include <QEventLoop>
#include <QSlider>
#include <QStandardPaths>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/lanes_view.h"
#include "fleet_of_1000.h"
#include "main_window.h"
#include "replay_session.h"
#include "sensitivity_job.h"

namespace {

using namespace breakerlab;

Incident bundled(const char* name) {
  return loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/" + name);
}

// One iteration: the timeout knob moves one step (a drag gives a new value every time), then the
// window repaints. `until_final`: wait for the exact, whole-window answer; otherwise stop at the
// first repaint, which on a long incident is the progressive one (the window replayed to where
// the frame's budget reached, the rest marked as replaying).
void knobToRepaint(benchmark::State& state, Incident incident, bool until_final,
                   const char* knob = "timeout.attempt") {
  app::MainWindow window;
  window.setInteractive(false);
  window.resize(1500, 900);
  window.show();
  window.session().adopt(std::move(incident), QStringLiteral("bench"));
  QSlider* slider = window.knobs()->slider(QString::fromLatin1(knob));
  const int start = slider->value();
  int step = 0;
  for (auto _ : state) {
    QEventLoop wait;
    int answers = 0;
    const auto done =
        QObject::connect(&window.session(), &app::ReplaySession::resultChanged, &wait, [&] {
          ++answers;
          wait.quit();
        });
    // Neighbouring positions of a log slider can round to the same value: on to the next
    // position until the config changes (or the bench would wait for an answer never coming).
    const Config before = window.session().config();
    for (int tries = 0; tries < 40 && window.session().config() == before; ++tries)
      slider->setValue(start - 1 - (step++ % 20));
    if (window.session().config() == before) {
      QObject::disconnect(done);
      state.SkipWithError("the knob's slider changes no value near its start");
      break;
    }
    if (answers == 0) wait.exec();  // the worker's answer (a preview answers at once)
    while (until_final && window.session().busy()) wait.exec();
    QObject::disconnect(done);
    // The lanes asked for a queued replot; run it, as the event loop does after a slider tick.
    QCoreApplication::processEvents();
  }
  state.counters["simulated_requests"] =
      static_cast<double>(window.session().result().simulated_requests);
  state.counters["partial"] = window.session().partialUntil() ? 1 : 0;
  while (window.session().busy()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

// Every bundled incident; the worker-sized ones also to their whole answer ("_final").
struct BundledCase {
  const char* name;
  const char* file;
  bool until_final;
};
constexpr BundledCase kBundled[] = {
    {"0908", "inc-2026-0908-pricing.yaml", false},
    {"001", "inc-payment-retry-amplification.yaml", false},
    {"0814", "inc-2026-0814-orders.yaml", false},
    {"0814_final", "inc-2026-0814-orders.yaml", true},
    {"0912", "inc-2026-0912-payment-timeout.yaml", false},
    {"0912_final", "inc-2026-0912-payment-timeout.yaml", true},
    {"teach", "teach-metastable-retries.yaml", false},
};

void registerBundled() {
  for (const BundledCase& c : kBundled) {
    benchmark::RegisterBenchmark(
        (std::string("BM_KnobToRepaint/") + c.name).c_str(),
        [c](benchmark::State& state) { knobToRepaint(state, bundled(c.file), c.until_final); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

// 12 Sep's breaker-at-40-pods what-if as the deployed config: 40 breakers, one per pod
// (Arg 0), against one shared by the fleet (Arg 1). Its own changes: none (no rollback).
void BM_KnobToRepaint40Pods(benchmark::State& state) {
  Incident inc = bundled("inc-2026-0912-payment-timeout.yaml");
  const WhatIf* what_if = inc.whatIf("breaker-at-40-pods");
  if (what_if == nullptr) {
    state.SkipWithError("12 Sep has no breaker-at-40-pods what-if");
    return;
  }
  inc.deployed = what_if->config;
  if (what_if->changes) inc.changes = *what_if->changes;
  inc.deployed.breaker.scope = state.range(0) == 0 ? StateScope::per_pod : StateScope::shared;
  knobToRepaint(state, std::move(inc), false);
}
BENCHMARK(BM_KnobToRepaint40Pods)
    ->ArgName("shared")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_KnobToRepaint1M(benchmark::State& state) {
  Incident inc = bundled("inc-2026-0908-pricing.yaml");
  for (auto& piece : inc.traffic.rate) piece.rps_from = piece.rps_to = 1'000'000 / 60.0;
  // 0: the timeout, which a lead-in with no failed call and none as long as the old or new
  // timeout never acted on (the preview takes the lead-in from the cache); 1: the same, to the
  // whole answer; 2: the breaker's open interval, which the closed lead-in never reads.
  knobToRepaint(state, std::move(inc), state.range(0) == 1,
                state.range(0) == 2 ? "breaker.open.interval" : "timeout.attempt");
}
BENCHMARK(BM_KnobToRepaint1M)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same knob drag on 14 Aug to its whole answer while a 50 x 50 map of it computes in the
// background on N threads, the second and on at nice 19 (0: the workbench's default, every core
// but one): compare with BM_KnobToRepaint/0814_final.
void BM_KnobToRepaintWhileMapping(benchmark::State& state) {
  auto incident = std::make_shared<const Incident>(bundled("inc-2026-0814-orders.yaml"));
  app::SensitivityJob job;
  app::SensitivityRequest request;
  request.incident = incident;
  request.base = incident->deployed;
  request.knobs = {{findKnob("timeout.attempt"), 200, 10000, true},
                   {findKnob("workers.per_pod"), 10, 100, false}};
  request.points = {50, 50};
  request.metrics = {findMetric("failed_pct")};
  request.threads = static_cast<unsigned>(state.range(0));
  job.start(std::move(request));
  knobToRepaint(state, *incident, true);
  state.counters["map_still_computing"] = job.busy() ? 1 : 0;
  job.cancel();
}
BENCHMARK(BM_KnobToRepaintWhileMapping)
    ->ArgName("map_threads")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The lanes of a synthetic 1,000-pod fleet with a breaker in every pod (10,000 checkouts/s for
// 10 minutes, Pricing refusing 60% of calls from 2 to 5 minutes, as BM_ReplayFleetOf1000 in
// replay_bench), the breakers by pod expanded: one iteration scrolls them a wheel notch (3 pods)
// and repaints the lanes. Only the pods on screen are rows of the plot.
Incident fleetOf1000() {
  Incident inc = fleetOf1000(bundled("inc-2026-0908-pricing.yaml"));
  inc.deployed.breaker.scope = StateScope::per_pod;
  return inc;
}

void BM_ScrollPods1000(benchmark::State& state) {
  const Incident incident = fleetOf1000();
  const Result result = simulate(incident, incident.deployed);
  if (result.pod_breakers.size() != 1000) {
    state.SkipWithError("the synthetic fleet has no breaker per pod");
    return;
  }
  views::LanesView lanes;
  lanes.resize(1200, 700);
  lanes.setIncident(incident);
  lanes.setResults(result, nullptr);
  lanes.show();
  lanes.setPodsExpanded(true);
  lanes.replotNow();
  QCoreApplication::processEvents();
  std::size_t first = 0;
  for (auto _ : state) {
    first = first + 3 + lanes.podRowsShown() > 1000 ? 0 : first + 3;
    lanes.scrollPodsTo(first);
    lanes.replotNow();
  }
  std::size_t intervals = 0;
  for (const Lane& pod : result.pod_breakers) intervals += pod.intervals.size();
  state.counters["pods"] = 1000;
  state.counters["pod_rows_on_screen"] = static_cast<double>(lanes.podRowsShown());
  state.counters["pod_intervals"] = static_cast<double>(intervals);
}
BENCHMARK(BM_ScrollPods1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  registerBundled();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
