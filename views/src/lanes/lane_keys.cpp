#include "breakerlab/views/lane_keys.h"

#include <QCoreApplication>
#include <algorithm>

namespace breakerlab::views {

namespace {

struct LaneKey {
  Qt::Key key;
  LaneKeyAction action;
};
constexpr LaneKey kKeys[] = {
    {Qt::Key_1, LaneKeyAction::cursor_a},
    {Qt::Key_2, LaneKeyAction::cursor_b},
    {Qt::Key_Escape, LaneKeyAction::clear_cursors},
    {Qt::Key_P, LaneKeyAction::toggle_pods},
};

// The sheet's rows: the keys above (1 and 2 share a row) and the mouse.
struct HelpRow {
  const char* keys;
  const char* what;
};
constexpr HelpRow kHelp[] = {
    {"Wheel / drag", "Zoom / pan the time axis"},
    {"1 / 2", "Place cursor A / B at the mouse (snaps to state changes)"},
    {"Esc", "Remove the cursors"},
    {"P", "Expand or collapse the breakers by pod (a breaker per pod; also a click on the title)"},
    {"Wheel over the pods", "Scroll the pods (Ctrl+wheel zooms the time axis)"},
};

}  // namespace

std::optional<LaneKeyAction> laneKeyAction(int qt_key) {
  for (const LaneKey& k : kKeys)
    if (k.key == qt_key) return k.action;
  return std::nullopt;
}

double cursorTimeForKey(std::optional<double> pointer_s, double shown_from, double shown_to,
                        double window_from, double window_to) {
  const double t = pointer_s ? *pointer_s : (shown_from + shown_to) / 2;
  return std::clamp(t, window_from, std::max(window_from, window_to));
}

std::vector<LaneKeyHelp> laneKeyHelp() {
  std::vector<LaneKeyHelp> rows;
  for (const HelpRow& r : kHelp)
    rows.push_back({QCoreApplication::translate("breakerlab::views::LanesView", r.keys),
                    QCoreApplication::translate("breakerlab::views::LanesView", r.what)});
  return rows;
}

}  // namespace breakerlab::views
