#include "prometheus_fields.h"

#include <QObject>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/prometheus_query.h"

namespace breakerlab::app {

QString prometheusFieldsProblem(const QString& url, const QString& from, const QString& to) {
  if (url.trimmed().isEmpty())
    return QObject::tr("Give the server's URL (e.g. http://127.0.0.1:9090).");
  try {
    // The URL alone: a range that reads, so that only what is wrong with the URL is said.
    PrometheusFetch probe;
    probe.url = url.trimmed().toStdString();
    probe.from = 0;
    probe.to = 1;
    (void)planPrometheusFetch(probe);
  } catch (const LoadError& e) {
    return QObject::tr("Server URL: %1").arg(QString::fromStdString(e.message()));
  }
  if (from.trimmed().isEmpty())
    return QObject::tr("Give the start of the range in From (e.g. 2026-09-08T14:00:00Z).");
  if (to.trimmed().isEmpty())
    return QObject::tr("Give the end of the range in To (e.g. 2026-09-08T14:10:00Z).");
  try {
    (void)parsePrometheusTime(from.trimmed().toStdString(), QObject::tr("From").toStdString());
    (void)parsePrometheusTime(to.trimmed().toStdString(), QObject::tr("To").toStdString());
  } catch (const LoadError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace breakerlab::app
