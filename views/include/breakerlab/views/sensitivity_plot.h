#pragma once
// A sensitivity map drawn (QCustomPlot). One knob: each metric as a line over the knob's values,
// the stretches that miss a goal hatched, a goal on a metric as a dashed level, the current
// value as a vertical marker. Two knobs: a heatmap of the first metric with its colour scale
// (the goal's bound marked on it), the cells that miss a goal hatched, the boundary of "every
// goal met" outlined, the coloured metric's own goal dashed where it runs apart, and the
// current config as a crosshair. Log axes where a knob's range is by ratio. Hovering a cell
// shows its knob values, metrics and verdict; a click emits its knob values.
#include <QImage>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "breakerlab/views/sensitivity_map.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPLegend;
class QCPMarginGroup;
class QCPLayoutGrid;
class QCPTextElement;
class QMouseEvent;

namespace breakerlab::views {

class SensitivityOverlay;

class SensitivityPlot : public QWidget {
  Q_OBJECT
 public:
  explicit SensitivityPlot(QWidget* parent = nullptr);
  ~SensitivityPlot() override;

  // Shows `map` (an empty one: the placeholder).
  void setMap(SensitivityMap map);
  const SensitivityMap& map() const { return map_; }
  // The current config's value of each axis's knob (empty: no marker) and, when known, its own
  // replay's value of each of the map's metrics (NaN where not). In a line plot the marker then
  // sits at the config's own value and each line passes through it: between two computed cells
  // the metric can be anything (a cliff), so the nearest cell's value would misstate it.
  void setCurrent(std::vector<double> values, std::vector<double> own_metrics = {});
  const std::vector<double>& current() const { return current_; }
  // Whether the current config lies inside the map's cells.
  bool currentOnMap() const;
  // Whether a cell meets every goal (a heatmap fades the others only then).
  bool anyCellMeetsEveryGoal() const;
  // What the plot says while there is no map.
  void setPlaceholder(const QString& text);
  // Faded: the map no longer matches the config it was computed for.
  void setStale(bool stale);
  bool isStale() const { return stale_; }

  // The plot as an image of `size` pixels, light whatever the desktop's theme (the CLI's PNG).
  QImage renderImage(QSize size);

  QCustomPlot* plot() const { return plot_; }
  // The legend under the cells (null while there is no map).
  QCPLegend* legend() const { return legend_; }
  // Its entries' words, in order.
  QStringList legendTexts() const;
  // In the plot widget's pixels: the cell under a point, a cell's centre, the current config's
  // marker (nullopt when it is off the map or not set).
  std::optional<std::size_t> cellAt(QPointF pixel) const;
  QPointF cellCentre(std::size_t cell) const;
  std::optional<QPointF> currentMarker() const;
  // The lines drawn, in knob values: the boundary of every goal met, and of the coloured
  // metric's own goal when it runs apart from it (empty otherwise).
  const std::vector<std::vector<QPointF>>& goalsBoundary() const { return goals_boundary_; }
  const std::vector<std::vector<QPointF>>& metricGoalBoundary() const {
    return metric_goal_boundary_;
  }
  // The cells the overlay hatches (a goal missed), by index.
  std::vector<std::size_t> hatchedCells() const;

 signals:
  void cellChosen(const std::vector<double>& values);

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rebuild();
  void buildLines();
  // The lines' points (with the current config's own, when known) and value ranges.
  void fillLines();
  std::optional<double> currentOwnMetric(std::size_t metric) const;
  void buildHeatmap();
  void buildLegend();
  void placeColorScale();
  void refreshLegend();
  void applyPalette();
  void fitLegend();
  void onMouseMove(QMouseEvent* event);
  void onMousePress(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  friend class SensitivityOverlay;

  QCustomPlot* plot_ = nullptr;
  SensitivityOverlay* overlay_ = nullptr;
  QCPColorMap* color_map_ = nullptr;
  QCPColorScale* color_scale_ = nullptr;
  QCPLayoutGrid* map_row_ = nullptr;  // the axis rect and the colour scale
  QCPLayoutGrid* legend_row_ = nullptr;
  QCPLegend* legend_ = nullptr;
  QCPTextElement* title_ = nullptr;
  QCPMarginGroup* margin_group_ = nullptr;
  SensitivityMap map_;
  std::vector<double> current_;
  std::vector<double> current_metrics_;     // the current config's own, per map metric
  std::vector<std::vector<double>> edges_;  // per axis, the cells' edges
  std::vector<std::vector<QPointF>> goals_boundary_;
  std::vector<std::vector<QPointF>> metric_goal_boundary_;
  std::optional<std::size_t> hovered_;
  std::optional<QPointF> pressed_at_;
  QString placeholder_;
  bool stale_ = false;
};

}  // namespace breakerlab::views
