#pragma once
// The knobs, grouped as an engineer thinks of them (trip, open interval, half-open, timeout,
// fallback): a slider and a spin box with its unit per number, check boxes and choices. Every
// value change is reported at once, while a slider is still moving. Durations show in their
// natural unit ("33.2 s"), choices by name, 0 by what it means ("unlimited"); a knob that differs
// from the deployed config is marked, with a reset to the deployed value.
#include <QHash>
#include <QWidget>
#include <optional>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/dependency_words.h"
#include "breakerlab/core/inputs/library_translation.h"

class QSlider;
class QDoubleSpinBox;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QToolButton;
class QAction;

namespace breakerlab {
struct KnobSpec;
}

namespace breakerlab::views {

class KnobPanel : public QWidget {
  Q_OBJECT
 public:
  explicit KnobPanel(QWidget* parent = nullptr);

  // Shows `config` without reporting an edit (load, undo, reset). Clears the note on what a
  // change of library could not carry over, which spoke of the config before, unless
  // `keep_library_note` and the library is the one the note speaks of: the undo and redo of a
  // knob edit made after the switch (the second walkthrough of issue #33: the note went with any
  // undo).
  void setConfig(const Config& config, bool keep_library_note = false);
  const Config& config() const { return config_; }
  // The config the knobs are compared with (the incident's deployed config); until it is set,
  // no knob is marked.
  void setDeployed(const Config& deployed);
  // How many calls a second the incident's fleet makes (fleetCallsPerSecond): a change of library
  // turns a window of N calls into the time N calls take where the library counts in time only.
  void setFleetCallsPerSecond(double calls_per_second) {
    fleet_calls_per_second_ = calls_per_second;
  }
  // The incident's words for the dependency's answers, in the knobs' labels and tooltips
  // ("Serve cached Inventory answers").
  void setDependencyWords(const DependencyWords& words);

  // Whether a knob differs from the deployed config (and is marked so).
  bool isMarked(const QString& id) const { return widgets_.value(id).marked; }
  // Sets a knob back to its deployed value, reported as an edit of "reset <id>": an undo step of
  // its own, not merged into the drag before it.
  void resetToDeployed(const QString& id);

  // Choosing another breaker library translates the breaker in force into its settings
  // (translateToLibrary) instead of taking the library's defaults; what could not be carried over
  // is listed under the library's choice until the next config is shown. A redo shows the list
  // of its switch again with showNotCarriedOver.
  const std::vector<NotCarriedOver>& notCarriedOver() const { return not_carried_; }
  void showNotCarriedOver(BreakerLibrary target, const std::vector<NotCarriedOver>& lost);
  QLabel* notCarriedOverNote() const { return not_carried_note_; }

  // The widgets of a knob, by its config key (for tests and keyboard focus).
  QSlider* slider(const QString& id) const { return widgets_.value(id).slider; }
  QDoubleSpinBox* spinBox(const QString& id) const { return widgets_.value(id).spin; }
  QCheckBox* checkBox(const QString& id) const { return widgets_.value(id).check; }
  QComboBox* comboBox(const QString& id) const { return widgets_.value(id).combo; }
  QLabel* label(const QString& id) const { return widgets_.value(id).label; }
  QToolButton* resetButton(const QString& id) const { return widgets_.value(id).reset; }

 signals:
  // One knob moved: the config before and after. Emitted for every slider step; a reset to
  // deployed names the knob "reset <id>".
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
    QToolButton* reset = nullptr;
    QAction* reset_action = nullptr;  // the same, in the label's and the field's context menu
    QString text;                     // the label's (or check box's) text, unmarked
    double slider_max = 0;            // the spec's max, or a config's value beyond it
    bool marked = false;
  };
  void build();
  void edit(const KnobSpec& spec, double value);
  Config withValue(const KnobSpec& spec, double value);
  void showValues();
  void widenRanges();
  void showMarks();
  void setMarked(KnobWidgets& w, bool marked);
  QString valueText(const KnobWidgets& w, double value) const;
  const Config* deployedUnderLibrary(BreakerLibrary library);
  QHash<QString, KnobWidgets> widgets_;
  Config config_;
  std::optional<Config> deployed_;
  DependencyWords words_;
  // The deployed breaker translated into the library in force, as a switch would give it: what
  // that library's knobs are marked against and reset to (its own defaults were never in force).
  std::optional<Config> deployed_translated_;
  double fleet_calls_per_second_ = 0;
  std::vector<NotCarriedOver> not_carried_;
  BreakerLibrary not_carried_target_ =
      BreakerLibrary::breakerlab;  // the library the note speaks of
  QLabel* not_carried_note_ = nullptr;
  const QSlider* dragged_ = nullptr;  // the slider whose move is being applied
};

}  // namespace breakerlab::views
