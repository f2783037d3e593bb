#include "lanes/lane_brackets.h"

#include <algorithm>

#include "lanes/lane_annotations.h"
#include "lanes/lanes_tr.h"

namespace breakerlab::views {

QString bracketSeconds(double s) {
  QString text = QString::number(s, 'f', s < 10 ? 1 : 0);
  if (text.endsWith(".0")) text.chop(2);
  return text;
}

std::vector<LaneBracket> laneBrackets(const Result& r, const QString& dependency) {
  std::vector<LaneBracket> out;
  const auto& breaker = r.breaker.intervals;
  const auto first = std::find_if(breaker.begin(), breaker.end(),
                                  [](const LaneInterval& i) { return i.state == "open"; });
  if (r.metrics.time_to_trip_s && first != breaker.end()) {
    const double first_open = toSeconds(first->from);
    out.push_back({first_open - *r.metrics.time_to_trip_s, first_open, 0,
                   lanesTr("%1 s to trip").arg(bracketSeconds(*r.metrics.time_to_trip_s))});
  }
  for (const auto& i : breaker)
    if (i.state == "open")
      out.push_back({toSeconds(i.from), toSeconds(i.to), 0,
                     lanesTr("open %1 s").arg(bracketSeconds(toSeconds(i.to - i.from)))});
  if (r.metrics.time_to_close_after_recovery_s &&
      *r.metrics.time_to_close_after_recovery_s > 0.05 && !breaker.empty()) {
    // The last time the breaker closed again (not its first interval).
    double close = -1;
    for (const auto& i : breaker)
      if (i.state == "closed" && i.from > breaker.front().from) close = toSeconds(i.from);
    const double healthy = *r.metrics.time_to_close_after_recovery_s;
    if (close >= 0)
      out.push_back({close - healthy, close, 1,
                     lanesTr("%1 s cached while %2 healthy")
                         .arg(bracketSeconds(healthy),
                              dependency.isEmpty() ? lanesTr("the dependency") : dependency)});
  }
  for (LaneBracket& b : fleetBrackets(r.pod_breakers, r.fleet)) out.push_back(std::move(b));
  return out;
}

}  // namespace breakerlab::views
