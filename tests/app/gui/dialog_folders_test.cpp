// The folder an open or save dialog starts in, as a table (issue #33: a dialog began in another
// checkout's folder, and save dialogs offered the application's own resources/).
#include "dialog_folders.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <vector>

#include "bundled_incidents.h"
#include "settings_keys.h"

namespace breakerlab::app {
namespace {

TEST(DialogFolder, TheRememberedFolderThenTheIncidentsThenHomeNeverTheApplicationsForASave) {
  const QStringList own{QStringLiteral("/src/breakerlab/resources"),
                        QStringLiteral("/usr/share/breakerlab")};
  const QString home = QStringLiteral("/home/ana/Documents");
  struct Case {
    const char* why;
    DialogMode mode;
    QString remembered;
    bool remembered_exists;
    QString incident;
    bool incident_exists;
    QString expected;
  };
  using M = DialogMode;
  const QString mine = QStringLiteral("/home/ana/incidents");
  const QString bundled = QStringLiteral("/src/breakerlab/resources/incidents");
  const QString gone = QStringLiteral("/tmp/removed-since");
  const QString work = QStringLiteral("/home/ana/work");
  const std::vector<Case> cases = {
      {"nothing known", M::open, {}, false, {}, false, home},
      {"nothing known", M::save, {}, false, {}, false, home},
      {"the remembered folder", M::open, mine, true, work, true, mine},
      {"the remembered folder", M::save, mine, true, work, true, mine},
      {"remembered, gone: the incident's", M::open, gone, false, work, true, work},
      {"remembered, gone, no incident: home", M::save, gone, false, {}, false, home},
      {"the bundled incidents, chosen to open one", M::open, bundled, true, {}, false, bundled},
      {"the bundled incidents, for a save: not", M::save, bundled, true, {}, false, home},
      {"the installed share/, for a save: not",
       M::save,
       "/usr/share/breakerlab/configs/",
       true,
       {},
       false,
       home},
      {"for a save, the incident's own folder instead", M::save, bundled, true, work, true, work},
      {"no remembered folder: the incident's", M::open, {}, false, work, true, work},
      {"a bundled incident's folder: not", M::open, {}, false, bundled, true, home},
      {"a bundled incident's folder, for a save: not", M::save, {}, false, bundled, true, home},
      {"the incident's folder, gone: home", M::open, {}, false, gone, false, home},
      {"a sibling named like the resources is the user's",
       M::save,
       "/src/breakerlab/resources-mine",
       true,
       {},
       false,
       "/src/breakerlab/resources-mine"},
      {"cleaned",
       M::save,
       "/src/breakerlab/resources/../notes",
       true,
       {},
       false,
       "/src/breakerlab/notes"},
      {"cleaned into the resources: not",
       M::save,
       "/src/breakerlab/notes/../resources",
       true,
       {},
       false,
       home},
  };
  for (const Case& c : cases) {
    DialogFolderFacts facts;
    facts.remembered = c.remembered;
    facts.remembered_exists = c.remembered_exists;
    facts.incident_folder = c.incident;
    facts.incident_folder_exists = c.incident_exists;
    facts.application_folders = own;
    facts.home = home;
    EXPECT_EQ(dialogStartFolder(c.mode, facts), c.expected)
        << c.why << (c.mode == M::save ? " (save)" : " (open)");
  }
}

// The application's folders are where its bundled incidents are: a save never starts beside one.
TEST(DialogFolder, TheApplicationsFoldersHoldItsIncidents) {
  const std::vector<BundledIncident> bundled = bundledIncidents();
  ASSERT_FALSE(bundled.empty());
  const QString folder = QFileInfo(bundled.front().path).absolutePath();
  EXPECT_TRUE(isInsideAnyFolder(folder, applicationResourceFolders()));
  QSettings().remove(settings::kLastIncidentFolder);
  EXPECT_NE(dialogFolder(FileKind::incident, DialogMode::save, bundled.front().path), folder);
}

// Each kind of file remembers its folder apart, and a folder that is gone is never offered.
TEST(DialogFolder, EachKindRemembersItsOwnFolderWhileItExists) {
  QTemporaryDir incidents, configs;
  ASSERT_TRUE(incidents.isValid() && configs.isValid());
  rememberDialogFolder(FileKind::incident, incidents.filePath("a.yaml"));
  rememberDialogFolder(FileKind::config, configs.filePath("b.go"));
  EXPECT_EQ(dialogFolder(FileKind::incident, DialogMode::open, {}),
            QDir::cleanPath(incidents.path()));
  EXPECT_EQ(dialogFolder(FileKind::config, DialogMode::save, {}), QDir::cleanPath(configs.path()));
  // A bare name (an incident restored from a workspace) has no folder: not the working one.
  EXPECT_NE(dialogFolder(FileKind::workspace, DialogMode::open, QStringLiteral("x.yaml")),
            QDir::currentPath());
  ASSERT_TRUE(incidents.remove());
  EXPECT_NE(dialogFolder(FileKind::incident, DialogMode::open, {}),
            QDir::cleanPath(incidents.path()));
}

}  // namespace
}  // namespace breakerlab::app
