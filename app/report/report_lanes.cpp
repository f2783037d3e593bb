#include "report_lanes.h"

#include <QFile>
#include <QTemporaryDir>
#include <stdexcept>

#include "breakerlab/views/lanes_view.h"

namespace breakerlab::app {

namespace {
// The workbench's lanes at a size that reads at a page's width: every row tall enough for its
// state names, the brackets and event labels on their lines.
constexpr int kLanesWidth = 1100;
constexpr int kLanesHeight = 560;
}  // namespace

std::string drawLanesPng(const Incident& incident, const Result& result, const Result* baseline,
                         BreakerLibrary library, const QString& title, const QStringList& lines) {
  views::LanesView view;
  view.setAttribute(Qt::WA_DontShowOnScreen);
  view.resize(kLanesWidth, kLanesHeight);
  view.setIncident(incident);
  view.setBreakerLibrary(library);
  view.setResults(result, baseline);
  view.show();  // lays the plot out at the view's size
  view.replotNow();

  // The export itself is the workbench's (atomic, to a file): drawn into a scratch folder and
  // read back.
  QTemporaryDir scratch;
  if (!scratch.isValid())
    throw std::runtime_error("cannot create a temporary folder for the lanes image: " +
                             scratch.errorString().toStdString());
  const QString path = scratch.filePath(QStringLiteral("lanes.png"));
  QString error;
  if (!view.exportImage(path, &error, views::LanesView::ExportHeader{title, lines, true}))
    throw std::runtime_error("cannot draw the lanes image: " + error.toStdString());
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw std::runtime_error("cannot read the lanes image back: " +
                             file.errorString().toStdString());
  const QByteArray bytes = file.readAll();
  return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

}  // namespace breakerlab::app
