#pragma once
// A scenario override changed (a longer outage, more traffic), on the undo stack. Steps of the
// same key in a row (spin box arrows) merge into one entry.
#include "breakerlab/core/inputs/scenario.h"
#include "value_command.h"

namespace breakerlab::app {

class ScenarioCommand : public ValueCommand<Scenario> {
 public:
  ScenarioCommand(const Scenario& before, const Scenario& after, Apply apply)
      : ValueCommand(QObject::tr("change the scenario"), before, after, std::move(apply)) {}

  int id() const override { return 0x5343454e; }  // "SCEN"
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const ScenarioCommand*>(other);
    if (changedKey(before(), after()) != changedKey(next->before(), next->after())) return false;
    takeAfterOf(*next);
    return true;
  }

 private:
  // Which field differs (the first), as an index, or -1.
  static int changedKey(const Scenario& a, const Scenario& b) {
    if (a.outage_extend != b.outage_extend) return 0;
    if (a.traffic_scale != b.traffic_scale) return 1;
    if (a.latency_scale != b.latency_scale) return 2;
    if (a.capacity_scale != b.capacity_scale) return 3;
    return -1;
  }
};

}  // namespace breakerlab::app
