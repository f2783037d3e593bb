#include "breakerlab/views/lanes_view.h"

#include <qcustomplot.h>

#include <QAbstractSpinBox>
#include <QApplication>
#include <QBuffer>
#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPdfWriter>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSet>
#include <QSvgGenerator>
#include <QTextEdit>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <span>

#include "breakerlab/core/basics/breaker_state.h"
#include "breakerlab/core/outcome/fleet.h"
#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/lane_keys.h"
#include "charts/plot_palette.h"
#include "lanes/label_layout.h"
#include "lanes/lane_annotations.h"
#include "lanes/lane_brackets.h"
#include "lanes/lanes_plottable.h"
#include "lanes/overview_strip.h"
#include "lanes/time_axis.h"

namespace breakerlab::views {

namespace {

constexpr double kRecordedHeight = 0.55;
constexpr double kReplayedHeight = 1.0;
constexpr double kGhostHeight = 0.3;
constexpr double kRowGap = 0.08;
constexpr double kGroupGap = 0.45;
// The bands above the lanes (two lines of brackets) and below them (four lines of event labels)
// have a height in pixels, whatever the plot's: the rows take what is left.
constexpr int kBracketLines = 2;
constexpr int kEventLines = 4;
// The fleet's rows when expanded, in pixels whatever the plot's height (the other rows keep the
// rest): each pod's replayed row, its recorded row above it when the incident has one, and the
// gap above both. They take at most this share of the rows' height; the wheel scrolls the rest.
constexpr double kPodRowPixels = 14;
constexpr double kPodRecordedPixels = 8;
constexpr double kPodGapPixels = 3;
constexpr double kPodBandShare = 0.6;
// The closest two row titles on the axis come (a row and its ghost), in value units: the other
// rows keep the pixels that put a title's height between them.
constexpr double kClosestTitles = 0.73;
constexpr double kRowsPixelsBeforeLayout = 400;  // until the plot has a height

const char* kLaneOrder[] = {"breaker", "fleet", "dependency", "health", "checkout", "pods"};

// A replayed lane by name; `Result::lane` does not know the pods lane.
const Lane* laneOf(const Result& result, std::string_view name) {
  if (name == "pods") return &result.pods;
  return result.lane(name);
}

// A lane's intervals as bars over a table of its states (each state's name and colour once).
void fillRow(LaneRow& row, const Lane& lane, const std::string& lane_name) {
  row.bars.reserve(lane.intervals.size());
  std::map<std::string_view, std::uint32_t> index;
  for (const auto& i : lane.intervals) {
    auto [it, added] = index.try_emplace(i.state, static_cast<std::uint32_t>(row.states.size()));
    if (added)
      row.states.push_back({QString::fromStdString(i.state), stateColor(lane_name, i.state).rgb()});
    row.bars.push_back({toSeconds(i.from), toSeconds(i.to), it->second});
  }
}

QString laneTitle(const std::string& lane, RowKind kind, const Incident* incident,
                  BreakerLibrary library = BreakerLibrary::breakerlab) {
  QString name;
  // The replayed breaker says whose rules made it.
  if (lane == "breaker")
    name = kind == RowKind::replayed && library != BreakerLibrary::breakerlab
               ? QStringLiteral("Breaker · ") +
                     QString::fromUtf8(libraryInfo(library).title.data(),
                                       static_cast<int>(libraryInfo(library).title.size()))
               : QStringLiteral("Breaker");
  if (lane == "dependency")
    name = incident && !incident->dependency.name.empty()
               ? QString::fromStdString(incident->dependency.name)
               : QStringLiteral("Dependency");
  if (lane == "health") name = "Health check";
  if (lane == "checkout") name = "Checkout";
  if (lane == "pods") name = "Pods in rotation";
  if (lane == "fleet") name = "Breakers by pod";
  if (lane == "pod") name = "Each pod";
  switch (kind) {
    case RowKind::recorded:
      return name + " · recorded";
    case RowKind::baseline:
      return QStringLiteral("deployed");
    case RowKind::replayed:
      return name;
  }
  return name;
}

}  // namespace

LanesView::LanesView(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setFocusPolicy(Qt::StrongFocus);
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->axisRect()->setRangeZoomFactor(0.85, 1.0);
  plot_->yAxis->setRangeReversed(true);
  plot_->yAxis->grid()->setVisible(false);
  plot_->yAxis->setTickLength(0, 0);
  plot_->yAxis->setSubTickLength(0, 0);
  // Room on the right for the resource chart's pods axis, which lines up with this one.
  plot_->axisRect()->setMinimumMargins(QMargins(kLeftAxisRoom, 0, kRightAxisRoom, 0));
  plot_->addLayer("cursors", plot_->layer("main"), QCustomPlot::limAbove);
  plot_->layer("cursors")->setMode(QCPLayer::lmBuffered);
  lanes_ = new LanesPlottable(plot_->xAxis, plot_->yAxis);
  plot_->installEventFilter(this);
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this, &LanesView::onMouseMove);
  connect(plot_, &QCustomPlot::mousePress, this, &LanesView::onMousePress);
  connect(plot_, &QCustomPlot::mouseRelease, this, &LanesView::onMouseRelease);
  // Event labels are placed in pixels: lay them out again when a zoom, pan or resize moves them
  // (after the plot's layout, before it draws).
  overview_ = new OverviewStrip(this);
  // The per-second charts line up with the time axis as it was drawn.
  connect(plot_, &QCustomPlot::afterReplot, this, [this] {
    TimeAxisPlace place = timeAxisPlace();
    if (place == time_axis_place_) return;
    time_axis_place_ = std::move(place);
    emit timeAxisChanged(time_axis_place_);
  });
  connect(plot_, &QCustomPlot::afterLayout, this, [this] {
    fitValueAxis();
    if (pods_expanded_ && hasPods() && podSlotsFor(rows_pixels_) != pod_slots_) {
      // A new height has room for another number of pods: lay the rows out again.
      rebuild();
      plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    if (eventsLayoutKey() != events_layout_) relayoutEvents();
    overview_->setSpan(plot_->axisRect()->left(), plot_->axisRect()->right() + 1);
    placePodScroll();
  });
  // The expanded fleet's scroll bar, in the margin right of the pods' rows.
  pod_scroll_ = new QScrollBar(Qt::Vertical, plot_);
  pod_scroll_->hide();
  connect(pod_scroll_, &QScrollBar::valueChanged, this,
          [this](int value) { scrollPodsTo(static_cast<std::size_t>(std::max(value, 0))); });
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(plot_, &QWidget::customContextMenuRequested, this, &LanesView::showContextMenu);
  connect(overview_, &OverviewStrip::rangeRequested, this, [this](double from, double to) {
    plot_->xAxis->setRange(from, to);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this](const QCPRange& range) {
            if (incident_ == nullptr) return;
            // Keep the view on the incident: never zoom out past it, never pan away.
            const double lo = toSeconds(incident_->start), hi = toSeconds(incident_->end);
            const double margin = (hi - lo) * 0.02;
            QCPRange r = range;
            if (r.size() > hi - lo + 2 * margin) r = QCPRange(lo - margin, hi + margin);
            // Never closer than a millisecond across: below it nothing more is to be seen,
            // and pixel coordinates of the items drawn would overflow.
            constexpr double kNarrowest = 1e-3;
            if (r.size() < kNarrowest)
              r = QCPRange(r.center() - kNarrowest / 2, r.center() + kNarrowest / 2);
            if (r.lower < lo - margin) r += (lo - margin) - r.lower;
            if (r.upper > hi + margin) r -= r.upper - (hi + margin);
            if (r != range) plot_->xAxis->setRange(r);
            overview_->setVisibleRange(plot_->xAxis->range().lower, plot_->xAxis->range().upper);
          });

  legend_ = new QLabel(this);
  legend_->setWordWrap(true);
  legend_->setTextFormat(Qt::RichText);
  legend_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  readout_ = new QLabel(this);
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  readout_->setWordWrap(false);
  readout_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  // Room for its two lines (readoutShown) from the start: a readout appearing must not shrink the
  // lanes under the pointer. Each line is elided to the width, never wrapped into a third that
  // the fixed height would cut (issue #33); the whole text is the tooltip.
  readout_->setFixedHeight(readout_->fontMetrics().lineSpacing() * 2 + 4);
  readout_->installEventFilter(this);
  readout_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  showReadout();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(plot_, 1);
  layout->addWidget(overview_);
  layout->addWidget(legend_);
  layout->addWidget(readout_);
  applyPalette();
}

LanesView::~LanesView() = default;

void LanesView::setIncident(const Incident& incident) {
  incident_ = &incident;
  replayed_ = baseline_ = nullptr;
  reopens_.clear();
  pod_first_ = 0;
  pending_from_.reset();
  cursors_ = {};
  hover_.reset();
  applyTimeTicker();
  rebuild();
  fitAll();
}

void LanesView::updateOverview() {
  // The replayed breaker and checkout lanes (the recorded ones before a replay).
  std::vector<LaneRow> rows;
  for (const char* lane : {"breaker", "checkout"}) {
    auto i = rowIndex(lane, RowKind::replayed);
    if (!i || lanes_->rows()[*i].bars.empty()) i = rowIndex(lane, RowKind::recorded);
    if (i && !lanes_->rows()[*i].bars.empty()) rows.push_back(lanes_->rows()[*i]);
  }
  const double from = incident_ ? toSeconds(incident_->start) : 0;
  const double to = incident_ ? toSeconds(incident_->end) : 1;
  overview_->setRows(std::move(rows), from, to);
  overview_->setVisibleRange(plot_->xAxis->range().lower, plot_->xAxis->range().upper);
}

void LanesView::applyTimeTicker() {
  const std::optional<Micros> clock = incident_ ? axisClock(*incident_) : std::nullopt;
  plot_->xAxis->setTicker(makeTimeTicker(clock));
  plot_->xAxis->setLabel(timeAxisLabel(clock));
}

TimeAxisPlace LanesView::timeAxisPlace() const {
  TimeAxisPlace place;
  const QRect rect = plot_->axisRect()->rect();
  place.global_left = plot_->mapToGlobal(QPoint(rect.left(), 0)).x();
  place.global_right = plot_->mapToGlobal(QPoint(rect.right(), 0)).x();
  const QVector<double> ticks = plot_->xAxis->tickVector();
  const QVector<QString> labels = plot_->xAxis->tickVectorLabels();
  for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i)
    place.ticks.append({ticks[i], labels[i]});
  return place;
}

QString LanesView::legendText() const {
  return legend_->text();
}

void LanesView::updateLegend() {
  QStringList lanes;
  for (const LegendLane& lane : legend()) {
    QStringList states;
    // An item (a lane's title, a state with its colour) is never broken over two lines ("7 of 8
    // / pods", "price- / check-v2", issue #33): lines break between items only. No-wrap keeps
    // the spaces; a word joiner after each hyphen keeps the hyphens.
    const auto whole = [](const QString& text) {
      QString joined = text.toHtmlEscaped();
      joined.replace(QLatin1Char('-'), QStringLiteral("-&#8288;"));
      return QStringLiteral("<span style=\"white-space:nowrap\">%1</span>").arg(joined);
    };
    for (const auto& [name, colour] : lane.states)
      states << whole(QStringLiteral("\u25A0\u00A0") + name)
                    .replace(QStringLiteral("\u25A0"),
                             QStringLiteral("<span style=\"color:%1\">&#9632;</span>")
                                 .arg(colour.name()));
    lanes << QStringLiteral("<b>%1</b>&nbsp; %2")
                 .arg(whole(lane.title), states.join(QStringLiteral("&nbsp; ")));
  }
  if (legend_->toolTip().isEmpty())
    legend_->setToolTip(
        tr("A column split in colours: states shorter than a pixel, by their share of it.\n"
           "A bar under the lanes: a cluster of transitions, with their count; zoom in to open "
           "it."));
  const QString text = lanes.join(QStringLiteral(" &nbsp;&nbsp; "));
  if (legend_->text() != text) legend_->setText(text);
}

QString LanesView::rowTitle(const RowPlace& place) const {
  if (place.lane == "pod") {
    const std::size_t pod = pod_first_ + place.slot;
    const QString title =
        replayed_ ? podTitle(replayed_->pod_breakers, static_cast<std::uint32_t>(pod)) : QString();
    return place.kind == RowKind::recorded ? title + tr(" · recorded") : title;
  }
  if (place.lane == "fleet" && place.kind == RowKind::replayed)  // a disclosure arrow: click it
    return (pods_expanded_ ? QStringLiteral("\u25BE ") : QStringLiteral("\u25B8 ")) +
           laneTitle(place.lane, place.kind, incident_, library_);
  return place.kind == RowKind::baseline ? baseline_name_
                                         : laneTitle(place.lane, place.kind, incident_, library_);
}

void LanesView::setBaselineName(const QString& name) {
  // No rebuild here: the results it would draw may be gone (B replaced); the caller's
  // setResults() follows.
  baseline_name_ = name;
}

QStringList LanesView::rowTitles() const {
  QStringList titles;
  for (const RowPlace& place : rows_) titles << rowTitle(place);
  return titles;
}

void LanesView::setBreakerLibrary(BreakerLibrary library) {
  library_ = library;
}

void LanesView::setResults(const Result& replayed, const Result* baseline) {
  replayed_ = &replayed;
  baseline_ = baseline;
  reopens_ = podReopens(replayed.pod_breakers, replayed.fleet);
  pods_leave_service_ =
      std::any_of(replayed.pod_breakers.begin(), replayed.pod_breakers.end(), [](const Lane& pod) {
        return std::any_of(pod.intervals.begin(), pod.intervals.end(),
                           [](const LaneInterval& i) { return i.state == kPodOutOfService; });
      });
  rebuild();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LanesView::setPendingFrom(std::optional<double> seconds) {
  if (pending_from_ == seconds) return;
  pending_from_ = seconds;
  rebuild();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LanesView::addPendingVeil() {
  if (!pending_from_ || incident_ == nullptr) return;
  // Over the replayed rows only: the recorded ones and the deployed config's ghost are whole.
  // The items go with the event marks, so that a relayout (zoom, pan) replaces them.
  QColor veil = palette().color(QPalette::Window);
  veil.setAlpha(200);
  const double to = toSeconds(incident_->end);
  for (const RowPlace& place : rows_) {
    if (place.kind != RowKind::replayed) continue;
    auto* rect = new QCPItemRect(plot_);
    rect->topLeft->setCoords(*pending_from_, place.top);
    rect->bottomRight->setCoords(to, place.bottom);
    rect->setPen(Qt::NoPen);
    rect->setBrush(veil);
    rect->setSelectable(false);
    event_items_.push_back(rect);
  }
  auto* text = new QCPItemText(plot_);
  text->position->setCoords(*pending_from_, lanes_bottom_ / 2);
  text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  text->setPadding(QMargins(8, 0, 0, 0));
  text->setText(tr("replaying…"));
  text->setColor(palette().color(QPalette::WindowText));
  text->setSelectable(false);
  event_items_.push_back(text);
}

void LanesView::replotNow() {
  plot_->replot(QCustomPlot::rpImmediateRefresh);
}

void LanesView::fitAll() {
  if (incident_ == nullptr) return;
  const double lo = toSeconds(incident_->start), hi = toSeconds(incident_->end);
  plot_->xAxis->setRange(lo, hi);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LanesView::showRange(double from, double to) {
  plot_->xAxis->setRange(from, to);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool LanesView::hasPods() const {
  if (replayed_ == nullptr || replayed_->fleet.intervals.empty() || replayed_->pod_breakers.empty())
    return false;
  // A breaker off from start to end has no pods' breakers to show: their row read "closed" under
  // a Breaker lane that reads "disabled" (issue #33 walkthrough).
  const auto& breaker = replayed_->breaker.intervals;
  return !std::all_of(breaker.begin(), breaker.end(),
                      [](const LaneInterval& i) { return i.state == kBreakerDisabled; });
}

bool LanesView::podRecorded() const {
  return incident_ != nullptr && !incident_->recorded.pod_breakers.empty();
}

double LanesView::podSlotPixels() const {
  return kPodGapPixels + kPodRowPixels + (podRecorded() ? kPodRecordedPixels + 1 : 0);
}

std::size_t LanesView::podSlotsFor(double rows_pixels) const {
  if (!hasPods()) return 0;
  // At most a share of the rows' height, and never so much that the other rows' titles would
  // run into each other (a short window shows a pod or two, and scrolls).
  const double title = QFontMetrics(plot_->yAxis->tickLabelFont()).height() + 2;
  const double others = others_units_ * title / kClosestTitles;
  const double band = std::min(rows_pixels * kPodBandShare, rows_pixels - others);
  const auto fit = static_cast<std::size_t>(std::max(band, 0.0) / podSlotPixels());
  return std::clamp<std::size_t>(fit, 1, replayed_->pod_breakers.size());
}

std::size_t LanesView::podRowsShown() const {
  return pod_slots_;
}

void LanesView::layoutRows() {
  others_units_ = layoutRowsWithBand(0);
  pod_slots_ = pods_expanded_ && hasPods()
                   ? podSlotsFor(rows_pixels_ > 0 ? rows_pixels_ : kRowsPixelsBeforeLayout)
                   : 0;
  if (pod_slots_ > 0)
    pod_first_ = std::min(pod_first_, replayed_->pod_breakers.size() - pod_slots_);
  const double others = others_units_;
  if (pod_slots_ == 0) return;
  // The pods' rows have their pixels; the other rows share what is left, as they would the whole
  // height without them (fitValueAxis then gives the rows exactly these pixels).
  const double rows = rows_pixels_ > 0 ? rows_pixels_ : kRowsPixelsBeforeLayout;
  const double band = static_cast<double>(pod_slots_) * podSlotPixels();
  const double per_unit = std::max(rows - band, 40.0) / std::max(others, 0.1);
  layoutRowsWithBand(band / per_unit);
}

double LanesView::layoutRowsWithBand(double band_units) {
  rows_.clear();
  double y = 0;
  for (const char* lane_name : kLaneOrder) {
    const std::string lane = lane_name;
    const bool has_recorded = incident_ && incident_->recorded.lane(lane) != nullptr;
    bool ghost = baseline_ != nullptr && lane != "health" && lane != "dependency";
    if (lane == "fleet") {
      // Only runs with a breaker in every pod have it (and never a recorded or a ghost row).
      if (!hasPods()) continue;
      ghost = false;
    }
    if (lane == "pods") {
      // Only runs with load-balancer health checks have a pods lane; the deployed config's shows
      // as a ghost like the breaker's, and the row stays while either run has one.
      ghost = baseline_ != nullptr && !baseline_->pods.intervals.empty();
      const bool replayed = replayed_ != nullptr && !replayed_->pods.intervals.empty();
      if (!has_recorded && !replayed && !ghost) continue;
    }
    if (has_recorded) {
      rows_.push_back({lane, RowKind::recorded, y, y + kRecordedHeight});
      y += kRecordedHeight + kRowGap;
    }
    const double height =
        lane == "health" || lane == "pods" || lane == "fleet" ? kRecordedHeight : kReplayedHeight;
    rows_.push_back({lane, RowKind::replayed, y, y + height});
    y += height;
    if (ghost) {
      rows_.push_back({lane, RowKind::baseline, y + kRowGap, y + kRowGap + kGhostHeight});
      y += kRowGap + kGhostHeight;
    }
    if (lane == "fleet" && pod_slots_ > 0 && band_units > 0) {
      // The pods on screen, one slot each: the gap, the recorded row, the replayed row.
      const double unit = band_units / (static_cast<double>(pod_slots_) * podSlotPixels());
      const bool recorded = podRecorded();
      for (std::size_t slot = 0; slot < pod_slots_; ++slot) {
        y += kPodGapPixels * unit;
        if (recorded) {
          rows_.push_back({"pod", RowKind::recorded, y, y + kPodRecordedPixels * unit, slot});
          y += (kPodRecordedPixels + 1) * unit;
        }
        rows_.push_back({"pod", RowKind::replayed, y, y + kPodRowPixels * unit, slot});
        y += kPodRowPixels * unit;
      }
    }
    // The fleet's row sits under the breaker's, as the dependency's health under it.
    const bool fleet_below =
        lane == "breaker" && replayed_ != nullptr && !replayed_->fleet.intervals.empty();
    y += lane == "dependency" || fleet_below ? kRowGap : kGroupGap;
  }
  lanes_bottom_ = y - kGroupGap;
  return lanes_bottom_;
}

LaneRow LanesView::podRow(const RowPlace& place) const {
  LaneRow row;
  row.top = place.top;
  row.bottom = place.bottom;
  const std::size_t pod = pod_first_ + place.slot;
  const Lane* lane = nullptr;
  if (place.kind == RowKind::replayed && replayed_ && pod < replayed_->pod_breakers.size())
    lane = &replayed_->pod_breakers[pod];
  if (place.kind == RowKind::recorded && incident_ && pod < incident_->recorded.pod_breakers.size())
    lane = &incident_->recorded.pod_breakers[pod];
  if (lane) fillRow(row, *lane, "pod");
  return row;
}

void LanesView::updateTicker() {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (const auto& place : rows_)
    if (place.lane != "pod" || place.kind == RowKind::replayed)  // a pod's title once
      ticker->addTick((place.top + place.bottom) / 2, rowTitle(place));
  plot_->yAxis->setTicker(ticker);
}

void LanesView::refillPodRows() {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].lane == "pod") lanes_->setRow(i, podRow(rows_[i]));
  updateTicker();
}

void LanesView::scrollPodsTo(std::size_t first) {
  if (!hasPods()) return;
  const std::size_t n = replayed_->pod_breakers.size();
  first = std::min(first, n - std::min(n, std::max<std::size_t>(pod_slots_, 1)));
  if (first == pod_first_) return;
  pod_first_ = first;
  if (pod_slots_ == 0) return;
  refillPodRows();
  {
    const QSignalBlocker quiet(pod_scroll_);
    pod_scroll_->setValue(static_cast<int>(first));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LanesView::setPodsExpanded(bool expanded) {
  if (expanded == pods_expanded_) return;
  pods_expanded_ = expanded;
  rebuild();
  placePodScroll();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  emit podsExpandedChanged(expanded);
}

void LanesView::togglePods() {
  if (hasPods() || pods_expanded_) setPodsExpanded(!pods_expanded_);
}

QRect LanesView::bandRect() const {
  QRect band;
  for (const RowPlace& place : rows_) {
    if (place.lane != "pod") continue;
    const int top = static_cast<int>(plot_->yAxis->coordToPixel(place.top));
    const int bottom = static_cast<int>(plot_->yAxis->coordToPixel(place.bottom));
    band |= QRect(QPoint(0, top - static_cast<int>(kPodGapPixels)), QPoint(plot_->width(), bottom));
  }
  return band;
}

QRect LanesView::titleRect(const std::string& lane) const {
  const auto i = rowIndex(lane, RowKind::replayed);
  if (!i) return {};
  const int top = static_cast<int>(plot_->yAxis->coordToPixel(rows_[*i].top));
  const int bottom = static_cast<int>(plot_->yAxis->coordToPixel(rows_[*i].bottom));
  return QRect(QPoint(0, top - 2), QPoint(plot_->axisRect()->left() - 1, bottom + 2));
}

void LanesView::placePodScroll() {
  const std::size_t n = hasPods() ? replayed_->pod_breakers.size() : 0;
  if (pod_slots_ == 0 || n <= pod_slots_) {
    pod_scroll_->hide();
    return;
  }
  const QRect band = bandRect();
  const int width = std::min(pod_scroll_->sizeHint().width(), 14);
  const QRect place(plot_->axisRect()->right() + 4, band.top(), width, band.height());
  {
    const QSignalBlocker quiet(pod_scroll_);
    pod_scroll_->setRange(0, static_cast<int>(n - pod_slots_));
    pod_scroll_->setPageStep(static_cast<int>(pod_slots_));
    pod_scroll_->setSingleStep(1);
    pod_scroll_->setValue(static_cast<int>(pod_first_));
  }
  if (pod_scroll_->geometry() != place) pod_scroll_->setGeometry(place);
  pod_scroll_->show();
}

void LanesView::showContextMenu(const QPoint& at) {
  QMenu menu(this);
  QAction* pods = menu.addAction(tr("Expand Breakers by Pod") + QStringLiteral("\tP"));
  pods->setCheckable(true);
  pods->setChecked(pods_expanded_);
  pods->setEnabled(hasPods());
  connect(pods, &QAction::triggered, this, [this](bool on) { setPodsExpanded(on); });
  menu.exec(plot_->mapToGlobal(at));
}

void LanesView::rebuild() {
  plot_->clearItems();
  // A run without brackets (no breaker, or one that never opened) leaves no band above the
  // lanes: at 1024 x 700 the rows need its pixels for their names (issue #33).
  bracket_lines_wanted_ = kBracketLines;
  if (replayed_) {
    bracket_lines_wanted_ = 0;
    for (const LaneBracket& b : brackets(*replayed_))
      bracket_lines_wanted_ = std::max(bracket_lines_wanted_, b.line + 1);
  }
  layoutRows();
  std::vector<LaneRow> rows;
  for (const auto& place : rows_) {
    if (place.lane == "pod") {
      rows.push_back(podRow(place));
      continue;
    }
    LaneRow row;
    row.top = place.top;
    row.bottom = place.bottom;
    row.ghost = place.kind == RowKind::baseline;
    const Lane* lane = nullptr;
    if (place.kind == RowKind::recorded && incident_) lane = incident_->recorded.lane(place.lane);
    if (place.kind == RowKind::replayed && replayed_) lane = laneOf(*replayed_, place.lane);
    if (place.kind == RowKind::baseline && baseline_) lane = laneOf(*baseline_, place.lane);
    if (lane) fillRow(row, *lane, place.lane);
    if (place.kind == RowKind::replayed && place.lane == "pods" && replayed_) {
      // Every ejection and return is a tick across the row: "7 of 8" and "6 of 8" share a colour.
      QColor ink = palette().color(QPalette::WindowText);
      ink.setAlpha(150);
      row.mark_color = ink.rgba();
      row.marks = podEventMarks(replayed_->events);
    }
    rows.push_back(std::move(row));
  }
  lanes_->setRows(std::move(rows));
  updateLegend();
  updateOverview();
  updateTicker();
  fitValueAxis();
  event_items_.clear();  // clearItems() deleted them
  drag_line_ = nullptr;  // and the dragged change's line (a replay can land mid-drag)
  if (replayed_) {
    addBrackets();
    addEvents();
  }
  addPendingVeil();
  events_layout_ = eventsLayoutKey();
  updateCursors();
}

void LanesView::addBrackets() {
  const Result& r = *replayed_;
  const QColor ink = palette().color(QPalette::WindowText);
  const QFontMetrics metrics(font());
  // A breaker that flaps opens dozens of times: a bracket narrower than a few pixels on screen
  // is left out, a label goes on the part of its bracket that is on screen (a bracket off
  // screen draws nothing), and only where it does not run into another on its line: zooming in
  // lays them out again and shows more.
  std::map<double, std::vector<std::pair<double, double>>> taken;  // per bracket line (y)
  const QRect area = plot_->axisRect()->rect();
  auto bracket = [&](double from, double to, double y, QString label, const QString& short_label) {
    if (to - from <= 0) return;
    const double x1 = plot_->xAxis->coordToPixel(from);
    const double x2 = plot_->xAxis->coordToPixel(to);
    if (std::min(x2, static_cast<double>(area.right())) -
            std::max(x1, static_cast<double>(area.left())) <
        3)
      return;
    auto* b = new QCPItemBracket(plot_);
    b->left->setCoords(to, y);
    b->right->setCoords(from, y);
    b->setLength(6);
    b->setPen(QPen(ink, 1));
    b->setClipToAxisRect(true);
    event_items_.push_back(b);
    LabelPlace place = placeBracketLabel(x1, x2, metrics.horizontalAdvance(label) + 6, area.left(),
                                         area.right(), 3, taken[y]);
    if (place.line < 0 && !short_label.isEmpty()) {
      place = placeBracketLabel(x1, x2, metrics.horizontalAdvance(short_label) + 6, area.left(),
                                area.right(), 3, taken[y]);
      label = short_label;
    }
    if (place.line < 0) return;
    auto* text = new QCPItemText(plot_);
    text->position->setCoords(plot_->xAxis->pixelToCoord((place.left + place.right) / 2), y);
    text->setPadding(QMargins(0, 0, 0, 6));  // above the bracket's ticks
    text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    text->setText(label);
    text->setColor(ink);
    text->setClipToAxisRect(true);
    event_items_.push_back(text);
  };
  for (const LaneBracket& b : brackets(r))
    bracket(b.from, b.to, bracketLineY(b.line), b.label, b.short_label);
}

std::vector<LaneBracket> LanesView::brackets(const Result& replay) const {
  const QString dependency = incident_ && !incident_->dependency.name.empty()
                                 ? QString::fromStdString(incident_->dependency.name)
                                 : QString();
  return laneBrackets(replay, dependency);
}

void LanesView::addEvents() {
  const QColor ink = palette().color(QPalette::WindowText);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  const QFontMetrics metrics(small);
  const QRect area = plot_->axisRect()->rect();
  QColor faint = ink;
  faint.setAlpha(110);
  // An operator's change is drawn solid in the highlight colour: it can be dragged.
  const QPen change_pen(palette().color(QPalette::Highlight), 2);
  auto rowTop = [&](EventMarker::From from) {
    const char* lane = from == EventMarker::From::pods_row    ? "pods"
                       : from == EventMarker::From::fleet_row ? "fleet"
                                                              : nullptr;
    const auto i = lane ? rowIndex(lane, RowKind::replayed) : std::nullopt;
    return i ? rows_[*i].top : 0.0;
  };
  auto marker = [&](const EventMarker& m) {
    auto* line = new QCPItemLine(plot_);
    line->start->setCoords(m.t, rowTop(m.from));
    line->end->setCoords(m.t, lanes_bottom_ + 0.1);
    line->setPen(m.change ? change_pen : QPen(faint, 1, Qt::DashLine));
    line->setClipToAxisRect(true);
    event_items_.push_back(line);
  };
  const QCPRange range = plot_->xAxis->range();
  const TimeToPixels axis{range.lower, range.upper, plot_->xAxis->coordToPixel(range.lower),
                          plot_->xAxis->coordToPixel(range.upper)};
  EventJoins joins;
  joins.pods = metrics.horizontalAdvance(QStringLiteral("pod 88 ejected")) + 8;
  const EventAnnotations annotations = eventAnnotations(*replayed_, reopens_, axis, joins);
  for (const EventMarker& m : annotations.markers) marker(m);
  // A cluster: a bar under the lanes from its first event to its last (its count is a label).
  const double below = plot_->yAxis->coordToPixel(lanes_bottom_);
  for (const auto& [from, to] : annotations.cluster_bars) {
    auto* bar = new QCPItemRect(plot_);
    bar->topLeft->setCoords(from, plot_->yAxis->pixelToCoord(below + 1));
    bar->bottomRight->setCoords(to, plot_->yAxis->pixelToCoord(below + 4));
    bar->setPen(QPen(faint, 1));
    bar->setBrush(faint);
    bar->setClipToAxisRect(true);
    event_items_.push_back(bar);
  }
  const std::vector<EventLabel>& labels = annotations.labels;
  std::vector<LabelRequest> requests;
  requests.reserve(labels.size());
  for (const EventLabel& l : labels)
    requests.push_back({plot_->xAxis->coordToPixel(l.t),
                        static_cast<double>(metrics.horizontalAdvance(l.text)) + 8});
  const auto places = placeEventLabels(requests, area.left(), area.right(), event_lines_);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (places[i].line < 0) continue;  // no line has room: the marker alone (zoom in for more)
    if (labels[i].marker_with_label) marker(labels[i].marker);
    auto* item = new QCPItemText(plot_);
    item->position->setCoords(labels[i].t, eventLineY(places[i].line));
    item->setPositionAlignment((places[i].hang_left ? Qt::AlignRight : Qt::AlignLeft) |
                               Qt::AlignTop);
    item->setText(labels[i].text);
    item->setColor(ink);
    item->setClipToAxisRect(true);
    item->setFont(small);
    event_items_.push_back(item);
  }
}

void LanesView::relayoutEvents() {
  for (QCPAbstractItem* item : event_items_) plot_->removeItem(item);
  event_items_.clear();
  if (replayed_) {
    addBrackets();
    addEvents();
  }
  addPendingVeil();
  events_layout_ = eventsLayoutKey();
}

LanesView::EventsLayoutKey LanesView::eventsLayoutKey() const {
  const QCPRange range = plot_->xAxis->range();
  const QCPRange rows = plot_->yAxis->range();
  return {range.lower, range.upper, rows.lower, rows.upper, plot_->axisRect()->rect()};
}

int LanesView::bracketLinePixels() const {
  return QFontMetrics(font()).height() + 8;
}

int LanesView::eventLinePixels() const {
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  return QFontMetrics(small).lineSpacing() + 1;  // lines never touch
}

bool LanesView::fitValueAxis() {
  // Rows in value units, bands in pixels: the range that gives the bands their pixels. A short
  // plot gets fewer label lines, so that the rows keep at least 60% of it (at 1024 x 700 a
  // recorded row is then tall enough for its names). The brackets (the time to trip, each open
  // spell, the time cached while healthy) come first, as long as one line of event labels is
  // left: there the events' third and fourth lines give way (their markers stay, and zooming in
  // shows their labels).
  const double height = plot_->axisRect()->height();
  const double bands = height * 0.4;
  bracket_lines_ = std::clamp(
      static_cast<int>(bands - 8 - eventLinePixels() - 4) / bracketLinePixels(),
      std::min(1, bracket_lines_wanted_), std::min(kBracketLines, bracket_lines_wanted_));
  const double band_above = bracket_lines_ * bracketLinePixels() + 4;
  event_lines_ =
      std::clamp(static_cast<int>(bands - band_above - 8) / eventLinePixels(), 1, kEventLines);
  const double band_below = event_lines_ * eventLinePixels() + 8;
  const double rows = std::max(20.0, height - band_above - band_below);
  rows_pixels_ = rows;
  const double per_unit = rows / std::max(lanes_bottom_, 0.1);
  const QCPRange want(-band_above / per_unit, lanes_bottom_ + band_below / per_unit);
  const QCPRange now = plot_->yAxis->range();
  if (std::abs(now.lower - want.lower) < 1e-9 && std::abs(now.upper - want.upper) < 1e-9)
    return false;
  plot_->yAxis->setRange(want);
  return true;
}

double LanesView::bracketLineY(int line) const {
  // Line 0 just above the lanes, line 1 above it (when there is room for two).
  line = std::min(line, std::max(bracket_lines_ - 1, 0));
  const double top = plot_->yAxis->coordToPixel(0);
  return plot_->yAxis->pixelToCoord(top - 4 - line * bracketLinePixels());
}

double LanesView::eventLineY(int line) const {
  const double bottom = plot_->yAxis->coordToPixel(lanes_bottom_);
  return plot_->yAxis->pixelToCoord(bottom + 6 + line * eventLinePixels());
}

void LanesView::updateCursors() {
  static const char* kNames[] = {"A", "B"};
  // In the text's colour, A solid and B dashed: a colour of their own read as a state (A's purple
  // as half-open, issue #33 walkthrough), and every hue here is a state's.
  const QColor ink = palette().color(QPalette::WindowText);
  const QColor kColors[] = {ink, ink};
  static const Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine};
  for (int i = 0; i < 2; ++i) {
    if (!cursors_[i]) continue;
    auto* line = new QCPItemStraightLine(plot_);
    line->setLayer("cursors");
    line->point1->setCoords(*cursors_[i], 0);
    line->point2->setCoords(*cursors_[i], 1);
    line->setPen(QPen(kColors[i], 1.5, kStyles[i]));
    auto* label = new QCPItemText(plot_);
    label->setLayer("cursors");
    label->position->setCoords(*cursors_[i], plot_->yAxis->range().lower);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    label->setText(kNames[i]);
    label->setColor(kColors[i]);
  }
  showReadout();
}

QString LanesView::readoutAt(double s) const {
  if (replayed_ == nullptr) return {};
  QStringList parts;
  const Micros t = fromSeconds(s);
  for (const char* lane_name : kLaneOrder) {
    const Lane* lane = laneOf(*replayed_, lane_name);
    if (lane == nullptr) continue;
    const auto state = lane->stateAt(t);
    if (state.empty()) continue;
    const QString text = QString::fromUtf8(state.data(), static_cast<int>(state.size()));
    if (std::string_view(lane_name) == "pods")
      parts << tr("%1 in rotation").arg(text);  // "6 of 8 pods in rotation"
    else
      parts << laneTitle(lane_name, RowKind::replayed, incident_, library_) + " " + text;
  }
  return parts.join(QStringLiteral(" · "));
}

QString LanesView::readoutTime(double seconds, int decimals) const {
  return readoutTimeText(incident_ ? axisClock(*incident_) : std::nullopt, seconds, decimals);
}

QString LanesView::hoverLine() const {
  return tr("%1: %2").arg(readoutTime(*hover_, 2), readoutAt(*hover_));
}

QString LanesView::cursorLine(int which) const {
  const auto& at = cursors_[static_cast<std::size_t>(which)];
  const auto& other = cursors_[static_cast<std::size_t>(1 - which)];
  QString time = readoutTime(*at, 3);
  // Δt on B's line.
  if (which == 1 && other)
    time = tr("%1 (Δt = %2 s)").arg(time, QString::number(std::abs(*at - *other), 'f', 3));
  return tr("%1 at %2: %3").arg(which == 0 ? "A" : "B", time, readoutAt(*at));
}

QString LanesView::readoutText() const {
  QStringList lines;
  if (hover_) lines << hoverLine();
  for (int i = 0; i < 2; ++i)
    if (cursors_[static_cast<std::size_t>(i)]) lines << cursorLine(i);
  if (lines.isEmpty()) return tr("Press 1 or 2 over the lanes to place cursors A and B.");
  return lines.join('\n');
}

QStringList LanesView::readoutShown() const {
  // Two lines, the readout's height: a third would come out of the lanes at 1024x700. With the
  // pointer over the lanes and both cursors placed, the cursors share the second line, their
  // times and Δt; their states are in the tooltip (readoutText) and under the pointer.
  QStringList lines;
  if (hover_) lines << hoverLine();
  if (cursors_[0] && cursors_[1] && hover_) {
    lines << tr("A at %1 · B at %2 · Δt = %3 s")
                 .arg(readoutTime(*cursors_[0], 3), readoutTime(*cursors_[1], 3),
                      QString::number(std::abs(*cursors_[1] - *cursors_[0]), 'f', 3));
  } else {
    for (int i = 0; i < 2; ++i)
      if (cursors_[static_cast<std::size_t>(i)]) lines << cursorLine(i);
  }
  if (lines.isEmpty()) lines << tr("Press 1 or 2 over the lanes to place cursors A and B.");
  return lines;
}

void LanesView::showReadout() {
  const QFontMetrics metrics = readout_->fontMetrics();
  const int width = std::max(readout_->contentsRect().width(), metrics.averageCharWidth() * 8);
  QStringList lines = readoutShown();
  for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideRight, width);
  readout_->setText(lines.join('\n'));
  readout_->setToolTip(readoutText());
}

double LanesView::snapToChange(double s, double pixel_radius) const {
  if (replayed_ == nullptr) return s;
  double best = s, best_distance = pixel_radius;
  const double x = plot_->xAxis->coordToPixel(s);
  for (const char* lane_name : kLaneOrder) {
    const Lane* lane = laneOf(*replayed_, lane_name);
    if (lane == nullptr) continue;
    for (std::size_t i = 1; i < lane->intervals.size(); ++i) {
      const double edge = toSeconds(lane->intervals[i].from);
      const double d = std::abs(plot_->xAxis->coordToPixel(edge) - x);
      if (d <= best_distance) {
        best_distance = d;
        best = edge;
      }
    }
  }
  return best;
}

void LanesView::setPointerTimeElsewhere(std::function<std::optional<double>()> elsewhere) {
  pointer_time_elsewhere_ = std::move(elsewhere);
}

void LanesView::setCursorAt(int which, double s) {
  cursors_[static_cast<std::size_t>(which)] = s;
  rebuild();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  emit cursorsChanged();
}

void LanesView::keyPressEvent(QKeyEvent* event) {
  // A chord (Ctrl+P: Export Report) is the window's, even when no shortcut took it.
  if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) {
    QWidget::keyPressEvent(event);
    return;
  }
  const std::optional<LaneKeyAction> action = laneKeyAction(event->key());
  if (action == LaneKeyAction::cursor_a || action == LaneKeyAction::cursor_b) {
    const QPoint local = plot_->mapFromGlobal(QCursor::pos());
    std::optional<double> pointer = hover_;
    if (!pointer && plot_->axisRect()->rect().contains(local))
      pointer = plot_->xAxis->pixelToCoord(local.x());
    if (!pointer && pointer_time_elsewhere_) pointer = pointer_time_elsewhere_();
    const QCPRange shown = plot_->xAxis->range();
    const double window_from = incident_ ? toSeconds(incident_->start) : shown.lower;
    const double window_to = incident_ ? toSeconds(incident_->end) : shown.upper;
    const double t = cursorTimeForKey(pointer, shown.lower, shown.upper, window_from, window_to);
    setCursorAt(action == LaneKeyAction::cursor_a ? 0 : 1,
                std::clamp(snapToChange(t, 8), window_from, window_to));
    return;
  }
  if (action == LaneKeyAction::toggle_pods) {
    togglePods();
    return;
  }
  if (action == LaneKeyAction::clear_cursors) {
    cursors_ = {};
    rebuild();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit cursorsChanged();
    return;
  }
  QWidget::keyPressEvent(event);
}

namespace {
bool editingText() {
  // A table cell being edited has its editor (a line edit or spin box) focused.
  const QWidget* focus = QApplication::focusWidget();
  return qobject_cast<const QLineEdit*>(focus) != nullptr ||
         qobject_cast<const QAbstractSpinBox*>(focus) != nullptr ||
         qobject_cast<const QTextEdit*>(focus) != nullptr ||
         qobject_cast<const QPlainTextEdit*>(focus) != nullptr;
}
}  // namespace

bool LanesView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == readout_ && event->type() == QEvent::Resize) showReadout();
  if (watched == plot_ && event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    constexpr auto kChords = Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier;
    if (laneKeyAction(key->key()) && !(key->modifiers() & kChords)) {
      keyPressEvent(key);
      return true;
    }
  }
  if (watched == plot_ && event->type() == QEvent::Enter && !editingText()) {
    // Keys 1, 2 and Esc act where the mouse is ("press 1 over the lanes"), without a click
    // first; focus stays in a box the user is typing into.
    plot_->setFocus(Qt::MouseFocusReason);
  }
  if (watched == plot_ && event->type() == QEvent::Wheel && pod_slots_ > 0) {
    // The wheel over the pods' rows scrolls them (with Ctrl it zooms time, as elsewhere).
    auto* wheel = static_cast<QWheelEvent*>(event);
    if (!(wheel->modifiers() & Qt::ControlModifier) &&
        bandRect().contains(wheel->position().toPoint())) {
      wheel_rest_ += wheel->angleDelta().y();
      const int notches = wheel_rest_ / 120;
      wheel_rest_ -= notches * 120;
      const auto first = static_cast<std::ptrdiff_t>(pod_first_) - notches * 3;
      scrollPodsTo(static_cast<std::size_t>(std::max<std::ptrdiff_t>(first, 0)));
      return true;
    }
  }
  if (watched == plot_ && event->type() == QEvent::Leave) {
    hover_.reset();
    showReadout();
  }
  return QWidget::eventFilter(watched, event);
}

std::optional<Micros> LanesView::changeNear(double x, double pixels) const {
  if (replayed_ == nullptr) return std::nullopt;
  std::optional<Micros> best;
  double best_distance = pixels;
  for (const Event& e : replayed_->events) {
    if (e.kind != EventKind::change) continue;
    const double d = std::abs(plot_->xAxis->coordToPixel(toSeconds(e.at)) - x);
    if (d <= best_distance) {
      best_distance = d;
      best = e.at;
    }
  }
  return best;
}

// A change's marker can be dragged along the time axis ("what if it had come 20 minutes
// earlier"); anywhere else a drag pans, as before.
void LanesView::onMousePress(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && hasPods() && titleRect("fleet").contains(event->pos())) {
    togglePods();  // the fleet's title, with its disclosure arrow
    return;
  }
  if (event->button() != Qt::LeftButton || !plot_->axisRect()->rect().contains(event->pos()))
    return;
  drag_from_ = changeNear(event->pos().x(), 5);
  if (!drag_from_) return;
  plot_->setInteraction(QCP::iRangeDrag, false);
  drag_line_ = new QCPItemLine(plot_);
  drag_line_->setLayer(QStringLiteral("cursors"));
  QColor ink = palette().color(QPalette::Highlight);
  drag_line_->setPen(QPen(ink, 2));
  const double t = toSeconds(*drag_from_);
  drag_line_->start->setCoords(t, 0);
  drag_line_->end->setCoords(t, lanes_bottom_);
  plot_->layer(QStringLiteral("cursors"))->replot();
}

void LanesView::onMouseRelease(QMouseEvent* event) {
  if (!drag_from_) return;
  const Micros from = *drag_from_;
  drag_from_.reset();
  if (drag_line_ != nullptr) plot_->removeItem(drag_line_);
  drag_line_ = nullptr;
  plot_->setInteraction(QCP::iRangeDrag, true);
  plot_->layer(QStringLiteral("cursors"))->replot();
  if (incident_ == nullptr) return;
  // To a tenth of a second, within the window.
  const double seconds = std::round(plot_->xAxis->pixelToCoord(event->pos().x()) * 10) / 10;
  const Micros to = std::clamp(fromSeconds(seconds), incident_->start, incident_->end);
  if (to != from) emit changeDragged(from, to);
}

void LanesView::onMouseMove(QMouseEvent* event) {
  if (drag_from_ && drag_line_ != nullptr) {
    const double t = plot_->xAxis->pixelToCoord(event->pos().x());
    drag_line_->start->setCoords(t, 0);
    drag_line_->end->setCoords(t, lanes_bottom_);
    plot_->layer(QStringLiteral("cursors"))->replot();
  } else if (hasPods() && titleRect("fleet").contains(event->pos())) {
    plot_->setCursor(Qt::PointingHandCursor);
  } else {
    plot_->setCursor(changeNear(event->pos().x(), 5) ? Qt::SizeHorCursor : Qt::ArrowCursor);
  }
  if (!plot_->axisRect()->rect().contains(event->pos())) return;
  hover_ = plot_->xAxis->pixelToCoord(event->pos().x());
  showReadout();
}

void LanesView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) {
    applyPalette();
    rebuild();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
  QWidget::changeEvent(event);
}

void LanesView::applyPalette() {
  applyPlotPalette(*plot_, {plot_->xAxis, plot_->yAxis}, palette(), kLanesGridAlpha);
}

QRect LanesView::rowRect(const std::string& lane, RowKind kind) const {
  for (const auto& place : rows_) {
    if (place.lane != lane || place.kind != kind) continue;
    const int left = plot_->axisRect()->left();
    const int right = plot_->axisRect()->right();
    const int top = static_cast<int>(plot_->yAxis->coordToPixel(place.top));
    const int bottom = static_cast<int>(plot_->yAxis->coordToPixel(place.bottom));
    return QRect(QPoint(left, top), QPoint(right, bottom)).translated(plot_->pos());
  }
  return {};
}

QRect LanesView::podRowRect(std::size_t pod, RowKind kind) const {
  if (pod < pod_first_ || pod >= pod_first_ + pod_slots_) return {};
  for (const auto& place : rows_) {
    if (place.lane != "pod" || place.kind != kind || place.slot != pod - pod_first_) continue;
    const int top = static_cast<int>(plot_->yAxis->coordToPixel(place.top));
    const int bottom = static_cast<int>(plot_->yAxis->coordToPixel(place.bottom));
    return QRect(QPoint(plot_->axisRect()->left(), top), QPoint(plot_->axisRect()->right(), bottom))
        .translated(plot_->pos());
  }
  return {};
}

std::optional<std::size_t> LanesView::rowIndex(const std::string& lane, RowKind kind) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].lane == lane && rows_[i].kind == kind) return i;
  return std::nullopt;
}

std::vector<std::pair<double, double>> LanesView::rowSpans(const std::string& lane,
                                                           RowKind kind) const {
  std::vector<std::pair<double, double>> spans;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].lane != lane || rows_[i].kind != kind) continue;
    for (const LaneBar& bar : lanes_->rows()[i].bars) spans.emplace_back(bar.from, bar.to);
  }
  return spans;
}

std::vector<LanesView::LegendLane> LanesView::legend() const {
  // Per lane, each state once, in the order the lane first shows it.
  std::vector<LegendLane> lanes;
  std::string last_lane;
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const std::string& lane = rows_[i].lane;
    if (lane == last_lane) continue;
    last_lane = lane;
    LegendLane entry{laneTitle(lane, RowKind::replayed, incident_, library_), {}};
    if (lane == "pod") {
      // The pods' rows scroll: their entry names every state a pod's breaker can show, whichever
      // pods are on screen.
      for (std::string_view state : {"closed", "open", "half-open"})
        entry.states.emplace_back(QString::fromUtf8(state.data(), state.size()),
                                  stateColor("pod", state));
      if (pods_leave_service_)
        entry.states.emplace_back(
            QString::fromUtf8(kPodOutOfService.data(), kPodOutOfService.size()),
            stateColor("pod", kPodOutOfService));
      lanes.push_back(std::move(entry));
      continue;
    }
    QSet<QString> seen;
    for (std::size_t j = i; j < rows_.size() && rows_[j].lane == lane; ++j)
      for (const LaneState& state : lanes_->rows()[j].states) {
        const std::string name = state.name.toStdString();
        const QString shown = QString::fromUtf8(
            legendName(lane, name).data(), static_cast<qsizetype>(legendName(lane, name).size()));
        if (!seen.contains(shown)) {
          seen.insert(shown);
          entry.states.emplace_back(shown, QColor::fromRgb(state.color));
        }
      }
    if (!entry.states.empty()) lanes.push_back(std::move(entry));
  }
  return lanes;
}

namespace {

bool isDark(const QPalette& p) {
  return p.color(QPalette::Window).lightness() < 128;
}

}  // namespace

std::optional<QByteArray> LanesView::renderImage(const QString& format, QString* error) const {
  return renderImage(format, error, ExportHeader{});
}

std::optional<QByteArray> LanesView::renderImage(const QString& format, QString* error,
                                                 const ExportHeader& header) const {
  const QString suffix = format.toLower();
  if (suffix != "png" && suffix != "pdf" && suffix != "svg") {
    if (error) *error = tr("Unknown image type '%1': use .png, .svg or .pdf").arg(format);
    return std::nullopt;
  }
  // Exports are light whatever the desktop's theme (they go into documents); the view takes
  // its own palette back afterwards.
  auto* self = const_cast<LanesView*>(this);
  const bool relight = header.light && isDark(palette());
  const bool had_own_palette = testAttribute(Qt::WA_SetPalette);
  const QPalette before = palette();
  if (relight) self->setPalette(documentPalette(before));
  plot_->replot(QCustomPlot::rpImmediateRefresh);
  const QPalette colours = palette();

  // Title and config lines above the plot, the legend below it, in the plot's width.
  const int width = std::max(plot_->width(), 400);
  const int plot_height = plot_->height();
  QFont title_font = font();
  title_font.setBold(true);
  title_font.setPointSizeF(title_font.pointSizeF() * 1.3);
  const QFontMetrics title_metrics(title_font), metrics(font());
  const int pad = 10;
  // The title and each line wrap between words at the width, never elided: a what-if's
  // description cut to "stayed ope…" said less than the report around it (issue #33).
  constexpr int kWrapped = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
  const auto wrappedHeight = [&](const QFontMetrics& m, const QString& text) {
    return m.boundingRect(QRect(0, 0, width - 2 * pad, 1 << 20), kWrapped, text).height();
  };
  const int title_text_height =
      header.title.isEmpty() ? 0 : wrappedHeight(title_metrics, header.title);
  std::vector<int> line_heights;
  for (const QString& text : header.lines) line_heights.push_back(wrappedHeight(metrics, text));
  const int title_height = (header.title.isEmpty() ? 0 : title_text_height + 4) +
                           std::accumulate(line_heights.begin(), line_heights.end(), 0) +
                           (header.title.isEmpty() && header.lines.isEmpty() ? 0 : pad);
  // The legend flows left to right, wrapping at the width.
  struct Placed {
    QPoint at;
    QString text;
    QColor swatch;  // invalid: a lane's title
  };
  std::vector<Placed> placed;
  int x = pad, y = 0;
  const int line = metrics.lineSpacing() + 2;
  auto put = [&](const QString& text, QColor swatch) {
    const int w = metrics.horizontalAdvance(text) + (swatch.isValid() ? line + 4 : 0) + 12;
    if (x + w > width - pad && x > pad) {
      x = pad;
      y += line;
    }
    placed.push_back({QPoint(x, y), text, swatch});
    x += w;
  };
  for (const LegendLane& lane : legend()) {
    put(lane.title + QStringLiteral(":"), QColor());
    for (const auto& [name, colour] : lane.states) put(name, colour);
    x += 8;
  }
  const int legend_height = placed.empty() ? 0 : y + line + pad;
  const int height = pad + title_height + plot_height + legend_height;

  auto paint = [&](QCPPainter& painter) {
    painter.fillRect(QRect(0, 0, width, height), colours.color(QPalette::Base));
    painter.setPen(colours.color(QPalette::WindowText));
    int top = pad;
    if (!header.title.isEmpty()) {
      painter.setFont(title_font);
      painter.drawText(QRect(pad, top, width - 2 * pad, title_text_height), kWrapped, header.title);
      top += title_text_height + 4;
    }
    painter.setFont(font());
    for (int i = 0; i < header.lines.size(); ++i) {
      const int height = line_heights[static_cast<std::size_t>(i)];
      painter.drawText(QRect(pad, top, width - 2 * pad, height), kWrapped, header.lines[i]);
      top += height;
    }
    top = pad + title_height;
    painter.save();
    painter.translate(0, top);
    plot_->toPainter(&painter, plot_->width(), plot_height);
    painter.restore();
    top += plot_height;
    painter.setFont(font());
    for (const Placed& p : placed) {
      QRect text_rect(p.at.x(), top + p.at.y(), width, line);
      if (p.swatch.isValid()) {
        painter.fillRect(QRect(p.at.x(), top + p.at.y() + 3, line - 6, line - 6), p.swatch);
        text_rect.setLeft(p.at.x() + line);
        painter.setFont(font());
      } else {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
      }
      painter.setPen(colours.color(QPalette::WindowText));
      painter.drawText(text_rect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, p.text);
    }
  };

  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  bool ok = false;
  if (suffix == "png") {
    QImage image(QSize(width, height) * 2, QImage::Format_ARGB32);
    image.setDevicePixelRatio(2);
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmNonCosmetic);
    paint(painter);
    ok = painter.end() && image.save(&buffer, "PNG");
  } else if (suffix == "pdf") {
    QPdfWriter pdf(&buffer);
    pdf.setResolution(72);
    pdf.setPageSize(QPageSize(QSizeF(width, height), QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setTitle(header.title.isEmpty() ? QStringLiteral("BreakerLab lanes") : header.title);
    QCPPainter painter;
    ok = painter.begin(&pdf);
    if (ok) {
      painter.setMode(QCPPainter::pmVectorized);
      painter.setMode(QCPPainter::pmNoCaching);
      paint(painter);
      ok = painter.end();
    }
  } else {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(header.title.isEmpty() ? QStringLiteral("BreakerLab lanes") : header.title);
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      painter.setMode(QCPPainter::pmVectorized);
      paint(painter);
      ok = painter.end();
    }
  }
  if (relight) {
    self->setPalette(had_own_palette ? before : QPalette());
    if (!had_own_palette) self->setAttribute(Qt::WA_SetPalette, false);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
  if (!ok) {
    if (error) *error = tr("Could not draw the lanes as %1").arg(suffix.toUpper());
    return std::nullopt;
  }
  return bytes;
}

}  // namespace breakerlab::views
