#include "recent_paths.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <algorithm>

#include "bundled_incidents.h"
#include "settings_keys.h"

namespace breakerlab::app {

QStringList withRecent(QStringList list, const QString& path, int max) {
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > max) list.removeLast();
  return list;
}

QStringList rememberRecent(const QString& key, const QString& path) {
  QSettings s;
  const QStringList list = withRecent(s.value(key).toStringList(), path, settings::kMaxRecentFiles);
  s.setValue(key, list);
  return list;
}

QString saveFolder(const QString& last, const QStringList& own, const QString& documents) {
  if (last.isEmpty()) return documents;
  const QString folder = QDir::cleanPath(last);
  const bool inside_own = std::any_of(own.begin(), own.end(), [&folder](const QString& o) {
    const QString root = QDir::cleanPath(o);
    return folder == root || folder.startsWith(root + QLatin1Char('/'));
  });
  return inside_own ? documents : folder;
}

QString saveDialogFolder() {
  QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (documents.isEmpty()) documents = QDir::homePath();
  return saveFolder(QSettings().value(settings::kLastFolder).toString(),
                    applicationResourceFolders(), documents);
}

}  // namespace breakerlab::app
