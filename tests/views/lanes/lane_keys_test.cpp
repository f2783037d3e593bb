// The lanes' keys: what each does, and that the shortcuts sheet lists every one of them.
#include "breakerlab/views/lane_keys.h"

#include <gtest/gtest.h>

#include <QStringList>
#include <algorithm>

namespace breakerlab::views {
namespace {

TEST(LaneKeys, OneAndTwoPlaceTheCursorsEscapeRemovesThemPExpandsThePods) {
  EXPECT_EQ(laneKeyAction(Qt::Key_1), LaneKeyAction::cursor_a);
  EXPECT_EQ(laneKeyAction(Qt::Key_2), LaneKeyAction::cursor_b);
  EXPECT_EQ(laneKeyAction(Qt::Key_Escape), LaneKeyAction::clear_cursors);
  EXPECT_EQ(laneKeyAction(Qt::Key_P), LaneKeyAction::toggle_pods);
  for (const int other : {Qt::Key_3, Qt::Key_A, Qt::Key_Space, Qt::Key_Return})
    EXPECT_EQ(laneKeyAction(other), std::nullopt) << other;
}

TEST(LaneKeys, TheSheetNamesEveryKeyTheLanesTake) {
  const std::vector<LaneKeyHelp> rows = laneKeyHelp();
  auto listed = [&](const QString& keys) {
    return std::any_of(rows.begin(), rows.end(),
                       [&](const LaneKeyHelp& r) { return r.keys.split(" / ").contains(keys); });
  };
  EXPECT_TRUE(listed("1"));
  EXPECT_TRUE(listed("2"));
  EXPECT_TRUE(listed("Esc"));
  EXPECT_TRUE(listed("P"));
  for (const LaneKeyHelp& r : rows) EXPECT_FALSE(r.what.isEmpty()) << r.keys.toStdString();
}

// Key 1 with the pointer on the toolbar placed cursor A at -30 s, left of the incident (issue #33
// walkthrough): away from the lanes a key places its cursor in the middle of what is shown.
TEST(LaneKeys, ACursorKeyAwayFromTheLanesPlacesItsCursorInTheMiddleOfWhatIsShown) {
  struct Case {
    const char* what;
    std::optional<double> pointer;
    double shown_from, shown_to, window_from, window_to;
    double expected;
  };
  const Case cases[] = {
      {"over the lanes: at the pointer", 12.5, 0, 60, 0, 60, 12.5},
      {"pointer elsewhere: the middle shown", std::nullopt, 0, 60, 0, 60, 30},
      {"zoomed in: the middle of the zoom", std::nullopt, 40, 50, 0, 60, 45},
      {"the axis shows a margin left of t=0", std::nullopt, -30, 10, 0, 60, 0},
      {"a pointer over the margin right of the end", 75, 0, 80, 0, 60, 60},
      {"a pointer over the margin left of the start", -3, -5, 60, 0, 60, 0},
      {"a window that does not start at 0", std::nullopt, 100, 300, 120, 400, 200},
  };
  for (const Case& c : cases)
    EXPECT_DOUBLE_EQ(
        cursorTimeForKey(c.pointer, c.shown_from, c.shown_to, c.window_from, c.window_to),
        c.expected)
        << c.what;
}

}  // namespace
}  // namespace breakerlab::views
