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

struct LaneKeyHelp {
  QString keys;  // "1 / 2", as the sheet shows them
  QString what;
};
// The sheet's rows for the lanes, mouse included, translated.
std::vector<LaneKeyHelp> laneKeyHelp();

}  // namespace breakerlab::views
