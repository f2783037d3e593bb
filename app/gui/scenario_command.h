#pragma once
// A scenario override changed (a longer outage, more traffic), on the undo stack. Steps of the
// same key in a row (spin box arrows) merge into one entry.
#include <QUndoCommand>
#include <functional>

#include "breakerlab/core/scenario.h"

namespace breakerlab::app {

class ScenarioCommand : public QUndoCommand {
 public:
  using Apply = std::function<void(const Scenario&)>;
  ScenarioCommand(const Scenario& before, const Scenario& after, Apply apply)
      : QUndoCommand(QObject::tr("change the scenario")),
        before_(before),
        after_(after),
        apply_(std::move(apply)) {}

  void undo() override { apply_(before_); }
  void redo() override {
    if (!first_) apply_(after_);
    first_ = false;
  }
  int id() const override { return 0x5343454e; }  // "SCEN"
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const ScenarioCommand*>(other);
    if (changedKey(before_, after_) != changedKey(next->before_, next->after_)) return false;
    after_ = next->after_;
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

  Scenario before_;
  Scenario after_;
  Apply apply_;
  bool first_ = true;
};

}  // namespace breakerlab::app
