#pragma once
// The lanes' time axis as the per-second charts line up with it: where it runs on screen
// (global x of its first and last pixel) and its ticks (position in seconds, label).
#include <QList>
#include <QPair>
#include <QString>

namespace breakerlab::views {

// The room right of the lanes' time axis, kept for the resource chart's pods axis (its labels),
// which lines up with it.
inline constexpr int kRightAxisRoom = 36;
// The room a per-second chart needs left of its plot area to line up with the lanes: its y axis
// (labels and title), and past it the least that is worth showing at all.
inline constexpr int kChartYAxisRoom = 58;
inline constexpr int kChartLeftRoom = kChartYAxisRoom + 40;
// The least room the lanes keep left of their time axis, for their row titles: the charts' left
// room and a few pixels for the dock's frame, so that charts under lanes with short titles
// ("Server", "Checkout") line up with them too (issue #33: teach-metastable-retries' charts sat
// 30 px left of its lanes, laid out on their own).
inline constexpr int kLeftAxisRoom = kChartLeftRoom + 8;

struct TimeAxisPlace {
  int global_left = 0, global_right = 0;
  QList<QPair<double, QString>> ticks;
  bool operator==(const TimeAxisPlace&) const = default;
};

}  // namespace breakerlab::views
