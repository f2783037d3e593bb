#pragma once
// Where the lanes' labels go: event labels on a few text lines below the lanes, bracket labels
// above them, events folded into counted clusters when they crowd. Pure functions in pixels,
// tested with tables of rows (tests/views/lanes/label_layout_test.cpp), without a widget.
#include <cstddef>
#include <span>
#include <vector>

namespace breakerlab::views {

struct LabelRequest {
  double anchor = 0;  // pixels: the event's x, or a bracket's centre
  double width = 0;   // pixels, padding included
};

struct LabelPlace {
  int line = -1;           // -1: no room on any line (zoom in for more)
  bool hang_left = false;  // drawn right-aligned to its anchor
  double left = 0, right = 0;
};

// Event labels: each hangs right of its anchor, or left of it where it would run past
// `area_right`, on the first of `lines` text lines where it overlaps no label placed before
// it (requests are placed in order: the earlier ones win). No two placed labels on a line
// overlap, and none leaves [area_left, area_right] unless it is wider than the area.
std::vector<LabelPlace> placeEventLabels(std::span<const LabelRequest> requests, double area_left,
                                         double area_right, int lines);

// A bracket's label: centred on the part of the bracket [x0, x1] that is on screen, kept inside
// the area. nullopt-like: line -1 when the bracket is off screen, narrower than `min_span`
// pixels on screen, or its label would overlap one already in `taken` (the labels placed on
// this line so far, which the call extends).
LabelPlace placeBracketLabel(double x0, double x1, double width, double area_left,
                             double area_right, double min_span,
                             std::vector<std::pair<double, double>>& taken);

// Events closer than `join` pixels to the previous one fold into a cluster. `xs` is sorted;
// the result is index ranges [begin, end) into it, in order, covering all of it.
struct Cluster {
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
};
std::vector<Cluster> clusterByPixels(std::span<const double> xs, double join);

// As clusterByPixels, and a crowd folds as one cluster too: a run of at least `crowd_from`
// events, each closer than `crowd` pixels to the one before (a flapping breaker, a transition
// every second or two), whose labels, a hundred pixels wide, would stack on every text line down
// to the axis and still not fit (issue #33).
std::vector<Cluster> clusterCrowds(std::span<const double> xs, double join, double crowd,
                                   std::size_t crowd_from);

}  // namespace breakerlab::views
