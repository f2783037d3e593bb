#include "bundled_incidents.h"

#include <QDir>

#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/incident_lookup.h"

namespace breakerlab::app {

std::vector<BundledIncident> bundledIncidents() {
  std::vector<BundledIncident> out;
  for (const char* dir : {BREAKERLAB_SOURCE_INCIDENTS, BREAKERLAB_INSTALLED_INCIDENTS}) {
    const QDir folder(QString::fromUtf8(dir));
    const QStringList files = folder.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")},
                                               QDir::Files, QDir::Name);
    for (const QString& file : files) {
      const QString path = folder.absoluteFilePath(file);
      try {
        const Incident incident = loadIncident(path.toStdString());
        out.push_back({path, QString::fromStdString(incident.id),
                       QString::fromStdString(incident.title),
                       QString::fromStdString(incident.summary)});
      } catch (const std::exception&) {
        // A broken bundled file shows its error when the user opens it by hand.
      }
    }
    if (!out.empty()) break;
  }
  return out;
}

QStringList applicationResourceFolders() {
  QStringList folders;
  for (const char* dir : {BREAKERLAB_SOURCE_INCIDENTS, BREAKERLAB_INSTALLED_INCIDENTS}) {
    QDir incidents(QString::fromUtf8(dir));
    incidents.cdUp();
    folders << incidents.absolutePath();
  }
  return folders;
}

QString incidentArgumentPath(const QString& argument) {
  const std::filesystem::path dirs[] = {BREAKERLAB_SOURCE_INCIDENTS,
                                        BREAKERLAB_INSTALLED_INCIDENTS};
  return QString::fromStdString(resolveIncidentArgument(argument.toStdString(), dirs).string());
}

}  // namespace breakerlab::app
