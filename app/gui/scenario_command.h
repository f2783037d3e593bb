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
  // Which key differs (the first, by scenarioKeys()), as an index, or -1.
  static int changedKey(const Scenario& a, const Scenario& b) {
    const auto keys = scenarioKeys();
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i].get(a) != keys[i].get(b)) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace breakerlab::app
