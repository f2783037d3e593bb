#include "breakerlab/views/knob_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <map>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/views/knob_spin_box.h"
#include "breakerlab/views/qt_text.h"
#include "breakerlab/views/wheel_guard.h"
#include "knobs/knob_label.h"
#include "knobs/knob_scale.h"

namespace breakerlab::views {

namespace {
QString labelText(const KnobSpec& spec, const DependencyWords& words) {
  const QString text = qs(inDependencyWords(spec.label, words));
  if (spec.library && *spec.library != BreakerLibrary::breakerlab) return wrappableName(text);
  return text;
}

QString knobTip(const KnobSpec& spec, const DependencyWords& words) {
  return qs(inDependencyWords(spec.tip, words)) + QStringLiteral("\n(") + qs(spec.id) +
         QStringLiteral(")");
}

QString spinTip(const KnobSpec& spec, const QString& tip) {
  return knobIsDuration(spec) ? tip + QStringLiteral("\nType a unit: 800ms, 2s, 1.5min") : tip;
}

QLabel* knobLabel(const KnobSpec& spec, const DependencyWords& words) {
  return new KnobLabel(labelText(spec, words));
}

// A small button after a knob's field; shown only while the knob differs from deployed, its
// room kept so the row does not move.
QToolButton* newResetButton() {
  auto* button = new QToolButton;
  button->setText(QStringLiteral("↺"));
  button->setAutoRaise(true);
  button->setFocusPolicy(Qt::NoFocus);
  QSizePolicy policy = button->sizePolicy();
  policy.setRetainSizeWhenHidden(true);
  button->setSizePolicy(policy);
  button->hide();
  return button;
}

QWidget* fieldRow(QWidget* field, QToolButton* reset, QWidget* second = nullptr) {
  auto* row = new QWidget;
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  h->setSpacing(4);
  h->addWidget(field, 1);
  if (second) h->addWidget(second);
  h->addWidget(reset);
  return row;
}
}  // namespace

KnobPanel::KnobPanel(QWidget* parent) : QWidget(parent) {
  build();
}

void KnobPanel::build() {
  auto* content = new QWidget;
  auto* column = new QVBoxLayout(content);
  column->setContentsMargins(4, 4, 4, 4);
  QGroupBox* group = nullptr;
  QFormLayout* form = nullptr;
  std::string_view current_group;
  for (const KnobSpec& spec : knobSpecs()) {
    if (spec.group != current_group) {
      current_group = spec.group;
      group = new QGroupBox(qs(spec.group));
      form = new QFormLayout(group);
      form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
      column->addWidget(group);
    }
    KnobWidgets w;
    w.spec = &spec;
    w.group = group;
    w.form = form;
    const QString id = qs(spec.id);
    const QString tip = knobTip(spec, words_);
    w.reset = newResetButton();
    w.reset_action = new QAction(this);
    connect(w.reset, &QToolButton::clicked, w.reset_action, &QAction::trigger);
    connect(w.reset_action, &QAction::triggered, this, [this, id] { resetToDeployed(id); });
    switch (spec.kind) {
      case KnobSpec::Kind::toggle: {
        // A library's toggle is named as its other settings are, in the label column, where its
        // long name wraps ("automaticTransitionFromOpenToHalfOpenEnabled" was elided at 1920 px,
        // issue #33); BreakerLab's own read as a sentence beside their box.
        const bool library_name = spec.library && *spec.library != BreakerLibrary::breakerlab;
        w.check = new KnobCheckBox(library_name ? QString() : labelText(spec, words_));
        w.check->setToolTip(tip);
        w.check->setObjectName(id);
        w.text = labelText(spec, words_);
        w.check->addAction(w.reset_action);
        w.check->setContextMenuPolicy(Qt::ActionsContextMenu);
        connect(w.check, &QCheckBox::toggled, this,
                [this, &spec](bool on) { edit(spec, on ? 1.0 : 0.0); });
        w.row = fieldRow(w.check, w.reset);
        if (library_name) {
          w.label = knobLabel(spec, words_);
          w.label->setBuddy(w.check);
          form->addRow(w.label, w.row);
        } else {
          form->addRow(w.row);
        }
        break;
      }
      case KnobSpec::Kind::choice:
        w.combo = new QComboBox;
        // A long name does not widen the panel; the list shows it whole.
        w.combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        w.combo->setMinimumContentsLength(12);
        for (const KnobChoice& c : spec.choices) {
          w.combo->addItem(qs(c.name));
          w.combo->setItemData(w.combo->count() - 1, qs(c.id), Qt::ToolTipRole);
        }
        w.combo->setToolTip(tip);
        w.combo->setObjectName(id);
        w.combo->addAction(w.reset_action);
        w.combo->setContextMenuPolicy(Qt::ActionsContextMenu);
        takeWheelOnlyWithFocus(w.combo);
        connect(w.combo, &QComboBox::currentIndexChanged, this,
                [this, &spec](int index) { edit(spec, index); });
        w.label = knobLabel(spec, words_);
        w.row = fieldRow(w.combo, w.reset);
        form->addRow(w.label, w.row);
        if (spec.id == "breaker.library") {
          // Under the choice, where the eye is when the library changes; the status bar's
          // message is soon replaced by the replay's.
          not_carried_note_ = new QLabel;
          not_carried_note_->setObjectName(QStringLiteral("not-carried-over"));
          not_carried_note_->setWordWrap(true);
          not_carried_note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
          // A long setting key must wrap or clip, never widen the panel.
          not_carried_note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
          form->addRow(not_carried_note_);
          form->setRowVisible(not_carried_note_, false);
        }
        break;
      case KnobSpec::Kind::number: {
        w.slider_max = spec.max;
        w.slider = new QSlider(Qt::Horizontal);
        const SliderScale scale(spec);
        w.slider->setRange(0, scale.lastPosition());
        if (spec.scale == KnobSpec::Scale::log) {
          // Keys move a hundredth and a tenth of the way, as on a linear slider of 100 steps.
          w.slider->setSingleStep(SliderScale::kLogPositions / 100);
          w.slider->setPageStep(SliderScale::kLogPositions / 10);
        }
        w.slider->setObjectName(id);
        w.slider->setToolTip(tip);
        w.slider->addAction(w.reset_action);
        w.slider->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto* spin = new KnobSpinBox(&spec);
        w.spin = spin;
        w.spin->setRange(spec.min, spec.max);
        w.spin->setSingleStep(spec.step);
        w.spin->setDecimals(spec.decimals);
        w.spin->setKeyboardTracking(false);
        if (!knobIsDuration(spec)) spin->setUnit(qs(spec.unit));
        w.spin->setToolTip(spinTip(spec, tip));
        w.spin->setMinimumWidth(90);
        takeWheelOnlyWithFocus(w.slider);
        takeWheelOnlyWithFocus(w.spin);
        connect(w.slider, &QSlider::valueChanged, this, [this, &spec, slider = w.slider](int p) {
          const double max = widgets_.value(qs(spec.id)).slider_max;
          dragged_ = slider;
          edit(spec, SliderScale(spec, max).value(p));
          dragged_ = nullptr;
        });
        connect(w.spin, &QDoubleSpinBox::valueChanged, this,
                [this, &spec](double value) { edit(spec, value); });
        w.label = knobLabel(spec, words_);
        w.label->setBuddy(w.spin);
        w.row = fieldRow(w.slider, w.reset, w.spin);
        form->addRow(w.label, w.row);
        break;
      }
    }
    if (w.label) {
      w.label->setToolTip(qs(inDependencyWords(spec.label, words_)) + QStringLiteral("\n") +
                          tip);  // the name whole
      w.text = w.label->text();
      w.label->addAction(w.reset_action);
      w.label->setContextMenuPolicy(Qt::ActionsContextMenu);
    }
    widgets_.insert(id, w);
  }
  column->addStretch(1);
  auto* scroll = new QScrollArea;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
  showValues();
  // As wide as BreakerLab's own knobs need; a library's long names wrap instead.
  setMinimumWidth(content->sizeHint().width() + 24);
}

void KnobPanel::setConfig(const Config& config, bool keep_library_note) {
  config_ = config;
  if (!keep_library_note || config.breaker.library != not_carried_target_)
    showNotCarriedOver(config.breaker.library, {});
  widenRanges();
  showValues();
}

void KnobPanel::showNotCarriedOver(BreakerLibrary target, const std::vector<NotCarriedOver>& lost) {
  not_carried_ = lost;
  not_carried_target_ = target;
  QString text;
  QStringList keys;
  if (!lost.empty()) {
    text = tr("Not carried over to %1:").arg(qs(libraryInfo(target).title));
    // Each setting by the name its knob has in the panel (the second walkthrough of issue #33:
    // config keys read as noise); the keys are in the tooltip, for a config file.
    for (const NotCarriedOver& n : lost) {
      const KnobSpec* spec = findKnob(n.setting);
      const QString name = spec ? qs(inDependencyWords(spec->label, words_)) : qs(n.setting);
      text += QStringLiteral("\n• ") + name + QStringLiteral(": ") + qs(n.why);
      keys << qs(n.setting);
    }
  }
  not_carried_note_->setText(text);
  not_carried_note_->setToolTip(
      keys.isEmpty() ? QString() : tr("Settings: %1").arg(keys.join(QStringLiteral(", "))));
  widgets_.value(QStringLiteral("breaker.library"))
      .form->setRowVisible(not_carried_note_, !lost.empty());
}

const Config* KnobPanel::deployedUnderLibrary(BreakerLibrary library) {
  if (!deployed_) return nullptr;
  if (deployed_->breaker.library == library) return &*deployed_;
  if (!deployed_translated_ || deployed_translated_->breaker.library != library)
    deployed_translated_ =
        translateToLibrary(*deployed_, library,
                           breakerCallsPerSecond(fleet_calls_per_second_, *deployed_))
            .config;
  return &*deployed_translated_;
}

void KnobPanel::setDeployed(const Config& deployed) {
  deployed_ = deployed;
  deployed_translated_.reset();
  widenRanges();
  std::map<BreakerLibrary, Config> under_library;
  for (KnobWidgets& w : widgets_) {
    // A library's knob resets to the deployed breaker under that library's rules.
    const std::optional<BreakerLibrary> library = w.spec->library;
    if (library && !under_library.contains(*library))
      under_library.emplace(*library, *deployedUnderLibrary(*library));
    const Config& compared = library ? under_library.at(*library) : deployed;
    const QString text = valueText(w, w.spec->get(compared));
    w.reset_action->setText(tr("Reset to deployed (%1)").arg(text));
    w.reset->setToolTip(w.reset_action->text());
  }
  showValues();
}

void KnobPanel::resetToDeployed(const QString& id) {
  const auto it = widgets_.constFind(id);
  if (it == widgets_.cend() || !deployed_) return;
  const KnobSpec& spec = *it->spec;
  const Config& compared =
      spec.library ? *deployedUnderLibrary(config_.breaker.library) : *deployed_;
  const Config after = withValue(spec, spec.get(compared));
  if (after == config_) return;
  const Config before = config_;
  config_ = after;
  showValues();
  emit configEdited(QStringLiteral("reset ") + id, before, after);
}

// `spec` set to `value` in the config in force. A new library takes the breaker in force, not
// its own defaults (issue #33): what it cannot hold is listed under the choice.
Config KnobPanel::withValue(const KnobSpec& spec, double value) {
  Config after = config_;
  spec.set(after, value);
  if (after.breaker.library != config_.breaker.library) {
    LibraryTranslation translated = translateToLibrary(
        config_, after.breaker.library, breakerCallsPerSecond(fleet_calls_per_second_, config_));
    showNotCarriedOver(after.breaker.library, translated.not_carried);
    return std::move(translated.config);
  }
  return after;
}

// An incident may deploy a value beyond the usual range: widen rather than clamp it. Only when a
// config is shown (never in the middle of a drag, so the slider's scale holds still under it).
void KnobPanel::widenRanges() {
  for (KnobWidgets& w : widgets_) {
    if (!w.slider) continue;
    const KnobSpec& spec = *w.spec;
    double max = std::max(spec.max, spec.get(config_));
    if (deployed_) max = std::max(max, spec.get(*deployed_));
    if (max == w.slider_max) continue;
    w.slider_max = max;
    const QSignalBlocker block_slider(w.slider);
    const QSignalBlocker block_spin(w.spin);
    w.spin->setMaximum(max);
    w.slider->setMaximum(SliderScale(spec, max).lastPosition());
  }
}

QString KnobPanel::valueText(const KnobWidgets& w, double value) const {
  const KnobSpec& spec = *w.spec;
  switch (spec.kind) {
    case KnobSpec::Kind::toggle:
      return value != 0 ? tr("on") : tr("off");
    case KnobSpec::Kind::choice: {
      const auto index = static_cast<std::size_t>(std::lround(value));
      return value >= 0 && index < spec.choices.size() ? qs(spec.choices[index].name)
                                                       : tr("custom");
    }
    case KnobSpec::Kind::number:
      break;
  }
  if (value == 0 && !spec.zero.empty()) return qs(spec.zero);
  if (knobIsDuration(spec))
    return QString::fromStdString(formatDuration(knobMicros(spec, value), spec.unit));
  return QLocale().toString(value, 'f', spec.decimals) + w.spin->suffix();
}

void KnobPanel::edit(const KnobSpec& spec, double value) {
  const Config after = withValue(spec, value);
  if (after == config_) return;
  const Config before = config_;
  config_ = after;
  showValues();
  emit configEdited(qs(spec.id), before, after);
}

void KnobPanel::showValues() {
  // Only the chosen breaker's knobs: a group shows when one of its knobs does.
  QHash<QGroupBox*, bool> group_shown;
  for (const KnobWidgets& w : std::as_const(widgets_)) {
    const bool shown = knobShown(*w.spec, config_);
    w.form->setRowVisible(w.row, shown);
    group_shown[w.group] = group_shown.value(w.group, false) || shown;
  }
  for (auto it = group_shown.cbegin(); it != group_shown.cend(); ++it)
    it.key()->setVisible(it.value());
  for (const KnobWidgets& w : std::as_const(widgets_)) {
    const KnobSpec& spec = *w.spec;
    const double value = spec.get(config_);
    const bool applies = spec.applies == nullptr || spec.applies(config_);
    if (w.check) {
      const QSignalBlocker block(w.check);
      w.check->setChecked(value != 0);
      w.check->setEnabled(applies);
    }
    if (w.combo) {
      const QSignalBlocker block(w.combo);
      w.combo->setCurrentIndex(static_cast<int>(value));
      w.combo->setEnabled(applies);
    }
    if (w.slider) {
      const QSignalBlocker block_slider(w.slider);
      const QSignalBlocker block_spin(w.spin);
      // The slider being dragged stays where the mouse put it: several positions of a log
      // slider's low end may give one value.
      if (w.slider != dragged_) w.slider->setValue(SliderScale(spec, w.slider_max).position(value));
      w.spin->setValue(value);
      static_cast<KnobSpinBox*>(w.spin)->refreshUnit();  // "1 call", "2 calls"
      w.slider->setEnabled(applies);
      w.spin->setEnabled(applies);
    }
    if (w.label) w.label->setEnabled(applies);
    if (w.combo && w.combo->currentIndex() >= 0)
      w.combo->setToolTip(qs(spec.tip) + QStringLiteral("\n(") + qs(spec.id) +
                          QStringLiteral(": ") +
                          qs(spec.choices[static_cast<std::size_t>(w.combo->currentIndex())].id) +
                          QStringLiteral(")"));
  }
  showMarks();
  // The window size unit follows the window type.
  if (auto* size = static_cast<KnobSpinBox*>(spinBox(QStringLiteral("breaker.window.size"))))
    size->setUnit(config_.breaker.window_type == WindowType::time ? QStringLiteral("s")
                                                                  : QStringLiteral("calls"));
}

void KnobPanel::showMarks() {
  if (!deployed_) return;
  const Config& deployed_breaker = *deployedUnderLibrary(config_.breaker.library);
  for (KnobWidgets& w : widgets_) {
    const Config& compared = w.spec->library ? deployed_breaker : *deployed_;
    const bool differs =
        knobShown(*w.spec, config_) && w.spec->get(config_) != w.spec->get(compared);
    if (differs != w.marked) setMarked(w, differs);
  }
}

void KnobPanel::setDependencyWords(const DependencyWords& words) {
  words_ = words;
  for (KnobWidgets& w : widgets_) {
    const KnobSpec& spec = *w.spec;
    const QString tip = knobTip(spec, words_);
    w.text = labelText(spec, words_);
    for (QWidget* field : std::initializer_list<QWidget*>{w.check, w.combo, w.slider})
      if (field) field->setToolTip(tip);
    if (w.spin) w.spin->setToolTip(spinTip(spec, tip));
    if (w.label)
      w.label->setToolTip(qs(inDependencyWords(spec.label, words_)) + QStringLiteral("\n") + tip);
    if (w.label)
      w.label->setText(w.text);
    else if (!w.check->text().isEmpty())
      w.check->setText(w.text);
  }
}

// A changed knob: a dot before its name, the name in the link colour, and the reset button
// shown. Touched only when the mark changes, so a drag costs nothing here.
void KnobPanel::setMarked(KnobWidgets& w, bool marked) {
  w.marked = marked;
  // Every label and check box of the panel is one of these (knobLabel, build()).
  if (w.label)
    static_cast<KnobLabel*>(w.label)->setMarked(marked);
  else
    static_cast<KnobCheckBox*>(w.check)->setMarked(marked);
  w.reset->setVisible(marked);
  w.reset_action->setEnabled(marked);
}

}  // namespace breakerlab::views
