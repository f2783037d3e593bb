// The window's side of the workspace: its dialogs and the hooks the workspace controller uses
// (kept apart from main_window.cpp, which holds the rest of the window).
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QUndoStack>

#include "breakerlab/data/workspace.h"
#include "breakerlab/views/knob_panel.h"
#include "breakerlab/views/scenario_panel.h"
#include "changes_command.h"
#include "dialog_folders.h"
#include "knob_command.h"
#include "main_window.h"
#include "recent_paths.h"
#include "replay_session.h"
#include "scenario_command.h"
#include "settings_keys.h"
#include "start_page.h"
#include "workspace_controller.h"

namespace breakerlab::app {

namespace {
QString workspaceFilter() {
  return QObject::tr("BreakerLab workspaces (*.breakerlab);;All files (*)");
}
}  // namespace

bool MainWindow::applyTuning(const QString& what, const Config& config,
                             const std::vector<TimedChange>& changes, const Scenario& scenario) {
  if (!session_->hasIncident()) return false;
  // The scenario first: it decides which incident the changes and the config replay on.
  const Scenario scenario_before = session_->scenario();
  QString error;
  if (!session_->setScenario(scenario, &error)) {
    report_error_(tr("Could not apply the scenario"), error);
    return false;
  }
  undo_->beginMacro(what);
  if (!(scenario_before == scenario)) {
    scenario_->setScenario(scenario);
    undo_->push(new ScenarioCommand(scenario_before, scenario,
                                    [this](const Scenario& s) { applyScenario(s); }));
  }
  if (!(session_->changes() == changes)) {
    undo_->push(new ChangesCommand(session_->changes(), changes,
                                   [this](const std::vector<TimedChange>& c) { applyChanges(c); }));
    applyChanges(changes);
  }
  if (!(session_->config() == config)) {
    undo_->push(new KnobCommand(what, session_->config(), config,
                                [this](const Config& c) { applyConfig(c); }));
    applyConfig(config);
  }
  undo_->endMacro();
  return true;
}

bool MainWindow::openRestoredIncident(Incident incident, const QString& path) {
  if (!confirmDiscardTuning()) return false;
  session_->adopt(std::move(incident), path);
  return true;
}

void MainWindow::refreshRecentWorkspaces() {
  QStringList files = QSettings().value(settings::kRecentWorkspaces).toStringList();
  // A workspace moved or deleted since is not offered.
  files.erase(std::remove_if(files.begin(), files.end(),
                             [](const QString& f) { return !QFileInfo::exists(f); }),
              files.end());
  start_->setRecentWorkspaces(files);
}

void MainWindow::newWorkspaceDialog() {
  const QString folder = dialogFolder(FileKind::workspace, DialogMode::save, session_->path());
  QString path = QFileDialog::getSaveFileName(
      this, tr("New Workspace"), QDir(folder).filePath(QStringLiteral("incidents.breakerlab")),
      workspaceFilter());
  if (path.isEmpty()) return;
  if (!path.endsWith(QString::fromLatin1(kWorkspaceSuffix.data(),
                                         static_cast<qsizetype>(kWorkspaceSuffix.size()))))
    path += QString::fromLatin1(kWorkspaceSuffix.data(),
                                static_cast<qsizetype>(kWorkspaceSuffix.size()));
  if (workspace_->create(path)) {
    rememberDialogFolder(FileKind::workspace, path);
    workspace_dock_->show();
    workspace_dock_->raise();
  }
}

void MainWindow::openWorkspaceDialog() {
  const QString folder = dialogFolder(FileKind::workspace, DialogMode::open, session_->path());
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Workspace"), folder, workspaceFilter());
  if (path.isEmpty() || !workspace_->open(path)) return;
  rememberDialogFolder(FileKind::workspace, path);
  workspace_dock_->show();
  workspace_dock_->raise();
}

void MainWindow::saveConfigAsDialog() {
  if (!session_->hasIncident() || !workspace_->isOpen() || !workspace_->currentIncident()) return;
  const WhatIf* what_if = session_->currentWhatIf();
  bool ok = false;
  const QString name = QInputDialog::getText(
      this, tr("Save Config As"),
      tr("Name the config; it is kept in the workspace with %1.")
          .arg(QString::fromStdString(session_->incident().id)),
      QLineEdit::Normal, what_if ? QString::fromStdString(what_if->name) : QString(), &ok);
  if (!ok || name.trimmed().isEmpty()) return;
  std::vector<StoredConfig> kept;
  try {
    kept = workspace_->workspace()->configs(*workspace_->currentIncident());
  } catch (const WorkspaceError& e) {
    emit workspace_->failed(tr("Could not read the workspace's configs"),
                            QString::fromUtf8(e.what()));
    return;
  }
  for (const StoredConfig& c : kept)
    if (QString::fromStdString(c.name) == name.trimmed() &&
        QMessageBox::question(this, tr("Replace the config?"),
                              tr("A config named “%1” is already kept for this incident. Replace "
                                 "it with the current one?")
                                  .arg(name.trimmed()),
                              QMessageBox::Yes | QMessageBox::Cancel,
                              QMessageBox::Cancel) != QMessageBox::Yes)
      return;
  if (workspace_->saveConfigAs(name)) exported_since_tuning_ = true;
}

void MainWindow::saveRunDialog() {
  if (!session_->hasIncident() || !workspace_->isOpen()) return;
  bool ok = false;
  const WhatIf* what_if = session_->currentWhatIf();
  const QString name = QInputDialog::getText(
      this, tr("Save Run"),
      tr("Name the run (optional); the workspace keeps its metrics and checks."), QLineEdit::Normal,
      what_if ? QString::fromStdString(what_if->name) : QString(), &ok);
  if (!ok) return;
  if (workspace_->saveRun(name)) exported_since_tuning_ = true;
}

}  // namespace breakerlab::app
