#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QWheelEvent>
#include <sstream>

#include "breakerlab/data/config_io.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/knob_specs.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

TEST(KnobPanel, ShowsTheConfigWithoutReportingAnEdit) {
  KnobPanel panel;
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  panel.setConfig(test::incident0908().deployed);
  EXPECT_EQ(edits.count(), 0);
  EXPECT_DOUBLE_EQ(panel.spinBox("breaker.open.interval")->value(), 20.0);
  EXPECT_DOUBLE_EQ(panel.spinBox("timeout.attempt")->value(), 800.0);
  EXPECT_DOUBLE_EQ(panel.spinBox("fallback.cache.ttl")->value(), 60.0);
  EXPECT_FALSE(panel.checkBox("breaker.open.early_probe.enabled")->isChecked());
  EXPECT_FALSE(panel.spinBox("breaker.open.early_probe.poll")->isEnabled())
      << "the poll only matters with the early probe on";
}

TEST(KnobPanel, EverySliderStepIsAnEditWithBeforeAndAfter) {
  KnobPanel panel;
  panel.setConfig(test::incident0908().deployed);
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  QSlider* slider = panel.slider("breaker.open.interval");
  const int start = slider->value();
  for (int step = 1; step <= 5; ++step) slider->setValue(start - step);  // dragging down
  ASSERT_EQ(edits.count(), 5);
  const auto last = edits.last();
  EXPECT_EQ(last.at(0).toString(), "breaker.open.interval");
  EXPECT_EQ(last.at(1).value<Config>().breaker.open_interval, 18 * kSecond);
  EXPECT_EQ(last.at(2).value<Config>().breaker.open_interval, 17'500'000);
  EXPECT_EQ(panel.config().breaker.open_interval, 17'500'000);
  EXPECT_DOUBLE_EQ(panel.spinBox("breaker.open.interval")->value(), 17.5) << "spin box follows";
}

TEST(KnobPanel, ValuesBeyondTheUsualRangeAreShownNotClamped) {
  Config config = test::incident0908().deployed;
  config.cache.ttl = 3600 * kSecond;
  KnobPanel panel;
  panel.setConfig(config);
  EXPECT_DOUBLE_EQ(panel.spinBox("fallback.cache.ttl")->value(), 3600.0);
  EXPECT_EQ(panel.config().cache.ttl, 3600 * kSecond);
}

// Scrolling the panel with the wheel over a slider or spin box scrolls the panel; the wheel
// changes a knob only once the user has clicked or tabbed to it.
TEST(KnobPanel, TheWheelScrollsThePanelUntilAKnobHasFocus) {
  KnobPanel panel;
  panel.setConfig(test::incident0908().deployed);
  panel.resize(400, 300);
  panel.show();
  QApplication::processEvents();
  QScrollBar* bar = panel.findChild<QScrollArea*>()->verticalScrollBar();
  ASSERT_GT(bar->maximum(), 0) << "the panel must scroll at this height";
  const auto wheel = [](QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
  };
  QSlider* slider = panel.slider("breaker.window.size");
  QDoubleSpinBox* spin = panel.spinBox("breaker.window.size");
  const int position = slider->value();
  const double value = spin->value();
  const int scrolled = bar->value();
  wheel(slider);
  wheel(spin);
  EXPECT_EQ(slider->value(), position);
  EXPECT_EQ(spin->value(), value);
  EXPECT_GT(bar->value(), scrolled) << "the panel scrolled instead";
  slider->setFocus();
  ASSERT_TRUE(slider->hasFocus());
  wheel(slider);
  EXPECT_NE(slider->value(), position) << "with focus the wheel moves the slider";
}

TEST(KnobSpecs, EveryKnobRoundTripsItsValue) {
  Config config;
  for (const KnobSpec& k : knobSpecs()) {
    const double v = k.kind == KnobSpec::Kind::number ? k.min + 3 * k.step : k.max;
    k.set(config, v);
    EXPECT_NEAR(k.get(config), v, 1e-9) << k.id;
  }
}

TEST(KnobSpecs, EveryKnobIdIsTheConfigKeyItEdits) {
  // A knob and `--set <id>=<value>` must change the same thing: the undo entry, the knob's
  // tooltip and the exported file all use the id.
  const Config base = test::incident0908().deployed;
  for (const KnobSpec& k : knobSpecs()) {
    if (!knobIsConfigKey(k)) continue;  // a part of a key (gobreaker.ReadyToTrip:ratio)
    const double v = k.kind == KnobSpec::Kind::number ? k.min + 7 * k.step : k.max;
    std::string text;
    if (k.text != nullptr && k.kind != KnobSpec::Kind::choice) {
      text = k.text(v);
    } else if (k.kind == KnobSpec::Kind::toggle) {
      text = v != 0 ? "true" : "false";
    } else if (k.kind == KnobSpec::Kind::choice) {
      text = std::string(k.choices[static_cast<std::size_t>(v)]);
    } else {
      std::ostringstream number;
      number.precision(17);  // the exact double, so both paths set the same value
      number << v;
      text = number.str();
      if (k.unit == "s" || k.unit == "ms" || k.unit == "%") text += std::string(k.unit);
    }
    Config by_knob = base;
    k.set(by_knob, v);
    const Config by_set = applyOverrides(base, {std::string(k.id) + "=" + text});
    EXPECT_EQ(by_set, by_knob) << k.id << "=" << text;
  }
}

}  // namespace
}  // namespace breakerlab::views
