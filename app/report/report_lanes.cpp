#include "report_lanes.h"

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

  QString error;
  const std::optional<QByteArray> bytes =
      view.renderImage(QStringLiteral("png"), &error, {title, lines, true});
  if (!bytes) throw std::runtime_error("cannot draw the lanes image: " + error.toStdString());
  return std::string(bytes->constData(), static_cast<std::size_t>(bytes->size()));
}

}  // namespace breakerlab::app
