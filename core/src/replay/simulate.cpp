// The entry points of a replay: each sets up a Simulation (replay/simulation.h) and runs it.
#include "breakerlab/core/replay/simulate.h"

#include "replay/simulation.h"

namespace breakerlab {

Result simulate(const Incident& incident, const Config& config) {
  return Simulation(incident, config, nullptr, incident.changes).run(nullptr);
}

Result simulate(const Incident& incident, const Config& config, ReplayCache& cache) {
  return Simulation(incident, config, nullptr, incident.changes).run(&cache);
}

Result simulate(const Incident& incident, const Config& config, CallTrace& trace,
                const std::vector<TimedChange>* changes) {
  Simulation simulation(incident, config, nullptr, changes ? *changes : incident.changes);
  simulation.traceInto(&trace);
  return simulation.run(nullptr);
}

Result simulate(const Incident& incident, const Config& config, const SimulateOptions& options) {
  const auto* progress = options.progress ? &options.progress : nullptr;
  Simulation simulation(incident, config, progress,
                        options.changes ? *options.changes : incident.changes);
  simulation.progressEvery(options.progress_every_events);
  simulation.giveUpAfterFailedCheckouts(options.give_up_after_failed_checkouts);
  simulation.reportOnly(options.report);
  return simulation.run(options.cache);
}

}  // namespace breakerlab
