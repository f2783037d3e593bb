// The recent incidents' and workspaces' one list rule, as a table.
#include "recent_paths.h"

#include <gtest/gtest.h>

namespace breakerlab::app {
namespace {

TEST(RecentPaths, NewestFirstWithoutRepeatsCutToTheMost) {
  struct Case {
    QStringList before;
    QString path;
    int max;
    QStringList after;
  };
  const Case cases[] = {
      {{}, "a", 8, {"a"}},
      {{"b", "c"}, "a", 8, {"a", "b", "c"}},
      {{"b", "a", "c"}, "a", 8, {"a", "b", "c"}},  // moved up, not repeated
      {{"a", "b"}, "a", 8, {"a", "b"}},            // already first
      {{"b", "c", "d"}, "a", 3, {"a", "b", "c"}},  // the oldest falls off
      {{"b", "c", "a"}, "a", 3, {"a", "b", "c"}},  // at the limit, moved up: nothing falls off
      {{"b", "b"}, "a", 8, {"a", "b", "b"}},       // only the path's repeats are dropped
  };
  for (const Case& c : cases)
    EXPECT_EQ(withRecent(c.before, c.path, c.max), c.after) << c.before.join(",").toStdString();
}

}  // namespace
}  // namespace breakerlab::app
