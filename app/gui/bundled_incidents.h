#pragma once
#include <QString>
#include <QStringList>
#include <vector>

namespace breakerlab::app {

struct BundledIncident {
  QString path;
  QString id;
  QString title;
  QString summary;
};

// The incidents shipped with BreakerLab: the source tree's, else the installed ones. Files that
// fail to load are skipped (they are reported when opened).
std::vector<BundledIncident> bundledIncidents();

// The application's own folders (the bundled incidents, postmortems and configs): the source
// tree's resources/ and the installed share/breakerlab/.
QStringList applicationResourceFolders();

// The file a command-line incident argument names: a path, or a bundled incident's name
// ("inc-2026-0908-pricing"), as breakerlab-cli reads it (resolveIncidentArgument).
QString incidentArgumentPath(const QString& argument);

}  // namespace breakerlab::app
