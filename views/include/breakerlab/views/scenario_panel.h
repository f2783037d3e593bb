#pragma once
// Overrides of the incident itself (core/scenario.h): a longer outage, more traffic, a slower
// or smaller dependency. One spin box per scenarioKeys() entry.
#include <QWidget>
#include <vector>

#include "breakerlab/core/inputs/scenario.h"

class QDoubleSpinBox;

namespace breakerlab::views {

class ScenarioPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ScenarioPanel(QWidget* parent = nullptr);

  // Shows `scenario` without reporting an edit (load, undo).
  void setScenario(const Scenario& scenario);
  const Scenario& scenario() const { return scenario_; }

 signals:
  void scenarioEdited(const Scenario& before, const Scenario& after);

 private:
  std::vector<QDoubleSpinBox*> boxes_;  // in scenarioKeys() order
  Scenario scenario_;
  bool updating_ = false;
};

}  // namespace breakerlab::views
