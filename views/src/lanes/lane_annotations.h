#pragma once
// The lanes' annotation text, apart from the widget: the labels under the lanes (each breaker or
// health transition, counted clusters of them, pod ejections and returns, pods of the fleet that
// opened again) and the fleet's brackets that name pods ("pod 3 first open → pod 17 last
// closed"). Pure functions of a replay's events and lanes and of where the time axis is on
// screen; LanesView draws what they give where label_layout.h finds room. Tested with tables of
// hand-made lanes and events (tests/views/lanes/lane_annotations_test.cpp), as lane_brackets.h.
#include <QString>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "breakerlab/core/outcome/result.h"
#include "lanes/lane_brackets.h"

namespace breakerlab::views {

// The time axis on screen: seconds [from, to] over pixels [left, right] (left < right).
struct TimeToPixels {
  double from = 0, to = 1;
  double left = 0, right = 1;
  double x(double seconds) const { return left + (seconds - from) * (right - left) / (to - from); }
  // Within a pixel of the axis rect.
  bool onScreen(double px) const { return px >= left - 1 && px <= right + 1; }
};

// ---- the fleet (breaker.scope: per_pod) ----

// A pod's breaker opening again after it closed, within one open spell of the fleet (the
// fleet's lane not "closed" from the first pod open to the last pod closed): the pods that keep
// the fleet from closing. `pod` indexes `pods` (Result::pod_breakers).
struct PodReopen {
  Micros at = 0;
  std::uint32_t pod = 0;
  bool operator==(const PodReopen&) const = default;
};
std::vector<PodReopen> podReopens(std::span<const Lane> pods, const Lane& fleet);

// One bracket per open spell of the fleet's lane (a run of states other than "closed" with a pod
// open in it), on the upper bracket line: "pod 3 first open → pod 17 last closed · 2 min 5 s",
// short "pod 3 → pod 17 · 2 min 5 s". A spell that lasts to the end of the lane: "pod 3 first
// open · 5 pods open at the end"; one that a scale-in ends: "… → pod 9 removed".
std::vector<LaneBracket> fleetBrackets(std::span<const Lane> pods, const Lane& fleet);

// "45 s", "2 min 5 s", "3 h 12 min": a long span, as the fleet's brackets give it.
QString spanText(double seconds);

// The fleet's rows when expanded: a pod's title ("pod 7"), and the row's hover text.
QString podTitle(std::span<const Lane> pods, std::uint32_t pod);

// ---- labels under the lanes ----

// A transition's own label: its cause ("5 of 20 calls failed"), "half-open", or "half-open:
// health green" for a half-open that a health check made.
QString transitionLabel(const Event& event);

// "76 trips, 1 reopen, 75 closes": what a cluster of breaker and health events holds.
QString clusterSummary(std::span<const Event* const> events);

// Pod ejections and returns close together, as one label: "pod 3 ejected", "pod 3 back",
// "pods: 5 ejected, 4 back".
QString podEventsLabel(std::span<const Event* const> events);

// Reopened pods close together: "pod 7 reopened", "pod 7 reopened 3 times", "pods 3, 7
// reopened", "12 pods reopened".
QString podReopensLabel(std::span<const Lane> pods, std::span<const PodReopen> reopens);

// Where the pod ticks go in the pods row: every ejection and return, in seconds.
std::vector<double> podEventMarks(std::span<const Event> events);

struct EventMarker {
  double t = 0;  // seconds
  // From the top of the lanes, or from the top of the pods row or of the fleet row down.
  enum class From : std::uint8_t { lanes_top, pods_row, fleet_row } from = From::lanes_top;
  bool change = false;  // an operator's change (drawn solid: it can be dragged)
  bool operator==(const EventMarker&) const = default;
};

struct EventLabel {
  double t = 0;  // the label's anchor, seconds
  QString text;
  bool marker_with_label = false;  // `marker` is drawn only if the label finds room
  EventMarker marker;
};

struct EventAnnotations {
  std::vector<EventMarker> markers;                     // always drawn
  std::vector<std::pair<double, double>> cluster_bars;  // seconds, under the lanes
  // In the order they are given room: operators' changes, breaker and health transitions (one
  // by one, or a cluster's count), pod ejections, reopened pods.
  std::vector<EventLabel> labels;
};

struct EventJoins {
  double transitions = 12;    // pixels: closer transitions fold into a counted cluster
  std::size_t fold_from = 3;  // a cluster of fewer is drawn event by event
  double pods = 90;           // pixels: pod events closer than this share a label
  // A flapping breaker: this many transitions or more, each closer than `crowd` pixels to the
  // one before, fold into a cluster too (clusterCrowds).
  double crowd = 48;
  std::size_t crowd_from = 5;
};

// The marks and labels of the events on screen (probes are not labelled; pod events go with the
// pods row when the result has one, reopened pods with the fleet row).
EventAnnotations eventAnnotations(const Result& result, std::span<const PodReopen> reopens,
                                  const TimeToPixels& axis, const EventJoins& joins);

}  // namespace breakerlab::views
