#pragma once
// The lanes' keys, in one table: what each does in the lanes and how the Keyboard Shortcuts
// sheet names it. The lanes act on laneKeyAction(); the sheet lists laneKeyHelp().
#include <QString>
#include <optional>
#include <vector>

namespace breakerlab::views {

enum class LaneKeyAction { cursor_a, cursor_b, clear_cursors, toggle_pods };

// The action of a key pressed over the lanes (a Qt::Key), if it has one.
std::optional<LaneKeyAction> laneKeyAction(int qt_key);

// Where key 1 or 2 places its cursor, in seconds: at the pointer when it is over the lanes
// (`pointer_s`), else, the key having come with the pointer elsewhere (on the toolbar, in a dock),
// in the middle of the time shown; always inside the incident's window [window_from, window_to].
double cursorTimeForKey(std::optional<double> pointer_s, double shown_from, double shown_to,
                        double window_from, double window_to);

struct LaneKeyHelp {
  QString keys;  // "1 / 2", as the sheet shows them
  QString what;
};
// The sheet's rows for the lanes, mouse included, translated.
std::vector<LaneKeyHelp> laneKeyHelp();

}  // namespace breakerlab::views
