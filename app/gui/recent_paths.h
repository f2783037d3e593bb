#pragma once
// The recently opened incidents and workspaces: one list rule for both (newest first, no
// repeats, at most settings::kMaxRecentFiles), kept in QSettings under the list's key. The
// folders dialogs start in are dialog_folders.h's.
#include <QString>
#include <QStringList>

namespace breakerlab::app {

// `list` with `path` first, its older entry dropped, cut to `max` entries.
QStringList withRecent(QStringList list, const QString& path, int max);

// Puts `path` first in the list stored under `key` (settings::kRecentFiles or
// kRecentWorkspaces); returns the new list.
QStringList rememberRecent(const QString& key, const QString& path);

}  // namespace breakerlab::app
