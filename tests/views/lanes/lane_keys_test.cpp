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

}  // namespace
}  // namespace breakerlab::views
