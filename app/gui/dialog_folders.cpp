#include "dialog_folders.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <algorithm>

#include "bundled_incidents.h"
#include "settings_keys.h"

namespace breakerlab::app {

namespace {

QString settingsKeyOf(FileKind kind) {
  switch (kind) {
    case FileKind::incident:
      return settings::kLastIncidentFolder;
    case FileKind::config:
      return settings::kLastConfigFolder;
    case FileKind::workspace:
      return settings::kLastWorkspaceFolder;
    case FileKind::exported:
      return settings::kLastExportFolder;
    case FileKind::state_table:
      return settings::kLastStateTableFolder;
  }
  return settings::kLastIncidentFolder;
}

// The user's documents folder when there is one on disk, else their home.
QString userDocuments() {
  const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (!documents.isEmpty() && QFileInfo(documents).isDir()) return documents;
  return QDir::homePath();
}

}  // namespace

bool isInsideAnyFolder(const QString& folder, const QStringList& roots) {
  const QString cleaned = QDir::cleanPath(folder);
  return std::any_of(roots.begin(), roots.end(), [&cleaned](const QString& root) {
    if (root.isEmpty()) return false;
    const QString r = QDir::cleanPath(root);
    return cleaned == r ||
           cleaned.startsWith(r.endsWith(QLatin1Char('/')) ? r : r + QLatin1Char('/'));
  });
}

QString dialogStartFolder(DialogMode mode, const DialogFolderFacts& facts) {
  const bool saving = mode == DialogMode::save;
  if (!facts.remembered.isEmpty() && facts.remembered_exists &&
      !(saving && isInsideAnyFolder(facts.remembered, facts.application_folders)))
    return QDir::cleanPath(facts.remembered);
  if (!facts.incident_folder.isEmpty() && facts.incident_folder_exists &&
      !isInsideAnyFolder(facts.incident_folder, facts.application_folders))
    return QDir::cleanPath(facts.incident_folder);
  return facts.home;
}

QString dialogFolder(FileKind kind, DialogMode mode, const QString& incident_path) {
  DialogFolderFacts facts;
  facts.remembered = QSettings().value(settingsKeyOf(kind)).toString();
  facts.remembered_exists = !facts.remembered.isEmpty() && QFileInfo(facts.remembered).isDir();
  // A restored or bundled incident's "path" may be a bare name: only a real file has a folder.
  const QFileInfo incident(incident_path);
  if (!incident_path.isEmpty() && incident.isAbsolute()) {
    facts.incident_folder = incident.absolutePath();
    facts.incident_folder_exists = QFileInfo(facts.incident_folder).isDir();
  }
  facts.application_folders = applicationResourceFolders();
  // Where the workbench keeps what it fetched (Prometheus answers): its own, not the user's.
  facts.application_folders << QStandardPaths::writableLocation(
      QStandardPaths::AppLocalDataLocation);
  facts.home = userDocuments();
  return dialogStartFolder(mode, facts);
}

void rememberDialogFolder(FileKind kind, const QString& chosen_file) {
  if (chosen_file.isEmpty()) return;
  QSettings().setValue(settingsKeyOf(kind), QFileInfo(chosen_file).absolutePath());
}

}  // namespace breakerlab::app
