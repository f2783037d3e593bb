#pragma once
// The brackets above the lanes and their labels, from a replay's breaker lane and metrics alone:
// the time to trip, each open spell, and how long the breaker served from cache after the
// dependency was healthy again. Pure (no widget): LanesView draws them where they fit.
#include <QString>
#include <vector>

#include "breakerlab/core/outcome/result.h"

namespace breakerlab::views {

struct LaneBracket {
  double from = 0;  // seconds of incident time
  double to = 0;
  int line = 0;  // 0: the breaker's line; 1: the one above it
  QString label;
  QString short_label = {};  // tried when `label` finds no room; empty: none
};

// In drawing order: the time to trip first (it wins when labels compete for room), then each
// open spell, then the cached-while-healthy stretch, then (with a breaker per pod) the fleet's
// open spells naming their first and last pods (fleetBrackets, lane_annotations.h).
// `dependency` names the dependency in the cached-while-healthy label ("the dependency" when
// empty).
std::vector<LaneBracket> laneBrackets(const Result& replay, const QString& dependency);

// "2.9", "20", "14": a bracket's seconds, one decimal below ten.
QString bracketSeconds(double seconds);

}  // namespace breakerlab::views
