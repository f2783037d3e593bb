// The recent incidents' and workspaces' one list rule, as a table.
#include "recent_paths.h"
#include "bundled_incidents.h"

#include <gtest/gtest.h>

#include <QFileInfo>

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

namespace breakerlab::app {
namespace {

// A save dialog starts where the user last was, never in the application's own folders (issue
// #33, item 12: they offered resources/incidents after a bundled incident was opened).
TEST(SaveFolder, IsTheUsersLastFolderNeverTheApplicationsOwn) {
  const QStringList own{QStringLiteral("/src/breakerlab/resources"),
                        QStringLiteral("/usr/share/breakerlab")};
  const QString documents = QStringLiteral("/home/ana/Documents");
  struct Case {
    QString last;
    QString expected;
  };
  const Case cases[] = {
      {QString(), documents},  // nothing yet
      {QStringLiteral("/home/ana/incidents"), QStringLiteral("/home/ana/incidents")},
      {QStringLiteral("/src/breakerlab/resources/incidents"), documents},  // bundled incidents
      {QStringLiteral("/src/breakerlab/resources"), documents},
      {QStringLiteral("/usr/share/breakerlab/configs/"), documents},
      {QStringLiteral("/src/breakerlab/resources-mine"),
       QStringLiteral("/src/breakerlab/resources-mine")},
      {QStringLiteral("/src/breakerlab/resources/../notes"),
       QStringLiteral("/src/breakerlab/notes")},
  };
  for (const Case& c : cases)
    EXPECT_EQ(saveFolder(c.last, own, documents), c.expected) << c.last.toStdString();
}

// The application's folders are where its bundled incidents are.
TEST(SaveFolder, TheApplicationsFoldersHoldItsIncidents) {
  const std::vector<BundledIncident> bundled = bundledIncidents();
  ASSERT_FALSE(bundled.empty());
  EXPECT_EQ(saveFolder(QFileInfo(bundled.front().path).absolutePath(), applicationResourceFolders(),
                       QStringLiteral("/documents")),
            QStringLiteral("/documents"));
}

}  // namespace
}  // namespace breakerlab::app
