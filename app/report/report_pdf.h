#pragma once
// The report as an A4 PDF, laid out by QTextDocument from the same HTML as the HTML report, the
// lanes images at the page's width.
#include <QByteArray>

#include "breakerlab/data/report.h"

namespace breakerlab::app {

// Needs a QGuiApplication. Pages are numbered; margins are 2 cm; the metrics table is laid out
// for the page's width, lines break between words only, and no heading is left at a page's foot
// apart from what it heads.
QByteArray reportPdf(const ReportDocument& report);

}  // namespace breakerlab::app
