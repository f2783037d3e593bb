#include "breakerlab/views/scenario_panel.h"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QVBoxLayout>

#include "breakerlab/core/basics/translatable.h"
#include "breakerlab/views/qt_text.h"
#include "breakerlab/views/wheel_guard.h"

namespace breakerlab::views {

ScenarioPanel::ScenarioPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(4, 0, 4, 4);
  auto* group = new QGroupBox(tr("Scenario"));
  group->setToolTip(
      tr("Change the incident itself, not the client: the recorded lanes stay as "
         "recorded. --set scenario.KEY=VALUE on the command line."));
  auto* form = new QFormLayout(group);
  for (const ScenarioKeyInfo& k : scenarioKeys()) {
    auto* box = new QDoubleSpinBox;
    box->setObjectName(qs(k.name));
    box->setKeyboardTracking(false);
    takeWheelOnlyWithFocus(box);
    if (k.duration) {
      box->setRange(0, 24 * 3600);
      box->setDecimals(0);
      box->setSingleStep(10);
      box->setSuffix(tr(" s"));
    } else {
      box->setRange(k.min, k.max);
      box->setDecimals(2);
      box->setSingleStep(0.1);
    }
    // The model's text, translated in the context its table marks it with.
    const auto shown = [](std::string_view text) {
      return QCoreApplication::translate(kScenarioTrContext, std::string(text).c_str());
    };
    box->setToolTip(shown(k.meaning));
    form->addRow(shown(k.label), box);
    boxes_.push_back(box);
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, &k](double v) {
      if (updating_) return;
      const Scenario before = scenario_;
      k.set(scenario_, k.duration ? static_cast<double>(fromSeconds(v)) : v);
      if (!(scenario_ == before)) emit scenarioEdited(before, scenario_);
    });
  }
  outer->addWidget(group);
  setScenario(Scenario{});
}

void ScenarioPanel::setScenario(const Scenario& scenario) {
  updating_ = true;
  scenario_ = scenario;
  const auto keys = scenarioKeys();
  for (std::size_t i = 0; i < keys.size(); ++i)
    boxes_[i]->setValue(keys[i].duration ? keys[i].get(scenario) / kSecond : keys[i].get(scenario));
  updating_ = false;
}

}  // namespace breakerlab::views
