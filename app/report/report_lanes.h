#pragma once
// A config's lanes drawn offscreen as the workbench exports them (title, lines, legend, light),
// for the report.
#include <QString>
#include <QStringList>
#include <string>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/result.h"

namespace breakerlab::app {

// PNG bytes of `result`'s lanes on `incident`, with `baseline` as the ghost when given. Needs a
// QApplication. Throws std::runtime_error when the image cannot be drawn.
std::string drawLanesPng(const Incident& incident, const Result& result, const Result* baseline,
                         BreakerLibrary library, const QString& title, const QStringList& lines);

}  // namespace breakerlab::app
