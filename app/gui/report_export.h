#pragma once
// File > Export Report: the open incident's report (docs/report.md) with the deployed config,
// the current tuning when it differs, and B when an A/B comparison shows one.
#include <QString>
#include <functional>
#include <vector>

#include "report_assembly.h"

class QWidget;

namespace breakerlab::app {

class ReplaySession;
class ComparisonSlot;

// The configs of the report as the window shows them: the deployed config (the baseline
// replay), A when tuned, B when it is not the deployed config and its replay is done.
std::vector<ReportRun> reportRuns(const ReplaySession& session, const ComparisonSlot& comparison);

// Writes the report to `path` (.html or .pdf, atomically). False with the reason in `error`
// (nothing open, a replay still running, an unwritable file, an unknown suffix).
bool exportReportTo(const ReplaySession& session, const ComparisonSlot& comparison,
                    const QString& path, QString* error);

// Asks where (the incident's name + .pdf in the last folder), then writes with a busy cursor;
// errors go to `report_error`. Returns the path written, or an empty string.
QString exportReportDialog(QWidget* parent, const ReplaySession& session,
                           const ComparisonSlot& comparison,
                           const std::function<void(const QString&, const QString&)>& report_error);

}  // namespace breakerlab::app
