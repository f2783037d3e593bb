// The window's side of the Sensitivity dock: where it goes when shown, and a cell of the map
// applied to the knobs (kept apart from main_window.cpp, which holds the rest of the window).
#include <QDockWidget>
#include <QLabel>
#include <QUndoStack>
#include <algorithm>

#include "knob_command.h"
#include "main_window.h"
#include "replay_session.h"
#include "sensitivity_panel.h"

namespace breakerlab::app {

void MainWindow::connectSensitivity() {
  connect(sensitivity_, &SensitivityPanel::applyRequested, this,
          [this](const QString& what, const Config& after) { applyFromSensitivity(what, after); });
  // Closing the dock stops a map computing (hidden behind a tab, it goes on).
  connect(sensitivity_dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (!visible && sensitivity_dock_->isHidden()) sensitivity_->cancel();
  });
}

void MainWindow::placeSensitivityDock() {
  // Asked for, not shown by default: a map costs a few hundred replays.
  sensitivity_dock_->setFloating(false);
  addDockWidget(Qt::RightDockWidgetArea, sensitivity_dock_);
  sensitivity_dock_->hide();
  docks_shown_[sensitivity_dock_] = false;
}

void MainWindow::stackUnderMetrics(QDockWidget* dock) {
  // Tune and the map share one place under the metrics, as tabs: stacked, each had a third of
  // the column at 1920 x 1080 and Tune's buttons went below it (the second walkthrough of #33).
  for (QDockWidget* other : {sensitivity_dock_, tune_dock_}) {
    if (other != nullptr && other != dock && !other->isHidden() && !other->isFloating() &&
        dockWidgetArea(other) == Qt::RightDockWidgetArea) {
      tabifyDockWidget(other, dock);
      dock->show();
      dock->raise();
      return;
    }
  }
  splitDockWidget(metrics_dock_, dock, Qt::Vertical);
  const int h = std::max(height(), 600);
  resizeDocks({metrics_dock_, dock}, {h * 2 / 5, h * 3 / 5}, Qt::Vertical);
}

void MainWindow::showSensitivity() {
  if (!session_->hasIncident()) return;
  placeSideDock(sensitivity_dock_);
}

void MainWindow::placeSideDock(QDockWidget* dock) {
  if (dock->isHidden() && !dock->isFloating()) {
    // A wide window: under the metrics in the right-hand column. A narrow one has no width to
    // spare beside the lanes: a tab beside the knobs, whose column is as wide as a map needs
    // (a click on a cell shows in the lanes; the knobs are a tab away).
    const bool under_metrics = width() >= kSideBySideWidth && !metrics_dock_->isHidden() &&
                               !metrics_dock_->isFloating() &&
                               dockWidgetArea(metrics_dock_) == Qt::RightDockWidgetArea;
    if (under_metrics) {
      dock->show();
      stackUnderMetrics(dock);
    } else if (!knobs_dock_->isFloating()) {
      tabifyDockWidget(knobs_dock_, dock);
      dock->show();
    } else {
      addDockWidget(Qt::RightDockWidgetArea, dock);
      dock->show();
    }
  }
  dock->show();
  dock->raise();
  docks_shown_[dock] = true;
}

void MainWindow::applyFromSensitivity(const QString& what, const Config& after) {
  if (!session_->hasIncident() || after == session_->config()) return;
  // A macro of its own: two cells clicked in a row are two undo steps, never merged as the
  // steps of one drag are.
  undo_->beginMacro(what);
  undo_->push(new KnobCommand(what, session_->config(), after,
                              [this](const Config& c) { applyConfig(c); }));
  applyConfig(after);
  undo_->endMacro();
  status_->setText(tr("Applied %1").arg(what));
}

}  // namespace breakerlab::app
