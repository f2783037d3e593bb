// Knob change to repainted lanes, chart and metrics, in the real workbench window (offscreen).
// The bundled incident replays on the UI thread; the 1 M-request incident on the worker, so its
// figure includes waiting for the worker's result.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QCoreApplication>
#include <QEventLoop>
#include <QSlider>
#include <QStandardPaths>

#include "breakerlab/data/incident_io.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/lanes_view.h"
#include "main_window.h"
#include "replay_session.h"

namespace {

using namespace breakerlab;

Incident incident0908() {
  return loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/inc-2026-0908-pricing.yaml");
}

void knobToRepaint(benchmark::State& state, Incident incident) {
  app::MainWindow window;
  window.setInteractive(false);
  window.resize(1500, 900);
  window.show();
  window.session().adopt(std::move(incident), QStringLiteral("bench"));
  QSlider* slider = window.knobs()->slider("breaker.open.interval");
  const int start = slider->value();
  int step = 0;
  for (auto _ : state) {
    QEventLoop wait;
    const auto done = QObject::connect(&window.session(), &app::ReplaySession::resultChanged, &wait,
                                       &QEventLoop::quit);
    slider->setValue(start - 1 - (step++ % 10));  // a drag: a new value every time
    if (window.session().busy()) wait.exec();     // the worker's replay
    QObject::disconnect(done);
    // The lanes asked for a queued replot; run it, as the event loop does after a slider tick.
    QCoreApplication::processEvents();
  }
  state.counters["simulated_requests"] =
      static_cast<double>(window.session().result().simulated_requests);
}

void BM_KnobToRepaint0908(benchmark::State& state) {
  knobToRepaint(state, incident0908());
}
BENCHMARK(BM_KnobToRepaint0908)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KnobToRepaint1M(benchmark::State& state) {
  Incident inc = incident0908();
  for (auto& piece : inc.traffic.rate) piece.rps_from = piece.rps_to = 1'000'000 / 60.0;
  knobToRepaint(state, std::move(inc));
}
BENCHMARK(BM_KnobToRepaint1M)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
