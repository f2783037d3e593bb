#include "report_export.h"

#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <exception>

#include "breakerlab/core/outcome/expectations.h"
#include "comparison_slot.h"
#include "dialog_folders.h"
#include "replay_session.h"
#include "report_file.h"
#include "settings_keys.h"

namespace breakerlab::app {

namespace {

// The override cursor for as long as the report takes (lanes drawn per config, the PDF laid
// out: a few hundred milliseconds).
struct BusyCursor {
  BusyCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
  ~BusyCursor() { QApplication::restoreOverrideCursor(); }
  BusyCursor(const BusyCursor&) = delete;
  BusyCursor& operator=(const BusyCursor&) = delete;
};

}  // namespace

std::vector<ReportRun> reportRuns(const ReplaySession& session, const ComparisonSlot& comparison) {
  const Incident& incident = session.incident();
  std::vector<ReportRun> runs;
  ReportRun deployed{"Deployed config", "", incident, incident.deployed, session.baseline(), {}};
  deployed.checks.calibration = session.calibration();
  deployed.checks.goals = session.baselineGoals();
  deployed.checks.baseline_goals = session.baselineGoals();
  runs.push_back(std::move(deployed));

  if (session.isTuned()) {
    const WhatIf* what_if = session.currentWhatIf();
    ReportRun tuned{
        what_if ? "What-if " + what_if->name : std::string("Current tuning"),
        what_if ? what_if->description : std::string("The knobs as tuned in the workbench"),
        incident,
        session.config(),
        session.result(),
        session.checks()};
    tuned.incident.changes = session.changes();
    runs.push_back(std::move(tuned));
  }
  if (!comparison.isDeployed() && comparison.result() != nullptr) {
    const ComparisonSlot::Choice& b = *comparison.choice();
    ReportRun run{"B: " + b.name.toStdString(),
                  "The A/B comparison's B",
                  incident,
                  b.config,
                  *comparison.result(),
                  {}};
    run.incident.changes = b.changes;
    run.checks.goals = evaluate(incident.goals, run.incident, run.result);
    run.checks.baseline_goals = session.baselineGoals();
    run.checks.regressions = headlineRegressions(session.baseline().metrics, run.result.metrics);
    runs.push_back(std::move(run));
  }
  return runs;
}

bool exportReportTo(const ReplaySession& session, const ComparisonSlot& comparison,
                    const QString& path, QString* error) {
  const auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (!session.hasIncident()) return fail(QObject::tr("No incident is open."));
  if (session.busy() || comparison.busy())
    return fail(QObject::tr("A replay is still running; export the report when it is done."));
  if (!reportFormatOf(path.toStdString()))
    return fail(
        QObject::tr("Unknown report type '%1': use .pdf or .html").arg(QFileInfo(path).suffix()));
  try {
    const std::vector<ReportRun> runs = reportRuns(session, comparison);
    const std::optional<ImportReport> import =
        session.isImported() ? std::optional<ImportReport>(session.importReport()) : std::nullopt;
    const ReportDocument report =
        assembleReport(session.openedIncident(), QFileInfo(session.path()).fileName().toStdString(),
                       import, defaultReportTarget(runs), runs);
    writeReport(report, path.toStdString());
  } catch (const std::exception& e) {
    return fail(QString::fromStdString(e.what()));
  }
  return true;
}

QString exportReportDialog(
    QWidget* parent, const ReplaySession& session, const ComparisonSlot& comparison,
    const std::function<void(const QString&, const QString&)>& report_error) {
  if (!session.hasIncident()) return {};
  const QString folder = dialogFolder(FileKind::exported, DialogMode::save, session.path());
  const QString path = QFileDialog::getSaveFileName(
      parent, QObject::tr("Export Report"),
      QDir(folder).filePath(QString::fromStdString(session.incident().id).toLower() + ".pdf"),
      QObject::tr("PDF document (*.pdf);;HTML page (*.html)"));
  if (path.isEmpty()) return {};
  rememberDialogFolder(FileKind::exported, path);
  QString error;
  bool written = false;
  {
    const BusyCursor busy;
    written = exportReportTo(session, comparison, path, &error);
  }
  if (!written) {
    report_error(QObject::tr("Could not export the report"), error);
    return {};
  }
  return path;
}

}  // namespace breakerlab::app
