#include "breakerlab/views/sensitivity_plot.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QPainterPath>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "breakerlab/views/qt_text.h"
#include "breakerlab/views/sensitivity_text.h"
#include "charts/plot_palette.h"
#include "sensitivity/goal_boundary.h"
#include "sensitivity/sensitivity_grid.h"

namespace breakerlab::views {

namespace {

// The map's own colours, readable on a light and a dark background alike.
const QColor kLine{0x3b, 0x7d, 0xd8};    // the first metric's line
const QColor kLine2{0xe0, 0x7b, 0x1a};   // the second's
const QColor kInk{0x1b, 0x1d, 0x21};     // the goal boundary
const QColor kHalo{0xff, 0xff, 0xff};    // around it, so it reads on any cell colour
const QColor kMissed{0xd6, 0x45, 0x41};  // a line plot's stretches that miss a goal
// Of the value span, under a line plot's lowest value (so a line at 0 clears the axis).
constexpr double kLineRoomBelow = 0.03;

// The marks over the cells (boundaries, hover, marker) repaint on their own buffered layer.
const QString kMarksLayer = QStringLiteral("sensitivity-marks");

// Viridis (perceptually even, readable in grey and by the colour-blind), from the matplotlib
// table at nine stops.
constexpr QRgb kViridis[] = {0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e,
                             0x1f9e89, 0x35b779, 0x6ece58, 0xfde725};

// A cell that misses a goal keeps its hue, faded towards grey: the region that meets every goal
// stands out in full colour, and the value still reads from the hue.
QColor faded(QColor c) {
  float h = 0, s = 0, l = 0, a = 0;
  c.getHslF(&h, &s, &l, &a);
  return QColor::fromHslF(h, s * 0.22f, 0.62f + l * 0.3f, a);
}

// Good values bright (the goal side of the map reads as lit), whichever way the metric is good.
QCPColorGradient gradientFor(const MetricInfo& metric, bool fade) {
  QCPColorGradient g;
  g.clearColorStops();
  const bool reversed = metric.direction == MetricDirection::lower_is_better;
  const int n = static_cast<int>(std::size(kViridis));
  for (int i = 0; i < n; ++i) {
    const double at = static_cast<double>(i) / (n - 1);
    QColor c = QColor::fromRgb(kViridis[i]);
    if (fade) c = faded(c);
    g.setColorStopAt(reversed ? 1 - at : at, c);
  }
  g.setColorInterpolation(QCPColorGradient::ciRGB);
  g.setNanHandling(QCPColorGradient::nhTransparent);
  g.setLevelCount(350);
  return g;
}

// How many tick labels an axis has room for: a duration's label is about 60 pixels wide, and
// labels up the side need a line and a half each.
int tickRoom(const QCPAxis* axis) {
  const QRect r = axis->axisRect()->rect();
  const bool across = axis->orientation() == Qt::Horizontal;
  return std::max(2, (across ? r.width() : r.height()) / (across ? 64 : 26));
}

// A log axis ticks at 1, 2 and 5 of each decade (or 1 and 3, or the powers alone) as densely as
// its length has room for: powers alone leave a 0.5 s to 30 s axis with two labels. Each is
// labelled as the knob panel writes the value (without a knob: as a plain number).
class KnobLogTicker : public QCPAxisTickerLog {
 public:
  KnobLogTicker(const KnobSpec* knob, const QCPAxis* axis) : knob_(knob), axis_(axis) {}

 protected:
  QVector<double> createTickVector(double step, const QCPRange& range) override {
    fine_ = false;
    if (range.lower <= 0 || range.upper <= range.lower)
      return QCPAxisTickerLog::createTickVector(step, range);
    const int room = tickRoom(axis_);
    const int from = static_cast<int>(std::floor(std::log10(range.lower))) - 1;
    const int to = static_cast<int>(std::ceil(std::log10(range.upper))) + 1;
    const std::vector<std::vector<double>> mantissas{{1, 2, 5}, {1, 3}, {1}};
    for (const auto& set : mantissas) {
      QVector<double> ticks;
      int inside = 0;
      for (int e = from; e <= to; ++e)
        for (double m : set) {
          const double tick = m * std::pow(10.0, e);
          ticks << tick;
          inside += range.contains(tick) ? 1 : 0;
        }
      if (inside <= room) {
        fine_ = set.size() > 1;
        return ticks;
      }
    }
    setTickCount(room);
    return QCPAxisTickerLog::createTickVector(step, range);
  }
  int getSubTickCount(double step) override {
    return fine_ ? 0 : QCPAxisTickerLog::getSubTickCount(step);
  }
  QString getTickLabel(double tick, const QLocale& locale, QChar, int) override {
    if (knob_ == nullptr || (knob_->kind == KnobSpec::Kind::number && !knobIsDuration(*knob_)))
      return locale.toString(tick, 'g', 6);
    return knobValueText(*knob_, tick);
  }

 private:
  const KnobSpec* knob_;
  const QCPAxis* axis_;
  bool fine_ = true;
};

// A linear axis labelled as the knob panel writes values; a count's ticks on whole numbers
// (multiples of its step), never "2.5 attempts".
class KnobTicker : public QCPAxisTicker {
 public:
  explicit KnobTicker(const KnobSpec& knob) : knob_(knob) {}

 protected:
  double getTickStep(const QCPRange& range) override {
    const double step = QCPAxisTicker::getTickStep(range);
    if (knob_.decimals != 0 || knob_.step < 1) return step;
    return std::max(knob_.step, std::round(step / knob_.step) * knob_.step);
  }
  QString getTickLabel(double tick, const QLocale& locale, QChar format, int precision) override {
    if (tick == 0 && !knob_.zero.empty()) return qs(knob_.zero);
    if (!knobIsDuration(knob_)) return QCPAxisTicker::getTickLabel(tick, locale, format, precision);
    return knobValueText(knob_, tick);
  }

 private:
  const KnobSpec& knob_;
};

// A toggle's or choice's values by name, at their indices.
QSharedPointer<QCPAxisTicker> namedTicker(const SensitivityAxis& axis) {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (double v : axis.values) ticker->addTick(v, knobValueText(*axis.knob, v));
  return ticker;
}

void setUpKnobAxis(QCPAxis* axis, const SensitivityAxis& knob_axis,
                   const std::vector<double>& edges) {
  const KnobSpec& knob = *knob_axis.knob;
  axis->setLabel(knobAxisTitle(knob));
  if (knob.kind != KnobSpec::Kind::number) {
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(namedTicker(knob_axis));
  } else if (knob_axis.log) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<KnobLogTicker>::create(&knob, axis));
  } else {
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(QSharedPointer<KnobTicker>::create(knob));
    axis->ticker()->setTickCount(std::max(2, tickRoom(axis) - 1));
  }
  if (edges.size() >= 2) axis->setRange(edges.front(), edges.back());
}

// A swatch and its words, for the legend under the map: a line (solid or dashed), the faded
// cells that miss a goal, a line plot's hatched stretches, or the current config's marker; or
// words alone (`note`).
class SwatchItem : public QCPAbstractLegendItem {
 public:
  enum class Kind { line, dashed, faded, hatched, marker, note };
  const QString& text() const { return text_; }
  SwatchItem(QCPLegend* legend, Kind kind, const QString& text, QColor color = {})
      : QCPAbstractLegendItem(legend), kind_(kind), text_(text), color_(color) {
    // A pixel above and below the words: the line is as tall as the font, and an antialiased
    // item is painted half a pixel down (QCPPainter::setAntialiasing), which puts the
    // descenders and the marker's rim on the line's last row.
    setMargins(QMargins(0, 1, 0, 1));
  }

 protected:
  // QCustomPlot draws each layerable clipped to clipRect().translated(0, -1) (QCPLayer::draw),
  // a pixel above the rect it laid out: on its own, a legend item loses its last row, the
  // bottom of every "g", "y" and of the marker. Clipped to the item's own rect instead.
  QRect clipRect() const override { return mOuterRect.translated(0, 1); }
  void draw(QCPPainter* painter) override {
    const QRect r = mRect;
    const QSize icon = mParentLegend->iconSize();
    const QRectF swatch(r.left(), r.top() + (r.height() - icon.height()) / 2.0, icon.width(),
                        icon.height());
    painter->setRenderHint(QPainter::Antialiasing, true);
    const double mid = swatch.center().y();
    switch (kind_) {
      case Kind::line:
      case Kind::dashed: {
        if (kind_ == Kind::line && !color_.isValid()) {
          painter->setPen(QPen(kHalo, 4.5));
          painter->drawLine(QPointF(swatch.left(), mid), QPointF(swatch.right(), mid));
        }
        QPen pen(color_.isValid() ? color_ : kInk, 2,
                 kind_ == Kind::dashed ? Qt::DashLine : Qt::SolidLine);
        if (kind_ == Kind::dashed) pen.setDashPattern({4, 3});
        painter->setPen(pen);
        painter->drawLine(QPointF(swatch.left(), mid), QPointF(swatch.right(), mid));
        break;
      }
      case Kind::faded: {
        const QRectF half(swatch.left(), swatch.top() + 1, swatch.width() / 2, swatch.height() - 2);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor::fromRgb(kViridis[7]));
        painter->drawRect(half);
        painter->setBrush(faded(QColor::fromRgb(kViridis[7])));
        painter->drawRect(half.translated(half.width(), 0));
        break;
      }
      case Kind::hatched: {
        QColor fill = kMissed;
        fill.setAlpha(40);
        painter->setPen(Qt::NoPen);
        painter->setBrush(fill);
        painter->drawRect(swatch.adjusted(0, 1, 0, -1));
        QColor line = kMissed;
        line.setAlpha(140);
        painter->setBrush(QBrush(line, Qt::BDiagPattern));
        painter->drawRect(swatch.adjusted(0, 1, 0, -1));
        break;
      }
      case Kind::note:
        break;
      case Kind::marker: {
        painter->setPen(QPen(kInk, 2));
        painter->setBrush(Qt::white);
        painter->drawEllipse(QPointF(swatch.center().x(), mid), 5, 5);
        painter->setBrush(kInk);
        painter->setPen(Qt::NoPen);
        painter->drawEllipse(QPointF(swatch.center().x(), mid), 1.6, 1.6);
        break;
      }
    }
    painter->setFont(mFont);
    painter->setPen(QPen(mTextColor));
    const int indent = swatchWidth();
    painter->drawText(QRectF(r.left() + indent, r.top(), r.width() - indent, r.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, text_);
  }
  int swatchWidth() const {
    return kind_ == Kind::note
               ? 0
               : mParentLegend->iconSize().width() + mParentLegend->iconTextPadding();
  }
  QSize minimumOuterSizeHint() const override {
    const QFontMetrics metrics(mFont);
    const QSize icon = mParentLegend->iconSize();
    const int width =
        swatchWidth() + metrics.horizontalAdvance(text_) + mMargins.left() + mMargins.right();
    const int height =
        std::max(icon.height(), metrics.height()) + mMargins.top() + mMargins.bottom();
    return {width, height};
  }

 private:
  Kind kind_;
  QString text_;
  QColor color_;
};

std::vector<bool> missedFlags(const std::vector<CellVerdict>& cells) {
  std::vector<bool> flags(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) flags[i] = cells[i] == CellVerdict::missed;
  return flags;
}

std::vector<std::vector<QPointF>> linesInValues(const std::vector<GridSegment>& segments,
                                                const std::vector<double>& x_edges,
                                                const std::vector<double>& y_edges) {
  std::vector<std::vector<QPointF>> lines;
  for (const auto& line : boundaryLines(segments)) {
    std::vector<QPointF> points;
    for (const GridPoint& p : line)
      points.emplace_back(x_edges[static_cast<std::size_t>(p.x)],
                          y_edges[static_cast<std::size_t>(p.y)]);
    lines.push_back(std::move(points));
  }
  return lines;
}

}  // namespace

// Everything drawn over the cells, in one pass on a buffered layer of its own (hovering repaints
// only it): a line plot's missed stretches and goal levels, the goal boundaries, the hovered
// cell, the current config's marker and the fade of a stale map. Also the goal's bound on the
// colour scale, which lies outside the axis rect.
class SensitivityOverlay : public QCPAbstractItem {
 public:
  explicit SensitivityOverlay(SensitivityPlot* owner)
      : QCPAbstractItem(owner->plot_), owner_(owner) {
    setClipToAxisRect(false);
    setSelectable(false);
  }

  double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }

 protected:
  void draw(QCPPainter* painter) override {
    const SensitivityMap& map = owner_->map_;
    if (map.empty()) return;
    QCPAxisRect* rect = owner_->plot_->axisRect();
    painter->save();
    painter->setClipRect(rect->rect());
    painter->setRenderHint(QPainter::Antialiasing, true);
    if (map.axes.size() == 1) {
      drawLineExtras(painter, map);
    } else {
      drawMapExtras(painter, map);
    }
    if (owner_->stale_) {
      QColor veil = owner_->palette().color(QPalette::Base);
      veil.setAlpha(150);
      painter->fillRect(rect->rect(), veil);
    }
    painter->restore();
    if (map.axes.size() == 2) drawScaleBound(painter, map);
  }

 private:
  QCPAxis* x() const { return owner_->plot_->xAxis; }
  QCPAxis* y() const { return owner_->plot_->yAxis; }
  QPointF pixel(QPointF value) const {
    return {x()->coordToPixel(value.x()), y()->coordToPixel(value.y())};
  }
  QColor ink() const { return owner_->palette().color(QPalette::WindowText); }

  void drawPolylines(QCPPainter* painter, const std::vector<std::vector<QPointF>>& lines,
                     bool dashed) {
    for (const auto& line : lines) {
      QPolygonF poly;
      for (const QPointF& p : line) poly << pixel(p);
      if (!dashed) {
        painter->setPen(QPen(kHalo, 5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->drawPolyline(poly);
      }
      QPen pen(kInk, dashed ? 1.6 : 2.2, dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap,
               Qt::RoundJoin);
      if (dashed) pen.setDashPattern({4, 3});
      painter->setPen(pen);
      painter->drawPolyline(poly);
    }
  }

  void drawCurrentCross(QCPPainter* painter, const std::optional<QPointF>& at) {
    if (!at) return;
    const QRect r = owner_->plot_->axisRect()->rect();
    const bool heatmap = owner_->map_.axes.size() == 2;
    const auto drawCross = [&] {
      painter->drawLine(QPointF(at->x(), r.top()), QPointF(at->x(), r.bottom()));
      if (heatmap) painter->drawLine(QPointF(r.left(), at->y()), QPointF(r.right(), at->y()));
    };
    // Over the cells, dark dashes on a light halo, as the boundary: the window's text colour
    // alone fades into the dark cells (light theme) or the bright ones (dark theme).
    if (heatmap) {
      QColor halo = kHalo;
      halo.setAlpha(140);
      painter->setPen(QPen(halo, 3));
      drawCross();
    }
    QColor line = heatmap ? kInk : ink();
    line.setAlpha(heatmap ? 220 : 150);
    QPen pen(line, 1, Qt::DashLine);
    pen.setDashPattern({3, 3});
    painter->setPen(pen);
    drawCross();
    painter->setPen(QPen(kInk, 2));
    painter->setBrush(Qt::white);
    painter->drawEllipse(*at, 5.5, 5.5);
    painter->setPen(Qt::NoPen);
    painter->setBrush(kInk);
    painter->drawEllipse(*at, 1.8, 1.8);
  }

  void drawMapExtras(QCPPainter* painter, const SensitivityMap& map) {
    drawPolylines(painter, owner_->metric_goal_boundary_, true);
    drawPolylines(painter, owner_->goals_boundary_, false);
    if (owner_->hovered_) {
      const auto at = map.cellPlace(*owner_->hovered_);
      const auto& ex = owner_->edges_[0];
      const auto& ey = owner_->edges_[1];
      const QRectF cell(pixel({ex[at[0]], ey[at[1] + 1]}), pixel({ex[at[0] + 1], ey[at[1]]}));
      painter->setBrush(Qt::NoBrush);
      painter->setPen(QPen(kHalo, 3));
      painter->drawRect(cell);
      painter->setPen(QPen(kInk, 1.2));
      painter->drawRect(cell);
    }
    drawCurrentCross(painter, owner_->currentMarker());
  }

  void drawLineExtras(QCPPainter* painter, const SensitivityMap& map) {
    const QRect r = owner_->plot_->axisRect()->rect();
    const auto& edges = owner_->edges_[0];
    // The stretches that miss a goal, shaded and hatched across the plot's height.
    QColor fill = kMissed;
    fill.setAlpha(28);
    QColor hatch = kMissed;
    hatch.setAlpha(90);
    for (const IndexRun& run : runsOf(missedFlags(map.all_goals))) {
      const double left = x()->coordToPixel(edges[run.begin]);
      const double right = x()->coordToPixel(edges[run.end]);
      const QRectF band(QPointF(left, r.top()), QPointF(right, r.bottom()));
      painter->setPen(Qt::NoPen);
      painter->setBrush(fill);
      painter->drawRect(band);
      painter->setBrush(QBrush(hatch, Qt::BDiagPattern));
      painter->drawRect(band);
    }
    // Each metric's goal as a level, named at the right end.
    for (std::size_t m = 0; m < map.metrics.size() && m < 2; ++m) {
      const SensitivityGoal* goal = map.goalOn(map.metrics[m].metric->name);
      if (goal == nullptr) continue;
      QCPAxis* axis = m == 0 ? owner_->plot_->yAxis : owner_->plot_->yAxis2;
      const double level = axis->coordToPixel(goal->value);
      QPen pen(m == 0 ? kLine : kLine2, 1.4, Qt::DashLine);
      pen.setDashPattern({5, 3});
      painter->setPen(pen);
      painter->drawLine(QPointF(r.left(), level), QPointF(r.right(), level));
      QFont small = owner_->font();
      small.setPointSizeF(small.pointSizeF() * 0.85);
      painter->setFont(small);
      const QString text = QObject::tr("goal %1").arg(goalBoundText(*goal, map.metrics[m].metric));
      const QFontMetricsF metrics(small);
      const QRectF box(r.right() - metrics.horizontalAdvance(text) - 6,
                       level - metrics.height() - 1, metrics.horizontalAdvance(text) + 4,
                       metrics.height());
      QColor back = owner_->palette().color(QPalette::Base);
      back.setAlpha(200);
      painter->fillRect(box, back);
      painter->setPen(m == 0 ? kLine : kLine2);
      painter->drawText(box, Qt::AlignCenter, text);
    }
    if (owner_->hovered_) {
      const double at = x()->coordToPixel(map.axes[0].values[*owner_->hovered_]);
      QColor line = ink();
      line.setAlpha(70);
      painter->setPen(QPen(line, 1));
      painter->drawLine(QPointF(at, r.top()), QPointF(at, r.bottom()));
    }
    drawCurrentCross(painter, owner_->currentMarker());
  }

  // The goal's bound on the colour scale: a notch across the bar.
  void drawScaleBound(QCPPainter* painter, const SensitivityMap& map) {
    if (owner_->color_scale_ == nullptr || map.metrics.empty()) return;
    const SensitivityGoal* goal = map.goalOn(map.metrics[0].metric->name);
    if (goal == nullptr) return;
    const QCPRange range = owner_->color_scale_->dataRange();
    if (goal->value < range.lower || goal->value > range.upper) return;
    QCPAxis* axis = owner_->color_scale_->axis();
    const QRect bar = axis->axisRect()->rect();
    const double at = axis->coordToPixel(goal->value);
    // Across the bar, poking out on the side away from the labels.
    const QLineF notch = axis->orientation() == Qt::Vertical
                             ? QLineF(bar.left() - 4, at, bar.right(), at)
                             : QLineF(at, bar.top() - 4, at, bar.bottom());
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(kHalo, 4));
    painter->drawLine(notch);
    painter->setPen(QPen(kInk, 2));
    painter->drawLine(notch);
    painter->restore();
  }

  SensitivityPlot* owner_;
};

SensitivityPlot::SensitivityPlot(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setMouseTracking(true);
  plot_->setAutoAddPlottableToLegend(false);
  plot_->addLayer(kMarksLayer, plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
  plot_->layer(kMarksLayer)->setMode(QCPLayer::lmBuffered);
  plot_->installEventFilter(this);
  // The axis rect and the colour scale share a row, under the title, over the legend (which
  // then has the plot's whole width).
  QCPAxisRect* rect = plot_->axisRect();
  plot_->plotLayout()->take(rect);
  plot_->plotLayout()->simplify();
  map_row_ = new QCPLayoutGrid;
  plot_->plotLayout()->addElement(0, 0, map_row_);
  map_row_->addElement(0, 0, rect);
  map_row_->setColumnSpacing(6);
  overlay_ = new SensitivityOverlay(this);
  overlay_->setLayer(kMarksLayer);
  connect(plot_, &QCustomPlot::mouseMove, this, &SensitivityPlot::onMouseMove);
  connect(plot_, &QCustomPlot::mousePress, this, &SensitivityPlot::onMousePress);
  connect(plot_, &QCustomPlot::mouseRelease, this, &SensitivityPlot::onMouseRelease);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  setMinimumSize(240, 220);
  placeholder_ = tr("No map yet");
  rebuild();
}

SensitivityPlot::~SensitivityPlot() = default;

void SensitivityPlot::setMap(SensitivityMap map) {
  map_ = std::move(map);
  hovered_.reset();
  current_metrics_.clear();  // another map may measure other metrics: setCurrent() tells anew
  rebuild();
}

void SensitivityPlot::setCurrent(std::vector<double> values, std::vector<double> own_metrics) {
  const auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
    // NaN (not known) equals NaN here.
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
             return x == y || (std::isnan(x) && std::isnan(y));
           });
  };
  if (values == current_ && same(own_metrics, current_metrics_)) return;
  const bool was_on_map = currentOnMap(), had_current = !current_.empty();
  current_ = std::move(values);
  current_metrics_ = std::move(own_metrics);
  if (map_.axes.size() == 1 && plot_->graphCount() > 0) {
    // The lines pass through the config's own replay and their range holds it.
    fillLines();
    if (had_current != !current_.empty() || was_on_map != currentOnMap()) refreshLegend();
    plot_->replot();
    return;
  }
  if (!map_.empty() && (had_current != !current_.empty() || was_on_map != currentOnMap())) {
    // The legend names the marker, or says it is off the map.
    refreshLegend();
    plot_->replot();
    return;
  }
  plot_->layer(kMarksLayer)->replot();
  plot_->update();
}

void SensitivityPlot::refreshLegend() {
  if (legend_row_ != nullptr) {
    plot_->plotLayout()->remove(legend_row_);
    plot_->plotLayout()->simplify();
    legend_row_ = nullptr;
    legend_ = nullptr;
  }
  buildLegend();
  applyPalette();
}

bool SensitivityPlot::anyCellMeetsEveryGoal() const {
  return std::find(map_.all_goals.begin(), map_.all_goals.end(), CellVerdict::met) !=
         map_.all_goals.end();
}

QStringList SensitivityPlot::legendTexts() const {
  QStringList texts;
  if (legend_ != nullptr)
    for (int i = 0; i < legend_->itemCount(); ++i)
      if (const auto* item = dynamic_cast<const SwatchItem*>(legend_->item(i)))
        texts << item->text();
  return texts;
}

bool SensitivityPlot::currentOnMap() const {
  if (map_.empty() || current_.size() != map_.axes.size()) return false;
  for (std::size_t d = 0; d < map_.axes.size(); ++d)
    if (!views::cellAt(edges_[d], current_[d])) return false;
  return true;
}

void SensitivityPlot::setPlaceholder(const QString& text) {
  placeholder_ = text;
  if (map_.empty()) rebuild();
}

void SensitivityPlot::setStale(bool stale) {
  if (stale == stale_) return;
  stale_ = stale;
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<QPointF> SensitivityPlot::currentMarker() const {
  if (!currentOnMap()) return std::nullopt;
  if (map_.axes.size() == 1) {
    // On the line, at the config's own value if known, else the value of the cell holding it.
    const auto cell = views::cellAt(edges_[0], current_[0]);
    const double value = currentOwnMetric(0).value_or(
        !map_.metrics.empty() && cell ? map_.metrics[0].values[*cell] : std::nan(""));
    const double x = plot_->xAxis->coordToPixel(current_[0]);
    const double y = std::isnan(value) ? plot_->axisRect()->rect().center().y()
                                       : plot_->yAxis->coordToPixel(value);
    return QPointF(x, y);
  }
  return QPointF(plot_->xAxis->coordToPixel(current_[0]), plot_->yAxis->coordToPixel(current_[1]));
}

std::optional<std::size_t> SensitivityPlot::cellAt(QPointF pixel) const {
  if (map_.empty() || !plot_->axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
  std::vector<std::size_t> at(map_.axes.size());
  const auto x = views::cellAt(edges_[0], plot_->xAxis->pixelToCoord(pixel.x()));
  if (!x) return std::nullopt;
  at[0] = *x;
  if (map_.axes.size() == 2) {
    const auto y = views::cellAt(edges_[1], plot_->yAxis->pixelToCoord(pixel.y()));
    if (!y) return std::nullopt;
    at[1] = *y;
  }
  return map_.cellIndex(at);
}

QPointF SensitivityPlot::cellCentre(std::size_t cell) const {
  const std::vector<double> values = map_.cellValues(cell);
  const double x = plot_->xAxis->coordToPixel(values[0]);
  if (map_.axes.size() == 1)
    return {x, static_cast<double>(plot_->axisRect()->rect().center().y())};
  return {x, plot_->yAxis->coordToPixel(values[1])};
}

std::vector<std::size_t> SensitivityPlot::hatchedCells() const {
  std::vector<std::size_t> cells;
  for (std::size_t i = 0; i < map_.all_goals.size(); ++i)
    if (map_.all_goals[i] == CellVerdict::missed) cells.push_back(i);
  return cells;
}

void SensitivityPlot::rebuild() {
  plot_->clearPlottables();
  color_map_ = nullptr;
  // The layout around the axis rect (title, colour scale, legend) is made anew for each map.
  if (color_scale_ != nullptr) {
    map_row_->remove(color_scale_);
    map_row_->simplify();
    color_scale_ = nullptr;
  }
  if (legend_row_ != nullptr) {
    plot_->plotLayout()->remove(legend_row_);
    legend_row_ = nullptr;
    legend_ = nullptr;
  }
  if (title_ != nullptr) {
    plot_->plotLayout()->remove(title_);
    title_ = nullptr;
  }
  if (margin_group_ != nullptr) {
    plot_->axisRect()->setMarginGroup(QCP::msAll, nullptr);
    delete margin_group_;
    margin_group_ = nullptr;
  }
  plot_->plotLayout()->simplify();
  // The default legend lives inside the axis rect: not used.
  plot_->legend->setVisible(false);
  edges_.clear();
  goals_boundary_.clear();
  metric_goal_boundary_.clear();
  // A frame around the cells (the top and right axes, unlabelled); a second metric's axis gets
  // its ticks and labels back.
  plot_->xAxis2->setVisible(true);
  plot_->yAxis2->setVisible(true);
  plot_->yAxis2->setLabel({});
  for (QCPAxis* axis : {plot_->xAxis2, plot_->yAxis2}) {
    axis->setTicks(false);
    axis->setTickLabels(false);
    axis->grid()->setVisible(false);
  }
  plot_->xAxis->grid()->setVisible(true);
  plot_->yAxis->grid()->setVisible(true);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    axis->setLabel({});
  }
  if (map_.empty()) {
    plot_->xAxis->setTickLabels(false);
    plot_->yAxis->setTickLabels(false);
    plot_->xAxis->setRange(0, 1);
    plot_->yAxis->setRange(0, 1);
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    title_ = new QCPTextElement(plot_, placeholder_);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
    applyPalette();
    plot_->replot();
    return;
  }
  plot_->xAxis->setTickLabels(true);
  plot_->yAxis->setTickLabels(true);
  for (const SensitivityAxis& axis : map_.axes)
    edges_.push_back(
        cellEdges(axis.values, AxisScale{axis.log && axis.knob->kind == KnobSpec::Kind::number}));
  if (map_.axes.size() == 1) {
    buildLines();
  } else {
    buildHeatmap();
  }
  if (!map_.title.empty()) {
    title_ = new QCPTextElement(plot_, QString::fromStdString(map_.title));
    QFont bold = font();
    bold.setBold(true);
    title_->setFont(bold);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
  }
  buildLegend();
  applyPalette();
  plot_->replot();
}

void SensitivityPlot::buildLines() {
  const SensitivityAxis& axis = map_.axes[0];
  setUpKnobAxis(plot_->xAxis, axis, edges_[0]);
  for (std::size_t m = 0; m < map_.metrics.size() && m < 2; ++m) {
    const SensitivityMetric& metric = map_.metrics[m];
    QCPAxis* value_axis = m == 0 ? plot_->yAxis : plot_->yAxis2;
    auto* graph = plot_->addGraph(plot_->xAxis, value_axis);
    const QColor color = m == 0 ? kLine : kLine2;
    graph->setPen(QPen(color, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 5));
    graph->setName(qs(metric.metric->label));
    value_axis->setLabel(metricAxisTitle(*metric.metric));
    if (m == 1) {
      value_axis->setTicks(true);
      value_axis->setTickLabels(true);
    }
  }
  fillLines();
}

std::optional<double> SensitivityPlot::currentOwnMetric(std::size_t m) const {
  if (m >= current_metrics_.size() || !std::isfinite(current_metrics_[m]) || !currentOnMap())
    return std::nullopt;
  return current_metrics_[m];
}

void SensitivityPlot::fillLines() {
  const SensitivityAxis& axis = map_.axes[0];
  for (int m = 0; m < plot_->graphCount(); ++m) {
    const SensitivityMetric& metric = map_.metrics[static_cast<std::size_t>(m)];
    QCPGraph* graph = plot_->graph(m);
    QCPAxis* value_axis = graph->valueAxis();
    QVector<double> keys(axis.values.begin(), axis.values.end());
    QVector<double> values(metric.values.begin(), metric.values.end());
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : metric.values)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    if (const std::optional<double> own = currentOwnMetric(static_cast<std::size_t>(m))) {
      // The current config's own replay joins the line where it lies. On a cell's value it
      // takes that cell's place: a preview's cell may still show its neighbour's value.
      const auto same_key = std::find_if(keys.begin(), keys.end(), [&](double key) {
        return std::abs(key - current_[0]) <= 1e-9 * std::max(1.0, std::abs(key));
      });
      if (same_key != keys.end()) {
        values[static_cast<int>(same_key - keys.begin())] = *own;
      } else {
        keys.push_back(current_[0]);
        values.push_back(*own);
      }
      lo = std::min(lo, *own);
      hi = std::max(hi, *own);
    }
    graph->setData(keys, values, false);
    // The goal's level stays in view.
    if (const SensitivityGoal* goal = map_.goalOn(metric.metric->name)) {
      lo = std::min(lo, goal->value);
      hi = std::max(hi, goal->value);
    }
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    if (lo >= 0) lo = 0;  // amounts from zero: the line's height reads as its size
    if (hi <= lo) hi = lo + 1;
    // A little room under the lowest value too: a line at 0 would hide in the axis' own line.
    value_axis->setRange(lo - (hi - lo) * kLineRoomBelow, hi + (hi - lo) * 0.08);
  }
}

void SensitivityPlot::buildHeatmap() {
  const SensitivityAxis& xa = map_.axes[0];
  const SensitivityAxis& ya = map_.axes[1];
  setUpKnobAxis(plot_->xAxis, xa, edges_[0]);
  setUpKnobAxis(plot_->yAxis, ya, edges_[1]);
  plot_->xAxis->grid()->setVisible(false);
  plot_->yAxis->grid()->setVisible(false);
  if (map_.metrics.empty()) return;
  const SensitivityMetric& metric = map_.metrics[0];
  const std::size_t nx = xa.values.size(), ny = ya.values.size();

  // Cells of uneven width as an image of even columns (QCPColorMap's grid): each column takes
  // the cell its centre falls in. The image's range is set so that its outer edges land on the
  // cells' outer edges, on the axes' own scale.
  const AxisScale sx{xa.log && xa.knob->kind == KnobSpec::Kind::number};
  const AxisScale sy{ya.log && ya.knob->kind == KnobSpec::Kind::number};
  const std::size_t cols = imageColumns(nx, 768), rows = imageColumns(ny, 768);
  const std::vector<std::size_t> col_cell = columnCells(edges_[0], sx, cols);
  const std::vector<std::size_t> row_cell = columnCells(edges_[1], sy, rows);
  const auto range = [](const std::vector<double>& edges, AxisScale s, std::size_t n) {
    const double from = s.toScreen(edges.front()), to = s.toScreen(edges.back());
    const double half = (to - from) / (2.0 * static_cast<double>(n));
    return QCPRange(s.fromScreen(from + half), s.fromScreen(to - half));
  };
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (double v : metric.values)
    if (std::isfinite(v)) {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  if (!std::isfinite(low)) low = 0, high = 1;
  if (high <= low) {
    const double pad = std::max(std::abs(low) * 0.05, 0.5);
    low -= pad;
    high += pad;
  }
  // Colours by ratio when the values span one (time cached from 1.5 s to 19 s): by value, the
  // seconds near a goal of 3 s would all be one colour.
  const QCPAxis::ScaleType colour_scale =
      low > 0 && high / low >= 8 ? QCPAxis::stLogarithmic : QCPAxis::stLinear;
  // Cells meeting every goal in full colour, the others faded: two maps, each blank (NaN)
  // where the other draws. When no cell meets them all, fading every cell would only take the
  // contrast away: all are drawn in full colour and the legend says so.
  const QCPRange data_range(low, high);
  const bool fade_missed = anyCellMeetsEveryGoal();
  for (const bool met : {true, false}) {
    auto* map = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map->setInterpolate(false);
    map->setTightBoundary(false);
    map->data()->setSize(static_cast<int>(cols), static_cast<int>(rows));
    map->data()->setRange(range(edges_[0], sx, cols), range(edges_[1], sy, rows));
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t cell = col_cell[c] * ny + row_cell[r];
        const CellVerdict verdict = map_.all_goals[cell];
        const bool missed = fade_missed && verdict == CellVerdict::missed;
        const bool shown = met ? !missed : missed;
        map->data()->setCell(static_cast<int>(c), static_cast<int>(r),
                             shown ? metric.values[cell] : std::nan(""));
      }
    map->setGradient(gradientFor(*metric.metric, !met));
    map->setDataScaleType(colour_scale);
    map->setDataRange(data_range);
    if (met) color_map_ = map;
  }

  color_scale_ = new QCPColorScale(plot_);
  color_scale_->setGradient(gradientFor(*metric.metric, false));
  color_scale_->setDataScaleType(colour_scale);
  color_scale_->setDataRange(data_range);
  color_scale_->setBarWidth(14);
  color_scale_->setRangeDrag(false);
  color_scale_->setRangeZoom(false);
  color_scale_->axis()->setLabel(metricAxisTitle(*metric.metric));
  placeColorScale();  // and its ticks, on the axis of the side it takes

  // The goals' boundaries, in knob values.
  const VerdictGrid all{nx, ny, map_.all_goals};
  const auto all_segments = boundarySegments(all);
  goals_boundary_ = linesInValues(all_segments, edges_[0], edges_[1]);
  if (const SensitivityGoal* goal = map_.goalOn(metric.metric->name)) {
    const VerdictGrid own{nx, ny, goal->cells};
    const auto own_segments = boundarySegments(own);
    // Drawn apart only where it runs apart: the same boundary twice would only thicken.
    if (own_segments != all_segments)
      metric_goal_boundary_ = linesInValues(own_segments, edges_[0], edges_[1]);
  }
}

void SensitivityPlot::placeColorScale() {
  if (color_scale_ == nullptr) return;
  // Beside the cells in a wide plot, under them in a tall one (a dock's column): the cells get
  // the longer side.
  const bool under = width() < height() * 1.15;
  const QCPAxis::AxisType type = under ? QCPAxis::atBottom : QCPAxis::atRight;
  if (map_row_->hasElement(0, 1) || map_row_->hasElement(1, 0)) {
    if (color_scale_->type() == type) return;
    map_row_->take(color_scale_);
    map_row_->simplify();
  }
  if (margin_group_ != nullptr) {
    plot_->axisRect()->setMarginGroup(QCP::msAll, nullptr);
    color_scale_->setMarginGroup(QCP::msAll, nullptr);
    delete margin_group_;
  }
  // A margin group set the scale's margins on its sides, and they stay when it leaves the group
  // (a layout element's own automatic margin is the margin it has): moved under the cells, it
  // would keep the top and bottom margins of the cells it stood beside, 42 pixels more than it
  // needs, and a small plot's rows, the legend's among them, would be squeezed to make room.
  color_scale_->setMargins(color_scale_->minimumMargins());
  color_scale_->setType(type);
  // QCustomPlot keeps the bar's gradient image across setType (qcustomplot.cpp,
  // QCPColorScaleAxisRectPrivate: only setGradient invalidates it): one drawn for the side,
  // stretched under the cells, was one colour along the bar. Set the gradient anew.
  const QCPColorGradient gradient = color_scale_->gradient();
  color_scale_->setGradient(QCPColorGradient(gradient == QCPColorGradient(QCPColorGradient::gpHot)
                                                 ? QCPColorGradient::gpCold
                                                 : QCPColorGradient::gpHot));
  color_scale_->setGradient(gradient);
  // setType moves to another axis of the scale's own rect, taking the range and the label but
  // not the scale type: a map coloured by ratio was ticked evenly under the cells. The log
  // ticker sizes its ticks by the axis it is made for.
  QCPAxis* colour_axis = color_scale_->axis();
  colour_axis->setScaleType(color_scale_->dataScaleType());
  if (color_scale_->dataScaleType() == QCPAxis::stLogarithmic)
    colour_axis->setTicker(QSharedPointer<KnobLogTicker>::create(nullptr, colour_axis));
  else
    colour_axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  color_scale_->setBarWidth(under ? 12 : 14);
  margin_group_ = new QCPMarginGroup(plot_);
  const QCP::MarginSides sides =
      under ? (QCP::msLeft | QCP::msRight) : (QCP::msTop | QCP::msBottom);
  if (under) {
    map_row_->addElement(1, 0, color_scale_);
    map_row_->setRowStretchFactor(1, 0.01);
    map_row_->setRowSpacing(2);
  } else {
    map_row_->addElement(0, 1, color_scale_);
    map_row_->setColumnStretchFactor(1, 0.01);
  }
  plot_->axisRect()->setMarginGroup(sides, margin_group_);
  color_scale_->setMarginGroup(sides, margin_group_);
  applyPalette();
}

void SensitivityPlot::buildLegend() {
  legend_row_ = new QCPLayoutGrid;
  plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, legend_row_);
  plot_->plotLayout()->setRowStretchFactor(plot_->plotLayout()->rowCount() - 1, 0.001);
  // The legend centred under the plot: empty stretches either side of it.
  legend_ = new QCPLegend;
  legend_row_->addElement(0, 0, new QCPLayoutElement(plot_));
  legend_row_->addElement(0, 1, legend_);
  legend_row_->addElement(0, 2, new QCPLayoutElement(plot_));
  legend_row_->setColumnSpacing(0);
  legend_row_->setMargins(QMargins(0, 0, 0, 0));
  legend_->setLayer(QStringLiteral("legend"));
  legend_->setBorderPen(Qt::NoPen);
  legend_->setBrush(Qt::NoBrush);
  legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend_->setIconSize(22, 12);
  legend_->setRowSpacing(0);
  legend_->setColumnSpacing(12);
  legend_->setMargins(QMargins(4, 0, 4, 2));
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  legend_->setFont(small);
  using Kind = SwatchItem::Kind;
  const QString current = current_.empty() || currentOnMap() ? tr("current config")
                                                             : tr("current config (off the map)");
  if (map_.axes.size() == 2) {
    if (!map_.goals.empty()) {
      const bool any_met = anyCellMeetsEveryGoal();
      if (any_met)
        legend_->addItem(new SwatchItem(legend_, Kind::line, tr("boundary of every goal met")));
      // The coloured metric's own goal may part the cells even when no cell meets them all.
      if (!metric_goal_boundary_.empty()) {
        const SensitivityMetric& m = map_.metrics[0];
        legend_->addItem(new SwatchItem(legend_, Kind::dashed,
                                        qs(m.metric->label).toLower() + QStringLiteral(" ") +
                                            goalBoundText(*map_.goalOn(m.metric->name), m.metric)));
      }
      legend_->addItem(any_met
                           ? new SwatchItem(legend_, Kind::faded, tr("misses a goal"))
                           : new SwatchItem(legend_, Kind::note, tr("no cell meets every goal")));
    }
  } else {
    for (int i = 0; i < plot_->graphCount(); ++i)
      legend_->addItem(
          new SwatchItem(legend_, Kind::line, plot_->graph(i)->name(), i == 0 ? kLine : kLine2));
    if (!map_.goals.empty())
      legend_->addItem(new SwatchItem(legend_, Kind::hatched, tr("misses a goal")));
  }
  if (!current_.empty()) legend_->addItem(new SwatchItem(legend_, Kind::marker, current));
  for (int i = 0; i < legend_->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = legend_->item(i)) item->setFont(small);
  fitLegend();
}

void SensitivityPlot::fitLegend() {
  if (legend_ == nullptr) return;
  // As many swatches on a line as the plot's width holds. (A wrapped legend has empty cells
  // after its last swatch: item() is null there.)
  const int room = width() - 16;
  int used = 0, per_line = 0;
  for (int i = 0; i < legend_->itemCount(); ++i) {
    const QCPAbstractLegendItem* item = legend_->item(i);
    if (item == nullptr) continue;
    used += item->minimumOuterSizeHint().width() + legend_->columnSpacing();
    if (used > room && per_line > 0) break;
    ++per_line;
  }
  legend_->setWrap(std::max(per_line, 1));
  legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // laid out again by the new wrap
  legend_->setMaximumSize(legend_->minimumOuterSizeHint().width(), QWIDGETSIZE_MAX);
}

void SensitivityPlot::applyPalette() {
  const QPalette p = palette();
  const QColor text = p.color(QPalette::WindowText);
  QList<QCPAxis*> axes{plot_->xAxis, plot_->yAxis, plot_->xAxis2, plot_->yAxis2};
  if (color_scale_ != nullptr) axes << color_scale_->axis();
  applyPlotPalette(*plot_, axes, p, kMapGridAlpha);
  plot_->axisRect()->setBackground(p.color(QPalette::Base));
  if (legend_ != nullptr)
    for (int i = 0; i < legend_->itemCount(); ++i)
      if (QCPAbstractLegendItem* item = legend_->item(i)) item->setTextColor(text);
  if (title_ != nullptr)
    title_->setTextColor(map_.empty() ? p.color(QPalette::PlaceholderText) : text);
}

QImage SensitivityPlot::renderImage(QSize size) {
  // Light, as documents are, whatever the desktop's theme.
  const QPalette was = palette();
  const QPalette light = documentPalette(was);
  setPalette(light);
  resize(size);
  plot_->resize(size);
  placeColorScale();
  fitLegend();
  applyPalette();
  // Twice: the ticks are chosen for the axis rect's size, which the first replot lays out.
  plot_->replot();
  plot_->replot();
  const QImage image = plot_->toPixmap(size.width(), size.height(), 1.0).toImage();
  setPalette(was);
  applyPalette();
  return image;
}

void SensitivityPlot::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) rebuild();
  QWidget::changeEvent(event);
}

void SensitivityPlot::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  placeColorScale();
  fitLegend();
  // The ticks follow the axes' new length.
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool SensitivityPlot::eventFilter(QObject* watched, QEvent* event) {
  if (watched == plot_ && event->type() == QEvent::Leave && hovered_) {
    hovered_.reset();
    plot_->layer(kMarksLayer)->replot();
    plot_->update();
  }
  return QWidget::eventFilter(watched, event);
}

void SensitivityPlot::onMouseMove(QMouseEvent* event) {
  const std::optional<std::size_t> cell = cellAt(event->position());
  if (cell != hovered_) {
    hovered_ = cell;
    plot_->layer(kMarksLayer)->replot();
    plot_->update();
  }
  if (cell) {
    QToolTip::showText(event->globalPosition().toPoint(),
                       cellToolTip(map_, *cell) + QStringLiteral("\n") + tr("Click to apply"),
                       plot_);
  } else {
    QToolTip::hideText();
  }
}

void SensitivityPlot::onMousePress(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) pressed_at_ = event->position();
}

void SensitivityPlot::onMouseRelease(QMouseEvent* event) {
  const std::optional<QPointF> pressed = pressed_at_;
  pressed_at_.reset();
  if (event->button() != Qt::LeftButton || !pressed ||
      (event->position() - *pressed).manhattanLength() > 4)
    return;
  if (const auto cell = cellAt(event->position())) emit cellChosen(map_.cellValues(*cell));
}

}  // namespace breakerlab::views
