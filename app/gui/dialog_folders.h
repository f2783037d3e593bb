#pragma once
// The folder an open or save dialog starts in (issue #33: one began in another checkout's folder,
// remembered in the machine's shared settings under one key for every kind of file, and save
// dialogs offered the application's own resources/). Each kind of file remembers its own folder.
#include <QString>
#include <QStringList>

namespace breakerlab::app {

// The kinds of file whose dialogs remember a folder apart.
enum class FileKind { incident, config, workspace, exported, state_table };
enum class DialogMode { open, save };

// What the choice is made from, gathered by dialogFolder() (a test gives its own).
struct DialogFolderFacts {
  QString remembered;  // the last folder the user chose for this kind of file ("" for none)
  bool remembered_exists = false;
  QString incident_folder;  // the open incident's folder ("" without one, or one not on disk)
  bool incident_folder_exists = false;
  QStringList application_folders;  // the bundled resources, the installed share/, app data
  QString home;                     // the user's documents, else their home
};

// The remembered folder if it still exists (for a save, unless it is one of the application's
// own); else the open incident's folder if it exists and is not the application's; else home.
// Never a folder that no longer exists, never the application's own for a save.
QString dialogStartFolder(DialogMode mode, const DialogFolderFacts& facts);

// Whether `folder` is one of `roots` or inside one (paths compared cleaned, never by prefix
// alone: /a/resources-mine is not inside /a/resources).
bool isInsideAnyFolder(const QString& folder, const QStringList& roots);

// dialogStartFolder() with the settings' folder for `kind`, `incident_path`'s folder (the open
// incident's file; a bundled name or an empty path gives none) and the user's documents.
QString dialogFolder(FileKind kind, DialogMode mode, const QString& incident_path);
// Remembers the folder of `chosen_file` for `kind`'s dialogs.
void rememberDialogFolder(FileKind kind, const QString& chosen_file);

}  // namespace breakerlab::app
