#pragma once
// The time axis shared by the lanes and the per-second charts: wall-clock time of day (UTC,
// "09:46:30") when the incident says when it started, seconds from t = 0 otherwise. Ticks fall
// on round wall-clock times (every 5 s, 1 min, 15 min, ...), not on round offsets from t = 0.
#include <qcustomplot.h>

#include <optional>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/incident.h"

namespace breakerlab::views {

// The tick origin that puts QCPAxisTickerTime's steps on round times of day: t = 0 is
// `clock_start`, so midnight (UTC) of that day is at minus its seconds of the day.
double clockTickOrigin(Micros clock_start);
// A tick's label: the time of day at incident time `seconds` ("HH:mm:ss"; ".s" added below a
// one-second step, so that two ticks never read the same).
QString clockTickLabel(Micros clock_start, double seconds, double tick_step);

// A time in the cursor readout, in the axis's terms: the time of day with `decimals` digits of
// the second ("14:02:02.900") when the axis reads the clock, seconds otherwise ("2.900 s"). The
// readout read seconds under a clock axis (the second walkthrough of issue #33).
QString readoutTimeText(std::optional<Micros> clock_start, double seconds, int decimals);

// A ticker for `clock_start` (wall clock), or the plain seconds ticker without one.
QSharedPointer<QCPAxisTicker> makeTimeTicker(std::optional<Micros> clock_start);
// "time (UTC)" or "time (s)".
QString timeAxisLabel(std::optional<Micros> clock_start);

// The wall clock at t = 0 that the axis reads: the incident's `start:`, else the time of day a
// document gave for t = 0 (a postmortem's "t=0 is 09:15:00 UTC"); none: seconds.
std::optional<Micros> axisClock(const Incident& incident);

}  // namespace breakerlab::views
