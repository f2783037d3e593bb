#pragma once
// The Sensitivity dock: one or two knobs of the current config over a range, and a metric, mapped
// cell by cell on the open incident (SensitivityPlot). It follows the workbench: the map is of
// the config the knobs show (the breaker library included) with the timed changes and scenario
// as they are; a new incident clears it (a map still computing is stopped and never shown); a
// change of the mapped knobs moves the marker; any other change marks the map out of date, to
// recompute with one click. A click on a cell applies its values, as one undo step.
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/core/knobs/knob_specs.h"
#include "sensitivity_job.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace breakerlab::views {
class KnobSpinBox;
class SensitivityPlot;
}  // namespace breakerlab::views

namespace breakerlab::app {

class ReplaySession;

class SensitivityPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kDefaultPoints = 25;
  static constexpr int kMaxPoints = 50;
  // A map that took less than this recomputes by itself when the config changes under it (8 Sep:
  // a 25 x 25 map in a fifth of a second), once the knobs have been still for kRecomputeDelayMs;
  // a slower one waits for Recompute.
  static constexpr double kAutoRecomputeSeconds = 0.5;
  // The bar above, for this panel (a sanitizer build takes several times as long for a map).
  void setAutoRecomputeSeconds(double seconds) { auto_recompute_seconds_ = seconds; }
  double autoRecomputeSeconds() const { return auto_recompute_seconds_; }
  static constexpr int kRecomputeDelayMs = 300;

  explicit SensitivityPanel(ReplaySession* session, QWidget* parent = nullptr);
  ~SensitivityPanel() override;

  // The knobs mapped, by id (`y` empty: one knob, a line plot), each over its whole range (on
  // its own scale); false when a knob is not one the current config shows.
  bool chooseKnobs(const QString& x, const QString& y);
  // Axis 0 (across) or 1 (up).
  void setRange(int axis, double low, double high, bool log);
  bool chooseMetric(const QString& name);
  void setPoints(int points);

  // Computes the map of the current config (a map still computing is superseded).
  void compute();
  // Stops the map computing; the map shown stays (the last whole one, or the preview of this one).
  void cancel();
  bool busy() const { return job_->busy(); }
  // Whether the map shown no longer matches the config, the timed changes or the scenario.
  bool isStale() const { return stale_; }
  double lastSeconds() const { return last_seconds_; }
  // The line under the controls: what the map's knobs do in the current config.
  QString notice() const;

  views::SensitivityPlot* plot() const { return plot_; }
  SensitivityJob& job() const { return *job_; }
  QComboBox* xKnob() const { return x_knob_; }
  QComboBox* yKnob() const { return y_knob_; }
  QComboBox* metricBox() const { return metric_; }
  QPushButton* computeButton() const { return compute_; }
  QPushButton* enableButton() const { return enable_; }

 signals:
  // Apply `after` to the knobs as one undo step named `what` (a cell of the map, or the toggle
  // that makes a mapped knob count).
  void applyRequested(const QString& what, const breakerlab::Config& after);
  // A map was computed (tests, --grab).
  void computed();

 private:
  struct AxisControls {
    QComboBox* knob = nullptr;
    views::KnobSpinBox* low = nullptr;
    views::KnobSpinBox* high = nullptr;
    QCheckBox* log = nullptr;
  };
  // What a map was computed from: a later state differs from it in other ways than the mapped
  // knobs' values only when the map is out of date.
  struct Inputs {
    Config base;  // the config with the mapped knobs as they were
    std::vector<TimedChange> changes;
    Scenario scenario;
    // The knobs mapped and over what: with the points and metrics, Compute again with the same
    // gives the same map.
    std::vector<KnobRange> ranges;
    std::size_t points = 0;
    std::vector<const MetricInfo*> metrics;
    bool asks(const std::vector<KnobRange>& other_ranges, std::size_t other_points,
              const std::vector<const MetricInfo*>& other_metrics) const;
  };

  void onIncidentChanged();
  void onStateChanged();
  void fillKnobs();
  void fillMetrics();
  void choosePreset();
  void resetRange(int axis);
  void updateAxisControls();
  void updateNotice();
  void updateMarker();
  // " · click a cell to apply it", kept on one line.
  QString clickHint() const;
  void updateStale();
  // Cancel while a map computes, Recompute when the map shown is out of date, else Compute.
  void updateComputeButton();
  // Whether the map shown is of the current config but for the mapped knobs (not stale).
  bool mapsCurrentConfig() const;
  void showProgress(std::size_t done, std::size_t total);
  void onPreview(const views::SensitivityMap& map);
  void onFinished(const views::SensitivityMap& map, double seconds);
  void onCellChosen(const std::vector<double>& values);
  const KnobSpec* knobOf(int axis) const;
  std::vector<KnobRange> ranges() const;
  QString summary(const views::SensitivityMap& map, double seconds) const;

  ReplaySession* session_;
  SensitivityJob* job_;
  views::SensitivityPlot* plot_ = nullptr;
  AxisControls axes_[2];
  QComboBox* x_knob_ = nullptr;
  QComboBox* y_knob_ = nullptr;
  QComboBox* metric_ = nullptr;
  QSpinBox* points_ = nullptr;
  QPushButton* compute_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* notice_ = nullptr;
  QPushButton* enable_ = nullptr;
  std::optional<Config> enabled_config_;  // what enable_ applies
  QLabel* stale_row_ = nullptr;           // "the config changed since this map was computed"
  QLabel* status_ = nullptr;
  QTimer* recompute_timer_ = nullptr;
  std::optional<Inputs> inputs_;  // of the map shown; of the map computing while busy
  std::optional<Inputs> computing_;
  BreakerLibrary knobs_library_ = BreakerLibrary::breakerlab;
  bool stale_ = false;
  double last_seconds_ = 0;
  double auto_recompute_seconds_ = kAutoRecomputeSeconds;
};

}  // namespace breakerlab::app
