#pragma once
// Every QSettings key the workbench uses, in one place.
#include <QString>

namespace breakerlab::app::settings {
inline const QString kGeometry = QStringLiteral("window/geometry");
inline const QString kWindowState = QStringLiteral("window/state");
inline const QString kChartsSplitter = QStringLiteral("window/chartsSplitter");
// The folder each kind of file's dialogs last chose (dialog_folders.h). "files/lastFolder", one
// folder for every kind, is no longer read: it came to hold other checkouts' folders.
inline const QString kLastIncidentFolder = QStringLiteral("folders/incidents");
inline const QString kLastConfigFolder = QStringLiteral("folders/configs");
inline const QString kLastWorkspaceFolder = QStringLiteral("folders/workspaces");
inline const QString kLastExportFolder = QStringLiteral("folders/exports");
inline const QString kLastStateTableFolder = QStringLiteral("folders/stateTables");
inline const QString kRecentFiles = QStringLiteral("files/recent");
inline constexpr int kMaxRecentFiles = 8;
// Workspaces (*.breakerlab): the recently opened ones (the start page lists them) and the one
// open when the workbench closed, reopened at the next start.
inline const QString kRecentWorkspaces = QStringLiteral("workspace/recent");
inline const QString kLastWorkspace = QStringLiteral("workspace/last");
// The state-name table postmortem imports use, as the user last edited it (YAML).
inline const QString kStateTable = QStringLiteral("import/stateTable");
}  // namespace breakerlab::app::settings
