#pragma once
// The timing view: breaker, dependency, health and checkout lanes over time (and pods in
// rotation when the load balancer health-checks its pods), the recorded lane above each replayed
// one and a faint ghost of the baseline config below it; event markers,
// duration brackets computed from the replay, zoom and pan on time, and two cursors (keys 1
// and 2, snapping to state changes) with a readout of every lane and the interval between them.
// With a breaker per pod, the fleet's row ("Breakers by pod") expands into one row per pod (its
// title, key P, the context menu), the recorded pod's row above each when the incident has one;
// only the pods on screen are built and drawn, and the wheel over them scrolls.
#include <QColor>
#include <QRect>
#include <QStringList>
#include <QWidget>
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/views/time_axis_place.h"

class QCustomPlot;
class QCPAbstractItem;
class QCPItemLine;
class QLabel;
class QMouseEvent;
class QScrollBar;

namespace breakerlab::views {

class LanesPlottable;
struct LaneBracket;
class OverviewStrip;
struct PodReopen;
struct LaneRow;

enum class RowKind { recorded, replayed, baseline };

class LanesView : public QWidget {
  Q_OBJECT
 public:
  explicit LanesView(QWidget* parent = nullptr);
  ~LanesView() override;

  // A new incident: recorded lanes, window, events. Clears cursors and fits the time axis.
  void setIncident(const Incident& incident);
  // Where else key 1 or 2 may find the pointer's time: the per-second charts under the lanes
  // (the second walkthrough of issue #33: with the pointer over a chart the cursor went to the
  // middle of the view). Returns nullopt when the pointer is over none of them.
  void setPointerTimeElsewhere(std::function<std::optional<double>()> elsewhere);
  // The replayed result, and the baseline (deployed config) drawn as a ghost when given.
  // Both must outlive the next call. Repaints on the next event-loop turn.
  void setResults(const Result& replayed, const Result* baseline);
  // A progressive answer: `replayed` covers the window only up to `seconds`; the rest is veiled
  // and labelled as still replaying. nullopt: the answer is whole.
  void setPendingFrom(std::optional<double> seconds);
  std::optional<double> pendingFrom() const { return pending_from_; }
  // Whose breaker rules the replayed lanes follow (named in the breaker lane's title).
  void setBreakerLibrary(BreakerLibrary library);
  // What the ghost rows are titled: "deployed", or the name of what B is (A/B comparison).
  // Takes effect on the next setResults().
  void setBaselineName(const QString& name);
  // The rows' titles, top to bottom (as the axis shows them).
  QStringList rowTitles() const;
  // Repaints at once (for benchmarks and exports).
  void replotNow();

  void fitAll();
  // Shows [from, to] seconds (kept within the incident).
  void showRange(double from, double to);
  void setCursorAt(int which, double seconds);  // which: 0 = A, 1 = B

  // The fleet's row expanded into one row per pod (a run with a breaker per pod; the setting
  // stays when a run without one shows the fleet's row no more).
  void setPodsExpanded(bool expanded);
  bool podsExpanded() const { return pods_expanded_; }
  // Whether the replay shown has a breaker per pod (the fleet's row is there to expand).
  bool hasPods() const;
  // The expanded rows: the first pod shown, how many rows the plot has room for; scrolling
  // rebuilds those rows alone.
  void scrollPodsTo(std::size_t first);
  std::size_t firstPodShown() const { return pod_first_; }
  std::size_t podRowsShown() const;
  std::optional<double> cursorAt(int which) const { return cursors_[which]; }
  // "breaker open · Pricing connection refused · ..." at time t.
  QString readoutAt(double seconds) const;
  // Every line: the pointer's time and states, then each cursor's (B's with Δt).
  QString readoutText() const;
  // The two lines the readout shows, before eliding: with the pointer over the lanes and both
  // cursors placed, the cursors' times and Δt share the second.
  QStringList readoutShown() const;
  // The readout's label: readoutShown(), each line elided to its width; readoutText() in the
  // tooltip.
  QLabel* readoutLabel() const { return readout_; }

  // The lanes drawn as a PNG, PDF or SVG document (`format`: "png", "pdf" or "svg", as a file's
  // suffix names it), with a title and lines above them (the incident, the config; each wrapped
  // between words at the width, never cut short) and the legend below; light even in a dark theme
  // unless told otherwise. The bytes of the document, or nothing with a reason in `error`. Writing
  // them to a file is the caller's (app/ writes every output through
  // breakerlab/data/output_file.h).
  struct ExportHeader {
    QString title;
    QStringList lines;
    bool light = true;
  };
  std::optional<QByteArray> renderImage(const QString& format, QString* error,
                                        const ExportHeader& header) const;
  std::optional<QByteArray> renderImage(const QString& format, QString* error) const;
  // Per lane, its title and the states it shows with their colours (the legend).
  struct LegendLane {
    QString title;
    std::vector<std::pair<QString, QColor>> states;
  };
  std::vector<LegendLane> legend() const;

  // The plot (the app lines the per-second charts up with it), and where a row is drawn, in
  // widget pixels (empty when it is not shown): by lane, or a pod's row of the expanded fleet.
  QCustomPlot* plot() const { return plot_; }
  QRect rowRect(const std::string& lane, RowKind kind) const;
  QRect podRowRect(std::size_t pod, RowKind kind) const;
  // The bars drawn in a row, as [from, to] seconds (the app's tests check what reaches it).
  std::vector<std::pair<double, double>> rowSpans(const std::string& lane, RowKind kind) const;
  // The legend under the lanes: per lane, its states' colours and names.
  QString legendText() const;
  // Where the time axis runs on screen and its ticks, as last drawn.
  TimeAxisPlace timeAxisPlace() const;
  // The whole-incident strip under the lanes (for tests).
  OverviewStrip* overview() const { return overview_; }

 signals:
  void cursorsChanged();
  // The time axis moved on screen or its ticks changed (after a repaint).
  void timeAxisChanged(const TimeAxisPlace& place);
  // The user dragged the marker of the timed change at `from` to `to` (incident time).
  void changeDragged(Micros from, Micros to);
  void podsExpandedChanged(bool expanded);

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  struct RowPlace {
    std::string lane;  // "pod": a pod's row of the expanded fleet
    RowKind kind;
    double top, bottom;
    std::size_t slot = 0;  // "pod" rows: the slot on screen (the pod is pod_first_ + slot)
  };
  std::optional<std::size_t> rowIndex(const std::string& lane, RowKind kind) const;
  QString rowTitle(const RowPlace& place) const;
  void rebuild();
  void showReadout();
  // `seconds` as the time axis reads it (readoutTimeText).
  QString readoutTime(double seconds, int decimals) const;
  QString hoverLine() const;
  QString cursorLine(int which) const;
  void updateLegend();
  void updateTicker();
  void updateOverview();
  void applyTimeTicker();
  void layoutRows();
  double layoutRowsWithBand(double band_units);
  // The pods' rows that fit the plot's height, and the pixels of a pod's slot.
  std::size_t podSlotsFor(double rows_pixels) const;
  double podSlotPixels() const;
  bool podRecorded() const;
  LaneRow podRow(const RowPlace& place) const;
  void refillPodRows();
  void placePodScroll();
  QRect bandRect() const;
  QRect titleRect(const std::string& lane) const;
  void showContextMenu(const QPoint& at);
  void togglePods();
  void addBrackets();
  std::vector<LaneBracket> brackets(const Result& replay) const;
  void addEvents();
  void addPendingVeil();
  void relayoutEvents();
  struct EventsLayoutKey {
    double lower = 0, upper = 0;
    double rows_lower = 0, rows_upper = 0;
    QRect axis_rect;
    bool operator==(const EventsLayoutKey&) const = default;
  };
  EventsLayoutKey eventsLayoutKey() const;
  // The value axis's range for the plot's height (true when it changed), and where the bracket
  // and event label lines are, in value units.
  bool fitValueAxis();
  int bracketLinePixels() const;
  int eventLinePixels() const;
  double bracketLineY(int line) const;
  double eventLineY(int line) const;
  void updateCursors();
  void applyPalette();
  double snapToChange(double seconds, double pixel_radius) const;
  void onMouseMove(QMouseEvent* event);
  void onMousePress(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  // The timed change whose marker is within `pixels` of widget x, if any.
  std::optional<Micros> changeNear(double x, double pixels) const;

  QCustomPlot* plot_ = nullptr;
  LanesPlottable* lanes_ = nullptr;
  QLabel* readout_ = nullptr;
  QLabel* legend_ = nullptr;
  QString baseline_name_ = QStringLiteral("deployed");
  TimeAxisPlace time_axis_place_;
  int bracket_lines_ = 2, event_lines_ = 4;  // label lines the plot's height has room for
  int bracket_lines_wanted_ = 2;             // the lines the replay's brackets use
  OverviewStrip* overview_ = nullptr;
  const Incident* incident_ = nullptr;
  BreakerLibrary library_ = BreakerLibrary::breakerlab;
  const Result* replayed_ = nullptr;
  const Result* baseline_ = nullptr;
  std::optional<double> pending_from_;
  std::vector<RowPlace> rows_;
  std::vector<PodReopen> reopens_;  // of replayed_, computed once per result
  bool pods_expanded_ = false;
  bool pods_leave_service_ = false;  // a pod lane of replayed_ has kPodOutOfService
  std::size_t pod_first_ = 0, pod_slots_ = 0;
  double rows_pixels_ = 0;   // the rows' share of the plot's height, as last fitted
  double others_units_ = 0;  // the rows but the pods', in value units
  QScrollBar* pod_scroll_ = nullptr;
  int wheel_rest_ = 0;  // eighths of a degree of wheel not yet turned into a scroll
  std::vector<QCPAbstractItem*> event_items_;  // markers and labels of addEvents()
  EventsLayoutKey events_layout_;
  std::array<std::optional<double>, 2> cursors_;
  std::optional<double> hover_;
  std::function<std::optional<double>()> pointer_time_elsewhere_;
  // A change's marker being dragged: where it was, and the line that follows the pointer.
  std::optional<Micros> drag_from_;
  QCPItemLine* drag_line_ = nullptr;
  double lanes_bottom_ = 0;
};

}  // namespace breakerlab::views
