#include "recent_paths.h"

#include <QSettings>

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

}  // namespace breakerlab::app
