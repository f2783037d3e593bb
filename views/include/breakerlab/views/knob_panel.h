#pragma once
// The knobs, grouped as an engineer thinks of them (trip, open interval, half-open, timeout,
// fallback): a slider and a spin box with its unit per number, check boxes and choices. Every
// value change is reported at once, while a slider is still moving.
#include <QHash>
#include <QWidget>

#include "breakerlab/core/config.h"

class QSlider;
class QDoubleSpinBox;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;

namespace breakerlab::views {

struct KnobSpec;

class KnobPanel : public QWidget {
  Q_OBJECT
 public:
  explicit KnobPanel(QWidget* parent = nullptr);

  // Shows `config` without reporting an edit (load, undo, reset).
  void setConfig(const Config& config);
  const Config& config() const { return config_; }

  // The widgets of a knob, by its config key (for tests and keyboard focus).
  QSlider* slider(const QString& id) const { return widgets_.value(id).slider; }
  QDoubleSpinBox* spinBox(const QString& id) const { return widgets_.value(id).spin; }
  QCheckBox* checkBox(const QString& id) const { return widgets_.value(id).check; }
  QComboBox* comboBox(const QString& id) const { return widgets_.value(id).combo; }

 signals:
  // One knob moved: the config before and after. Emitted for every slider step.
  void configEdited(const QString& knob_id, const breakerlab::Config& before,
                    const breakerlab::Config& after);

 private:
  struct KnobWidgets {
    const KnobSpec* spec = nullptr;
    QLabel* label = nullptr;
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    QCheckBox* check = nullptr;
    QComboBox* combo = nullptr;
    QGroupBox* group = nullptr;
    QFormLayout* form = nullptr;
    QWidget* row = nullptr;  // the row's field, to hide it with its label
  };
  void build();
  void edit(const KnobSpec& spec, double value);
  void showValues();
  QHash<QString, KnobWidgets> widgets_;
  Config config_;
};

}  // namespace breakerlab::views
