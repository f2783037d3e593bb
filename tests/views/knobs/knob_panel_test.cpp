#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <sstream>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/views/knob_panel.h"
#include "knobs/knob_label.h"
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
  QSlider* slider = panel.slider("breaker.failure_rate");  // linear: 1 % a position
  const int start = slider->value();
  for (int step = 1; step <= 5; ++step) slider->setValue(start - step);  // dragging down
  ASSERT_EQ(edits.count(), 5);
  const auto last = edits.last();
  EXPECT_EQ(last.at(0).toString(), "breaker.failure_rate");
  EXPECT_EQ(last.at(1).value<Config>().breaker.failure_rate_pct, 46);
  EXPECT_EQ(last.at(2).value<Config>().breaker.failure_rate_pct, 45);
  EXPECT_EQ(panel.config().breaker.failure_rate_pct, 45);
  EXPECT_DOUBLE_EQ(panel.spinBox("breaker.failure_rate")->value(), 45) << "spin box follows";
}

// A log slider: each step that changes the value is one edit, down to the next rounded value.
TEST(KnobPanel, DraggingALogSliderGivesRoundValuesAndLeavesTheHandleWhereItIs) {
  KnobPanel panel;
  panel.setConfig(test::incident0908().deployed);
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  QSlider* slider = panel.slider("breaker.open.interval");  // 0.5 .. 120 s by ratio
  const int start = slider->value();
  Micros previous = panel.config().breaker.open_interval;
  for (int p = start - 1; p >= start - 60; --p) {
    slider->setValue(p);
    EXPECT_EQ(slider->value(), p) << "the handle stays under the mouse";
    EXPECT_LE(panel.config().breaker.open_interval, previous);
    EXPECT_EQ(panel.config().breaker.open_interval % (kSecond / 2), 0) << "on the 0.5 s step";
    previous = panel.config().breaker.open_interval;
  }
  EXPECT_LT(previous, 20 * kSecond);
  EXPECT_GT(edits.count(), 5);
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

// The call timeout's slider by ratio: 1 s sits in the middle of 10 ms .. 60 s, and a deployed
// 30 min ends the slider without pushing 0.5-5 s into a few pixels.
TEST(KnobPanel, TheTimeoutSliderGivesTheSecondsRoom) {
  Config config = test::incident0908().deployed;
  KnobPanel panel;
  QSlider* slider = panel.slider("timeout.attempt");
  const auto share = [slider] { return double(slider->value()) / slider->maximum(); };
  config.timeout.attempt = kSecond;
  panel.setConfig(config);
  EXPECT_NEAR(share(), 0.53, 0.02) << "log(1 s / 10 ms) / log(60 s / 10 ms)";
  config.timeout.attempt = 5 * kSecond;
  panel.setConfig(config);
  const double five = share();
  config.timeout.attempt = 500 * kMillisecond;
  panel.setConfig(config);
  EXPECT_GE(five - share(), 0.25) << "0.5-5 s is a quarter of the slider";

  config.timeout.attempt = 30 * 60 * kSecond;
  panel.setConfig(config);
  EXPECT_EQ(slider->value(), slider->maximum());
  EXPECT_EQ(panel.spinBox("timeout.attempt")->text(), "30 min");
  EXPECT_EQ(panel.config().timeout.attempt, 30 * 60 * kSecond) << "widened, not clamped";
  // Deployed at 30 min, tuned to 1 s: the slider keeps the deployed value in reach.
  panel.setDeployed(config);
  config.timeout.attempt = kSecond;
  panel.setConfig(config);
  EXPECT_GT(share(), 0.3);
  EXPECT_LT(share(), 0.5);
}

TEST(KnobPanel, DurationsShowInTheirNaturalUnitAndZeroByWhatItMeans) {
  Config config = test::incident0908().deployed;
  config.timeout.attempt = 33'200 * kMillisecond;
  config.breaker.open_interval = 90 * kSecond;
  config.pool.size = 0;
  config.timeout.total = 0;
  KnobPanel panel;
  panel.setConfig(config);
  EXPECT_EQ(panel.spinBox("timeout.attempt")->text(), "33.2 s");
  EXPECT_DOUBLE_EQ(panel.spinBox("timeout.attempt")->value(), 33'200) << "the value, in ms";
  EXPECT_EQ(panel.spinBox("breaker.open.interval")->text(), "1.5 min");
  EXPECT_EQ(panel.spinBox("pool.size")->text(), "unlimited");
  EXPECT_EQ(panel.spinBox("timeout.total")->text(), "no deadline");
  EXPECT_EQ(panel.spinBox("breaker.failure_rate")->text(), "50 %") << "others as before";
  config.timeout.attempt = 33'240 * kMillisecond;
  panel.setConfig(config);
  EXPECT_EQ(panel.spinBox("timeout.attempt")->text(), "33.24 s") << "exact, never rounded";
  config.timeout.attempt = 800 * kMillisecond;
  panel.setConfig(config);
  EXPECT_EQ(panel.spinBox("timeout.attempt")->text(), "800 ms");
}

TEST(KnobPanel, ADurationIsTypedWithAnyUnit) {
  KnobPanel panel;
  panel.setConfig(test::incident0908().deployed);
  panel.show();
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  const auto type = [&panel](const QString& id, const QString& text) {
    QDoubleSpinBox* spin = panel.spinBox(id);
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
  };
  type("timeout.attempt", "2s");
  EXPECT_EQ(panel.config().timeout.attempt, 2 * kSecond);
  EXPECT_EQ(panel.spinBox("timeout.attempt")->text(), "2 s");
  type("timeout.attempt", "1.5 min");
  EXPECT_EQ(panel.config().timeout.attempt, 60 * kSecond) << "clamped to the knob's 60 s";
  type("fallback.cache.ttl", "1.5 min");
  EXPECT_EQ(panel.config().cache.ttl, 90 * kSecond);
  type("fallback.cache.ttl", "45");  // a bare number is in the unit shown: min
  EXPECT_EQ(panel.config().cache.ttl, 600 * kSecond) << "45 min, clamped to the knob's 10 min";
  type("timeout.attempt", "800ms");
  EXPECT_EQ(panel.config().timeout.attempt, 800 * kMillisecond);
  type("timeout.total", "300 ms");
  EXPECT_EQ(panel.config().timeout.total, 300 * kMillisecond);
  type("timeout.total", "No deadline");
  EXPECT_EQ(panel.config().timeout.total, 0);
  EXPECT_EQ(edits.count(), 7);
}

TEST(KnobPanel, AChoiceShowsItsNameAndItsSpellingInTheTooltip) {
  KnobPanel panel;
  panel.setConfig(test::incident0908().deployed);
  QComboBox* placement = panel.comboBox("breaker.placement");
  EXPECT_EQ(placement->currentText(), "Outside the retries");
  EXPECT_EQ(placement->itemData(0, Qt::ToolTipRole).toString(), "outside_retry");
  EXPECT_TRUE(placement->toolTip().contains("breaker.placement: outside_retry"));
  EXPECT_EQ(panel.comboBox("breaker.half_open.close_when")->currentText(), "All probes succeed");
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  placement->setCurrentIndex(1);
  EXPECT_EQ(panel.config().breaker.placement, BreakerPlacement::inside_retry);
  EXPECT_TRUE(placement->toolTip().contains("breaker.placement: inside_retry"));
  EXPECT_EQ(panel.comboBox("breaker.library")->currentText(), "BreakerLab (generic)");
}

// A knob off its deployed value is marked (a dot, bold, a reset button); the reset is an edit
// like a drag (so the window can undo it), and a new deployed config moves the marks.
TEST(KnobPanel, AChangedKnobIsMarkedAndResetsToDeployed) {
  const Config deployed = test::incident0908().deployed;
  KnobPanel panel;
  panel.setDeployed(deployed);
  panel.setConfig(deployed);
  panel.show();
  const QString id = "breaker.open.interval";
  EXPECT_FALSE(panel.isMarked(id));
  EXPECT_FALSE(panel.resetButton(id)->isVisible());
  const QString plain = panel.label(id)->text();
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  panel.slider(id)->setValue(panel.slider(id)->value() - 30);
  ASSERT_EQ(edits.count(), 1);
  EXPECT_TRUE(panel.isMarked(id));
  EXPECT_EQ(panel.label(id)->text(), plain) << "the dot is painted in the gutter";
  EXPECT_TRUE(static_cast<KnobLabel*>(panel.label(id))->isMarked());
  EXPECT_TRUE(panel.resetButton(id)->isVisible());
  EXPECT_EQ(panel.resetButton(id)->toolTip(), "Reset to deployed (20 s)");
  EXPECT_FALSE(panel.isMarked("timeout.attempt"));

  panel.resetButton(id)->click();
  ASSERT_EQ(edits.count(), 2);
  EXPECT_EQ(edits.last().at(0).toString(), "reset " + id) << "an undo step of its own";
  EXPECT_EQ(edits.last().at(2).value<Config>(), deployed);
  EXPECT_EQ(panel.config(), deployed);
  EXPECT_FALSE(panel.isMarked(id));
  EXPECT_EQ(panel.label(id)->text(), plain);
  EXPECT_FALSE(static_cast<KnobLabel*>(panel.label(id))->isMarked());
  EXPECT_FALSE(panel.resetButton(id)->isVisible());

  // A toggle and a choice are marked on their own text; a new deployed config re-marks.
  panel.checkBox("breaker.open.early_probe.enabled")->setChecked(true);
  EXPECT_TRUE(panel.isMarked("breaker.open.early_probe.enabled"));
  auto* early_probe =
      static_cast<KnobCheckBox*>(panel.checkBox("breaker.open.early_probe.enabled"));
  EXPECT_TRUE(early_probe->isMarked());
  EXPECT_TRUE(early_probe->shownText().startsWith("• ")) << early_probe->shownText().toStdString();
  Config other = deployed;
  other.breaker.early_probe = true;
  other.pricing.mode = PricingMode::cache_first;
  panel.setDeployed(other);
  EXPECT_FALSE(panel.isMarked("breaker.open.early_probe.enabled"));
  EXPECT_TRUE(panel.isMarked("pricing.mode"));
  EXPECT_EQ(panel.resetButton("pricing.mode")->toolTip(), "Reset to deployed (Cache first)");
  panel.resetToDeployed("pricing.mode");
  EXPECT_EQ(panel.config().pricing.mode, PricingMode::cache_first);
  EXPECT_FALSE(panel.isMarked("pricing.mode"));
}

// Choosing a library carries the deployed breaker over (issue #33): its knobs hold what was
// deployed, so only the choice is marked, and a reset gives the deployed value under its rules.
TEST(KnobPanel, ALibrarysKnobsAreComparedWithTheDeployedBreakerUnderItsRules) {
  const Config deployed = test::incident0908().deployed;
  KnobPanel panel;
  panel.setDeployed(deployed);
  panel.setConfig(deployed);
  QSignalSpy edits(&panel, &KnobPanel::configEdited);
  panel.comboBox("breaker.library")->setCurrentText("resilience4j");
  ASSERT_EQ(edits.count(), 1);
  const Config switched = edits.last().at(2).value<Config>();
  EXPECT_EQ(switched.native.resilience4j.wait_duration_in_open_state, 20 * kSecond);
  EXPECT_EQ(panel.config(), switched);
  EXPECT_FALSE(panel.notCarriedOver().empty());
  // Named as the panel names the knobs; the config keys in the tooltip.
  const QString note = panel.notCarriedOverNote()->text();
  int knobs_named = 0;
  for (const NotCarriedOver& n : panel.notCarriedOver()) {
    const QString key = QString::fromStdString(n.setting);
    EXPECT_TRUE(panel.notCarriedOverNote()->toolTip().contains(key)) << n.setting;
    if (findKnob(n.setting) != nullptr) {
      ++knobs_named;
      EXPECT_FALSE(note.contains(key)) << n.setting << " in " << note.toStdString();
    }
  }
  EXPECT_GT(knobs_named, 0) << note.toStdString();
  EXPECT_TRUE(panel.isMarked("breaker.library"));
  const QString wait = "resilience4j.waitDurationInOpenState";
  EXPECT_FALSE(panel.isMarked(wait));
  panel.spinBox(wait)->setValue(45);
  EXPECT_TRUE(panel.isMarked(wait));
  panel.resetToDeployed(wait);
  EXPECT_EQ(panel.config().native.resilience4j.wait_duration_in_open_state, 20 * kSecond)
      << "the deployed 20 s, not resilience4j's 60 s default";
  // A config shown from elsewhere (undo, load) clears the list: it spoke of another switch.
  panel.setConfig(deployed);
  EXPECT_TRUE(panel.notCarriedOver().empty());
  EXPECT_TRUE(panel.notCarriedOverNote()->text().isEmpty());
}

// Issue #33, item 2: a changed knob's bold name with its dot must not widen the panel. It did:
// the form's label column grew to the bold name, the sliders shrank and the value boxes and
// reset buttons went past the right edge, which the panel cannot scroll to.
TEST(KnobPanel, MarkingEveryKnobOfALibraryDoesNotWidenThePanel) {
  const Config deployed = test::incident0908().deployed;
  KnobPanel panel;
  panel.setDeployed(deployed);
  panel.setConfig(deployed);
  panel.resize(panel.minimumWidth(), 700);
  panel.show();
  panel.comboBox("breaker.library")->setCurrentText("resilience4j");
  QApplication::processEvents();
  auto* scroll = panel.findChild<QScrollArea*>();
  ASSERT_NE(scroll, nullptr);
  const int panel_width = panel.width();
  const QString size = "resilience4j.slidingWindowSize";
  const int slider_width = panel.slider(size)->width();
  EXPECT_LE(scroll->widget()->width(), scroll->viewport()->width()) << "resilience4j's knobs fit";
  // Each name's place and lines before any mark: a mark moves neither (the second walkthrough:
  // a bold name behind its dot wrapped onto a new line and the rows below moved, or it was
  // elided to "• Pro…").
  QHash<QString, QRect> placed;
  QHash<QString, QStringList> lines;
  for (const KnobSpec& spec : knobSpecs()) {
    const QString id = QString::fromUtf8(spec.id.data(), static_cast<qsizetype>(spec.id.size()));
    if (auto* label = static_cast<KnobLabel*>(panel.label(id)); label && label->isVisible()) {
      placed[id] = label->geometry();
      lines[id] = label->lines(label->contentsRect().width() - label->markGutter());
    }
  }
  ASSERT_GT(placed.size(), 8);

  for (const KnobSpec& spec : knobSpecs()) {
    if (spec.library != BreakerLibrary::resilience4j) continue;
    const QString id = QString::fromUtf8(spec.id.data(), static_cast<qsizetype>(spec.id.size()));
    if (QDoubleSpinBox* spin = panel.spinBox(id))
      spin->setValue(spin->value() < spin->maximum() ? spin->value() + spin->singleStep()
                                                     : spin->value() - spin->singleStep());
    else if (QCheckBox* check = panel.checkBox(id))
      check->toggle();
    else if (QComboBox* combo = panel.comboBox(id))
      combo->setCurrentIndex(combo->currentIndex() == 0 ? 1 : 0);
    EXPECT_TRUE(panel.isMarked(id)) << spec.id;
  }
  QApplication::processEvents();
  EXPECT_EQ(panel.width(), panel_width);
  EXPECT_LE(scroll->widget()->width(), scroll->viewport()->width())
      << "nothing past the right edge";
  EXPECT_GE(panel.slider(size)->width(), slider_width) << "the sliders keep their length";
  for (const KnobSpec& spec : knobSpecs()) {
    if (spec.library != BreakerLibrary::resilience4j) continue;
    const QString id = QString::fromUtf8(spec.id.data(), static_cast<qsizetype>(spec.id.size()));
    QToolButton* reset = panel.resetButton(id);
    const int right = reset->mapTo(scroll->viewport(), QPoint(reset->width(), 0)).x();
    EXPECT_LE(right, scroll->viewport()->width()) << spec.id << ": its reset button shows";
    if (QLabel* label = panel.label(id)) {
      EXPECT_GE(label->height(), label->heightForWidth(label->width()))
          << spec.id << ": no line of its name cut off";
    }
  }
  for (auto it = placed.cbegin(); it != placed.cend(); ++it) {
    auto* label = static_cast<KnobLabel*>(panel.label(it.key()));
    EXPECT_EQ(label->geometry(), it.value()) << it.key().toStdString() << ": the row moved";
    const QStringList now = label->lines(label->contentsRect().width() - label->markGutter());
    EXPECT_EQ(now, lines.value(it.key())) << it.key().toStdString();
    for (const QString& line : now)
      EXPECT_FALSE(line.endsWith(QChar(0x2026))) << it.key().toStdString() << ": elided";
  }
}

// The walkthrough of issue #33: Envoy's sliders were squeezed to a few pixels (its snake_case
// names could not wrap: only camelCase joints could), and names were cut under cockatiel and
// resilience4j. Under every library, at the panel's own width, each slider keeps a usable length
// and nothing goes past the right edge.
TEST(KnobPanel, EveryLibrarysKnobsFitThePanelWithUsableSliders) {
  const Config deployed = test::incident0908().deployed;
  for (const auto& library : kBreakerLibraries) {
    KnobPanel panel;
    panel.setDeployed(deployed);
    panel.setConfig(deployed);
    panel.resize(panel.minimumWidth(), 700);
    panel.show();
    panel.comboBox("breaker.library")->setCurrentText(QString::fromUtf8(library.title.data()));
    QApplication::processEvents();
    ASSERT_EQ(panel.config().breaker.library, library.id) << library.key;
    auto* scroll = panel.findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    EXPECT_LE(scroll->widget()->width(), scroll->viewport()->width()) << library.key;
    for (const KnobSpec& spec : knobSpecs()) {
      if (spec.library != library.id || library.id == BreakerLibrary::breakerlab) continue;
      const QString id = QString::fromUtf8(spec.id.data(), static_cast<qsizetype>(spec.id.size()));
      if (QSlider* slider = panel.slider(id); slider && slider->isVisible()) {
        EXPECT_GE(slider->width(), 60) << spec.id;
      }
      if (QLabel* label = panel.label(id); label && label->isVisible()) {
        EXPECT_GE(label->height(), label->heightForWidth(label->width()))
            << spec.id << ": no line of its name cut off";
        // Whole: wrapped at its joints, never elided (a toggle's name was, beside its box).
        if (auto* knob_label = dynamic_cast<KnobLabel*>(label)) {
          const auto bare = [](QString text) {
            return text.remove(QChar(0x200B)).remove(QChar(0x2022)).remove(QLatin1Char(' '));
          };
          EXPECT_EQ(bare(knob_label->lines(knob_label->width()).join(QString())),
                    bare(knob_label->text()))
              << spec.id;
        }
      }
      if (spec.kind == KnobSpec::Kind::toggle) {
        EXPECT_NE(panel.label(id), nullptr) << spec.id << ": named in the label column";
      }
    }
  }
}

// Where a library's long names may wrap: at camelCase joints and after snake_case underscores.
TEST(KnobPanel, ALibrarysNameWrapsAtItsWordJoints) {
  const QChar joint(0x200B);
  EXPECT_EQ(wrappableName(QStringLiteral("permittedNumberOfCalls")),
            QStringLiteral("permitted") + joint + "Number" + joint + "Of" + joint + "Calls");
  EXPECT_EQ(wrappableName(QStringLiteral("base_ejection_time")),
            QStringLiteral("base_") + joint + "ejection_" + joint + "time");
  EXPECT_EQ(wrappableName(QStringLiteral("consecutive_5xx")),
            QStringLiteral("consecutive_") + joint + "5xx");
  EXPECT_EQ(wrappableName(QStringLiteral("Window size")), QStringLiteral("Window size"));
  EXPECT_EQ(wrappableName(QStringLiteral("_x_")), QStringLiteral("_x_")) << "no joint at the ends";
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
      text = std::string(k.choices[static_cast<std::size_t>(v)].id);
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
