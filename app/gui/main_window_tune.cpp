// The window's side of the Tune dock: where it goes when shown, B following the search, and a
// config found made A (kept apart from main_window.cpp, which holds the rest of the window).
#include <QDockWidget>
#include <QLabel>
#include <QUndoStack>

#include "knob_command.h"
#include "main_window.h"
#include "replay_session.h"
#include "tune_panel.h"

namespace breakerlab::app {

void MainWindow::connectTune() {
  // B is whatever the search offers, under the name it gives; the B before the search is kept
  // for Apply to give back (not a search's own B, when a second search starts).
  const auto offerAsB = [this](const QString& name, const Config& config) {
    if (!session_->hasIncident()) return;
    compareWith(
        ComparisonSlot::Choice{name, config, session_->changes(), {}, !session_->changesEdited()});
    tune_b_name_ = name;
  };
  connect(tune_, &TunePanel::started, this, [this] {
    const bool b_is_a_search = !comparison_->isDeployed() && !tune_b_name_.isEmpty() &&
                               comparison_->name() == tune_b_name_;
    if (!b_is_a_search) b_before_tune_ = comparison_->choice();
    status_->setText(tr("Tuning: the best config so far is B"));
  });
  connect(tune_, &TunePanel::bestSoFar, this, offerAsB);
  connect(tune_, &TunePanel::resultChosen, this, offerAsB);
  connect(tune_, &TunePanel::applyRequested, this, &MainWindow::applyFromTune);
  connect(tune_, &TunePanel::searchEnded, this, [this] { status_->setText(tune_->statusText()); });
  connect(session_, &ReplaySession::incidentChanged, this, [this] {
    b_before_tune_.reset();
    tune_b_name_.clear();
  });
  // Closing the dock stops the search, keeping what it found (hidden behind a tab, it goes on).
  connect(tune_dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (!visible && tune_dock_->isHidden()) tune_->stop();
  });
}

void MainWindow::placeTuneDock() {
  // Asked for, not shown by default: a search costs thousands of replays.
  tune_dock_->setFloating(false);
  addDockWidget(Qt::RightDockWidgetArea, tune_dock_);
  tune_dock_->hide();
  docks_shown_[tune_dock_] = false;
}

void MainWindow::showTune() {
  if (!session_->hasIncident()) return;
  placeSideDock(tune_dock_);
}

void MainWindow::applyFromTune(const QString& what, const Config& config) {
  if (!session_->hasIncident()) return;
  // One undo step: A takes the config found, and B goes back to what it was before the search
  // (the deployed config, usually), so the deltas read as the tuning's.
  // `what` names the result ("tuned: Timeout 500ms, …"): the undo step applies it.
  const QString step = tr("apply %1").arg(what);
  undo_->beginMacro(step);
  if (!(session_->config() == config)) {
    undo_->push(new KnobCommand(step, session_->config(), config,
                                [this](const Config& c) { applyConfig(c); }));
    applyConfig(config);
  }
  undo_->push(new ComparisonCommand(
      tr("compare with"), comparison_->choice(), b_before_tune_,
      [this](const std::optional<ComparisonSlot::Choice>& b) { compareWith(b); }));
  compareWith(b_before_tune_);
  undo_->endMacro();
  status_->setText(tr("Applied %1").arg(what));
}

}  // namespace breakerlab::app
