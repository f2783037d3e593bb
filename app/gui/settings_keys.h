#pragma once
// Every QSettings key the workbench uses, in one place.
#include <QString>

namespace breakerlab::app::settings {
inline const QString kGeometry = QStringLiteral("window/geometry");
inline const QString kWindowState = QStringLiteral("window/state");
inline const QString kChartsSplitter = QStringLiteral("window/chartsSplitter");
inline const QString kLastFolder = QStringLiteral("files/lastFolder");
inline const QString kRecentFiles = QStringLiteral("files/recent");
inline constexpr int kMaxRecentFiles = 8;
// Workspaces (*.breakerlab): the recently opened ones (the start page lists them) and the one
// open when the workbench closed, reopened at the next start.
inline const QString kRecentWorkspaces = QStringLiteral("workspace/recent");
inline const QString kLastWorkspace = QStringLiteral("workspace/last");
// The state-name table postmortem imports use, as the user last edited it (YAML).
inline const QString kStateTable = QStringLiteral("import/stateTable");
}  // namespace breakerlab::app::settings
