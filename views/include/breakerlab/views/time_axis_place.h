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

struct TimeAxisPlace {
  int global_left = 0, global_right = 0;
  QList<QPair<double, QString>> ticks;
  bool operator==(const TimeAxisPlace&) const = default;
};

}  // namespace breakerlab::views
