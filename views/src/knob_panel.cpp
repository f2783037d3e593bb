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
#include <QVBoxLayout>
#include <cmath>

#include "breakerlab/views/knob_specs.h"
#include "wheel_guard.h"

namespace breakerlab::views {

namespace {
QString qs(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

// A library's names are long camelCase words (permittedNumberOfCallsInHalfOpenState): a label
// may wrap at each word inside them, so the panel keeps its width.
QLabel* knobLabel(const KnobSpec& spec) {
  QString text = qs(spec.label);
  if (spec.library && *spec.library != BreakerLibrary::breakerlab) {
    QString wrapped;
    for (int i = 0; i < text.size(); ++i) {
      if (i > 0 && text[i].isUpper() && text[i - 1].isLower()) wrapped += QChar(0x200B);
      wrapped += text[i];
    }
    text = wrapped;
  }
  auto* label = new QLabel(text);
  label->setWordWrap(true);
  return label;
}

int sliderPosition(const KnobSpec& k, double value) {
  return static_cast<int>(std::lround((std::clamp(value, k.min, k.max) - k.min) / k.step));
}
double sliderValue(const KnobSpec& k, int position) {
  return k.min + position * k.step;
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
    const QString tip = qs(spec.tip) + QStringLiteral("\n(") + id + QStringLiteral(")");
    switch (spec.kind) {
      case KnobSpec::Kind::toggle:
        w.check = new QCheckBox(qs(spec.label));
        w.check->setToolTip(tip);
        w.check->setObjectName(id);
        connect(w.check, &QCheckBox::toggled, this,
                [this, &spec](bool on) { edit(spec, on ? 1.0 : 0.0); });
        form->addRow(w.check);
        w.row = w.check;
        break;
      case KnobSpec::Kind::choice:
        w.combo = new QComboBox;
        for (auto c : spec.choices) w.combo->addItem(qs(c));
        w.combo->setToolTip(tip);
        w.combo->setObjectName(id);
        takeWheelOnlyWithFocus(w.combo);
        connect(w.combo, &QComboBox::currentIndexChanged, this,
                [this, &spec](int index) { edit(spec, index); });
        w.label = knobLabel(spec);
        form->addRow(w.label, w.combo);
        w.row = w.combo;
        break;
      case KnobSpec::Kind::number: {
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        w.slider = new QSlider(Qt::Horizontal);
        w.slider->setRange(0, sliderPosition(spec, spec.max));
        w.slider->setObjectName(id);
        w.slider->setToolTip(tip);
        w.spin = new QDoubleSpinBox;
        w.spin->setRange(spec.min, spec.max);
        w.spin->setSingleStep(spec.step);
        w.spin->setDecimals(spec.decimals);
        w.spin->setKeyboardTracking(false);
        if (!spec.unit.empty()) w.spin->setSuffix(QStringLiteral(" ") + qs(spec.unit));
        w.spin->setToolTip(tip);
        w.spin->setMinimumWidth(90);
        takeWheelOnlyWithFocus(w.slider);
        takeWheelOnlyWithFocus(w.spin);
        h->addWidget(w.slider, 1);
        h->addWidget(w.spin);
        connect(w.slider, &QSlider::valueChanged, this,
                [this, &spec](int position) { edit(spec, sliderValue(spec, position)); });
        connect(w.spin, &QDoubleSpinBox::valueChanged, this,
                [this, &spec](double value) { edit(spec, value); });
        w.label = knobLabel(spec);
        w.label->setBuddy(w.spin);
        form->addRow(w.label, row);
        w.row = row;
        break;
      }
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

void KnobPanel::setConfig(const Config& config) {
  config_ = config;
  showValues();
}

void KnobPanel::edit(const KnobSpec& spec, double value) {
  Config after = config_;
  spec.set(after, value);
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
      // An incident may deploy a value beyond the usual range: widen rather than clamp it.
      if (value > w.spin->maximum()) {
        w.spin->setMaximum(value);
        w.slider->setMaximum(static_cast<int>(std::lround((value - spec.min) / spec.step)));
      }
      w.slider->setValue(static_cast<int>(std::lround((value - spec.min) / spec.step)));
      w.spin->setValue(value);
      w.slider->setEnabled(applies);
      w.spin->setEnabled(applies);
    }
    if (w.label) w.label->setEnabled(applies);
  }
  // The window size unit follows the window type.
  if (auto* size = spinBox(QStringLiteral("breaker.window.size")))
    size->setSuffix(config_.breaker.window_type == WindowType::time ? QStringLiteral(" s")
                                                                    : QStringLiteral(" calls"));
}

}  // namespace breakerlab::views
