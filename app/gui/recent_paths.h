#pragma once
// The recently opened incidents and workspaces: one list rule for both (newest first, no
// repeats, at most settings::kMaxRecentFiles), kept in QSettings under the list's key.
#include <QString>
#include <QStringList>

namespace breakerlab::app {

// `list` with `path` first, its older entry dropped, cut to `max` entries.
QStringList withRecent(QStringList list, const QString& path, int max);

// Puts `path` first in the list stored under `key` (settings::kRecentFiles or
// kRecentWorkspaces); returns the new list.
QStringList rememberRecent(const QString& key, const QString& path);

// The folder a save dialog starts in: `last` (where the user last opened or saved a file), unless
// it is empty or inside one of the application's own folders (`own`: the bundled incidents and
// configs, read-only once installed and replaced by an update), then `documents`.
QString saveFolder(const QString& last, const QStringList& own, const QString& documents);
// saveFolder() with the remembered folder, the application's folders and the user's documents.
QString saveDialogFolder();

}  // namespace breakerlab::app
