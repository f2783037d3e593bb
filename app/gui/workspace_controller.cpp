#include "workspace_controller.h"

#include <map>
#include "breakerlab/views/qt_text.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>
#include <algorithm>
#include <utility>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/workspace_run.h"
#include "main_window.h"
#include "recent_paths.h"
#include "replay_session.h"
#include "settings_keys.h"

namespace breakerlab::app {

namespace {

// What a workspace failure means for the engineer, in a sentence.
QString whatHappened(const WorkspaceError& error) {
  using Kind = WorkspaceError::Kind;
  switch (error.kind()) {
    case Kind::cannot_open:
      return QObject::tr("The workspace file could not be opened.");
    case Kind::not_a_workspace:
      return QObject::tr("The file is not a BreakerLab workspace.");
    case Kind::newer_version:
      return QObject::tr(
          "The workspace was written by a newer version of BreakerLab, which this "
          "version cannot read.");
    case Kind::read_only:
      return QObject::tr("The workspace is read-only, so nothing could be written to it.");
    case Kind::disk_full:
      return QObject::tr(
          "The disk (or the workspace's size limit) is full, so nothing could be "
          "written to it.");
    case Kind::busy:
      return QObject::tr("Another program is writing to the workspace; try again in a moment.");
    case Kind::in_use:
      return QObject::tr("The workspace is open in another BreakerLab.");
    case Kind::corrupt:
      return QObject::tr("SQLite reports that the workspace file is damaged.");
    case Kind::not_found:
      return QObject::tr("That item is no longer in the workspace.");
    case Kind::invalid:
      return QObject::tr("The workspace cannot hold that value.");
    case Kind::io:
      break;
  }
  return QObject::tr("The workspace could not be read or written.");
}

bool sameAutosave(const std::optional<Autosave>& a, const Autosave& b) {
  return a && a->incident_id == b.incident_id && a->inputs == b.inputs;
}

}  // namespace

WorkspaceController::WorkspaceController(MainWindow* window) : QObject(window), window_(window) {
  autosave_timer_.setSingleShot(true);
  autosave_timer_.setInterval(kAutosaveDelayMs);
  connect(&autosave_timer_, &QTimer::timeout, this, &WorkspaceController::writeAutosave);
  connect(&window->session(), &ReplaySession::incidentChanged, this,
          &WorkspaceController::onIncidentChanged);
  connect(&window->session(), &ReplaySession::resultChanged, this,
          &WorkspaceController::onResultChanged);
}

WorkspaceController::~WorkspaceController() {
  // The session may be gone by now: the pending tuning was copied when it changed.
  writeAutosave();
}

QString WorkspaceController::path() const {
  return workspace_ ? QString::fromStdString(workspace_->path().string()) : QString();
}

void WorkspaceController::reportError(const QString& doing, const std::exception& error) {
  QString text;
  if (const auto* w = dynamic_cast<const WorkspaceError*>(&error)) {
    text = whatHappened(*w) + QStringLiteral("\n\n") + QString::fromStdString(w->what());
  } else {
    text = QString::fromStdString(error.what());
  }
  text += QStringLiteral("\n\n") + tr("Nothing already saved in the workspace was lost.");
  emit failed(doing, text);
}

bool WorkspaceController::create(const QString& path) {
  if (workspace_ &&
      QFileInfo(path).absoluteFilePath() == QFileInfo(this->path()).absoluteFilePath()) {
    emit failed(
        tr("Could not create the workspace"),
        tr("%1 is the workspace that is open; choose another file for the new one.").arg(path));
    return false;
  }
  // The file dialog asked before replacing the file; SQLite's journal files go with it. Only
  // files: a device node, a FIFO or a folder at the path is never removed (as root, /dev/null
  // would be).
  for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
    const QFileInfo there(path + suffix);
    if (there.exists() && !there.isFile()) {
      emit failed(tr("Could not create the workspace"),
                  tr("%1 is not a regular file; nothing was changed.").arg(path + suffix));
      return false;
    }
  }
  for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
    if (QFileInfo::exists(path + suffix) && !QFile::remove(path + suffix)) {
      emit failed(tr("Could not create the workspace"),
                  tr("%1 could not be replaced; nothing was changed.").arg(path + suffix));
      return false;
    }
  return open(path);
}

bool WorkspaceController::open(const QString& path) {
  std::unique_ptr<Workspace> opened;
  try {
    opened = std::make_unique<Workspace>(Workspace::open(path.toStdString()));
  } catch (const std::exception& e) {
    QString text;
    if (const auto* w = dynamic_cast<const WorkspaceError*>(&e))
      text = whatHappened(*w) + QStringLiteral("\n\n");
    text += QString::fromStdString(e.what()) + QStringLiteral("\n\n") +
            tr("The workspace was not opened and nothing in it was changed.");
    if (workspace_) text += QLatin1Char(' ') + tr("%1 stays open.").arg(this->path());
    emit failed(tr("Could not open the workspace"), text);
    return false;
  }
  // Before adopting it: the start page lists it when the panel hears of it.
  rememberRecent(QFileInfo(path).absoluteFilePath());
  adopt(std::move(opened));
  return true;
}

void WorkspaceController::adopt(std::unique_ptr<Workspace> workspace) {
  autosave_timer_.stop();
  writeAutosave();
  workspace_ = std::move(workspace);
  incident_id_.reset();
  autosaved_.reset();
  tuned_runs_.clear();
  pending_.reset();
  QSettings().setValue(settings::kLastWorkspace, path());
  if (window_->session().hasIncident()) addOpenIncident();
  std::optional<Autosave> saved;
  try {
    saved = workspace_->autosaved();
  } catch (const std::exception& e) {
    reportError(tr("Could not read the autosaved tuning"), e);
  }
  emit changed();
  const QString name = QFileInfo(path()).fileName();
  // Saving is switched off in a read-only workspace, so its reason is said now or never.
  if (!workspace_->readOnlyReason().empty()) {
    emit notice(
        tr("Opened the workspace %1 read-only: %2.").arg(name, qs(workspace_->readOnlyReason())));
  } else {
    emit notice(workspace_->readOnly() ? tr("Opened the workspace %1 read-only.").arg(name)
                                       : tr("Opened the workspace %1.").arg(name));
  }
  if (saved) {
    autosaved_ = saved;
    QString incident;
    try {
      incident = qs(workspace_->incident(saved->incident_id).name);
    } catch (const std::exception&) {
      incident = tr("an incident");
    }
    const QDateTime at =
        QDateTime::fromString(qs(saved->saved_at), Qt::ISODateWithMs).toLocalTime();
    emit autosaveFound(tr("The tuning of %1 autosaved at %2 was not saved as a config or run.")
                           .arg(incident, QLocale().toString(at, QLocale::ShortFormat)));
  }
}

void WorkspaceController::close() {
  autosave_timer_.stop();
  writeAutosave();
  workspace_.reset();
  incident_id_.reset();
  autosaved_.reset();
  QSettings().remove(settings::kLastWorkspace);
  emit changed();
}

void WorkspaceController::reopenLast() {
  const QString last = QSettings().value(settings::kLastWorkspace).toString();
  if (last.isEmpty() || !QFileInfo::exists(last) || !open(last)) return;
  // Said, not done in silence (the second walkthrough of issue #33): what is saved goes there.
  emit notice(tr("Reopened the workspace %1, the one used last: configs and runs are saved "
                 "there (File ▸ Close Workspace to work without it).")
                  .arg(QFileInfo(last).fileName()));
}

std::optional<std::int64_t> lastUsedIncident(const std::vector<IncidentSummary>& incidents,
                                             std::optional<std::int64_t> autosaved) {
  if (autosaved && std::any_of(incidents.begin(), incidents.end(),
                               [&](const IncidentSummary& i) { return i.id == *autosaved; }))
    return autosaved;
  const IncidentSummary* last = nullptr;
  auto usedAt = [](const IncidentSummary& i) { return std::max(i.last_run_at, i.added_at); };
  for (const IncidentSummary& i : incidents)
    if (last == nullptr || std::pair(usedAt(i), i.id) > std::pair(usedAt(*last), last->id))
      last = &i;
  return last ? std::optional(last->id) : std::nullopt;
}

bool WorkspaceController::openLastIncident() {
  if (!workspace_ || window_->session().hasIncident()) return false;
  try {
    const std::optional<std::int64_t> id =
        lastUsedIncident(workspace_->incidents(),
                         autosaved_ ? std::optional(autosaved_->incident_id) : std::nullopt);
    if (!id) {
      emit notice(tr("Opened the workspace %1. It holds no incident yet: open one to add it.")
                      .arg(QFileInfo(path()).fileName()));
      return false;
    }
    return showStoredIncident(*id, std::nullopt);
  } catch (const std::exception& e) {
    reportError(tr("Could not open the workspace's incident"), e);
  }
  return false;
}

void WorkspaceController::rememberRecent(const QString& path) {
  app::rememberRecent(settings::kRecentWorkspaces, path);
}

void WorkspaceController::addOpenIncident() {
  const ReplaySession& session = window_->session();
  incident_id_.reset();
  try {
    const StoredIncident stored = storedIncidentOf(
        ImportedIncident{session.openedIncident(), session.importReport(), session.source()},
        session.path().toStdString());
    incident_id_ = addIncidentOnce(*workspace_, stored);
  } catch (const std::exception& e) {
    reportError(tr("Could not add the incident to the workspace"), e);
  }
}

void WorkspaceController::onIncidentChanged() {
  autosave_timer_.stop();
  writeAutosave();  // the last change of the incident before
  if (restoring_) {
    incident_id_ = restoring_;
  } else if (workspace_) {
    addOpenIncident();
  } else {
    incident_id_.reset();
  }
  if (workspace_) emit changed();
}

RunInputs WorkspaceController::currentInputs() const {
  const ReplaySession& session = window_->session();
  RunInputs inputs;
  if (!session.hasIncident()) return inputs;
  inputs.config = session.config();
  inputs.seed = session.openedIncident().seed;
  if (session.changesEdited()) inputs.changes = session.changes();
  inputs.scenario = session.scenario();
  return inputs;
}

void WorkspaceController::onResultChanged() {
  if (!workspace_ || !incident_id_ || restoring_ || workspace_->readOnly()) return;
  const Incident& opened = window_->session().openedIncident();
  Autosave next{*incident_id_, currentInputs(), {}};
  if (sameAutosave(pending_ ? pending_ : autosaved_, next)) return;
  // Back on the deployed config nothing is left to restore.
  pending_deployed_ = !next.inputs.changes && next.inputs.scenario.empty() &&
                      next.inputs.config == opened.deployed && next.inputs.seed == opened.seed;
  pending_ = std::move(next);
  autosave_timer_.start();
}

void WorkspaceController::writeAutosave() {
  if (!pending_ || !workspace_) return;
  Autosave state = std::move(*pending_);
  pending_.reset();
  if (sameAutosave(autosaved_, state)) return;
  try {
    if (pending_deployed_)
      workspace_->clearAutosave();
    else
      workspace_->autosave(state);
    autosaved_ = std::move(state);
  } catch (const std::exception& e) {
    reportError(tr("Could not autosave the tuning"), e);
  }
}

void WorkspaceController::flushAutosave() {
  autosave_timer_.stop();
  writeAutosave();
}

bool WorkspaceController::waitForWholeReplay() {
  // No event loop is spun here: the workspace, the incident or the window itself could go away
  // under a nested loop. A replay still running is said, and Save Run is made again after it.
  const ReplaySession& session = window_->session();
  return !session.busy() && !session.partialUntil();
}

bool WorkspaceController::keepsCurrentTuning() const {
  if (!workspace_ || !incident_id_) return false;
  const RunInputs inputs = currentInputs();
  const auto holds = [&](const Autosave& saved) {
    return saved.incident_id == *incident_id_ && saved.inputs == inputs;
  };
  return (kept_ && holds(*kept_)) || std::any_of(tuned_runs_.begin(), tuned_runs_.end(), holds);
}

std::optional<std::int64_t> WorkspaceController::saveConfigAs(const QString& name) {
  if (!workspace_ || !incident_id_) return std::nullopt;
  if (name.trimmed().isEmpty()) {
    emit failed(tr("Could not save the config"), tr("A named config needs a name."));
    return std::nullopt;
  }
  try {
    const std::int64_t id = workspace_->saveConfig(*incident_id_, name.trimmed().toStdString(),
                                                   window_->session().config());
    // A named config holds the config only: moved changes or a scenario stay autosaved.
    const RunInputs inputs = currentInputs();
    if (!inputs.changes && inputs.scenario.empty()) {
      workspace_->clearAutosave();
      autosaved_ = Autosave{*incident_id_, inputs, {}};
      kept_ = autosaved_;
    }
    emit changed();
    emit notice(tr("Saved the config “%1” in the workspace.").arg(name.trimmed()));
    return id;
  } catch (const std::exception& e) {
    reportError(tr("Could not save the config"), e);
  }
  return std::nullopt;
}

std::optional<std::int64_t> WorkspaceController::saveRun(const QString& name) {
  if (!workspace_ || !incident_id_) return std::nullopt;
  // A run keeps the whole replay's metrics, never a progressive answer's.
  if (!waitForWholeReplay()) {
    emit failed(tr("Could not save the run yet"),
                tr("The replay is still running, so there is no whole answer to save. Save the "
                   "run again when it has finished. Nothing already saved in the workspace was "
                   "lost."));
    return std::nullopt;
  }
  const ReplaySession& session = window_->session();
  try {
    const RunInputs inputs = currentInputs();
    ReplayedRun replayed{incidentForRun(session.openedIncident(), inputs), session.result(),
                         session.checks(), metricsJsonOf(session.incident(), session.result())};
    const std::int64_t id =
        storeRun(newRunOf(*incident_id_, inputs, replayed, name.trimmed().toStdString()));
    workspace_->clearAutosave();
    autosaved_ = Autosave{*incident_id_, inputs, {}};
    kept_ = autosaved_;
    emit changed();
    emit notice(tr("Saved the run in the workspace."));
    return id;
  } catch (const std::exception& e) {
    reportError(tr("Could not save the run"), e);
  }
  return std::nullopt;
}

std::int64_t WorkspaceController::storeRun(NewRun run) {
  run.incident_id = *incident_id_;
  // A run of a config kept by name refers to it.
  for (const StoredConfig& c : workspace_->configs(*incident_id_))
    if (c.config == run.inputs.config) {
      run.config_id = c.id;
      break;
    }
  return workspace_->saveRun(run);
}

std::optional<std::int64_t> WorkspaceController::saveReplayedRun(const QString& name, NewRun run) {
  if (!workspace_ || !incident_id_) return std::nullopt;
  try {
    run.name = name.trimmed().toStdString();
    const Autosave saved{*incident_id_, run.inputs, {}};
    const std::int64_t id = storeRun(std::move(run));
    tuned_runs_.push_back(saved);
    emit changed();
    return id;
  } catch (const std::exception& e) {
    reportError(tr("Could not save the tuned config's run"), e);
  }
  return std::nullopt;
}

bool WorkspaceController::showStoredIncident(std::int64_t incident_id,
                                             std::optional<std::uint64_t> seed) {
  const ReplaySession& session = window_->session();
  if (session.hasIncident() && incident_id_ == incident_id &&
      (!seed || session.openedIncident().seed == *seed))
    return true;
  Incident incident = restoreIncident(workspace_->incident(incident_id));
  if (seed) incident.seed = *seed;
  const QString name = qs(workspace_->incident(incident_id).source_name);
  restoring_ = incident_id;
  bool shown = false;
  try {
    shown = window_->openRestoredIncident(std::move(incident), name);
  } catch (...) {
    restoring_.reset();
    throw;
  }
  restoring_.reset();
  return shown;
}

bool WorkspaceController::applyInputs(const QString& what, const RunInputs& inputs) {
  const Incident replayed = incidentForRun(window_->session().openedIncident(), inputs);
  return window_->applyTuning(what, inputs.config, replayed.changes, inputs.scenario);
}

bool WorkspaceController::openRun(std::int64_t run_id) {
  if (!workspace_) return false;
  try {
    const StoredRun run = workspace_->run(run_id);
    if (!showStoredIncident(run.incident_id, run.inputs.seed)) return false;
    const QString name = run.name.empty() ? tr("run %1").arg(run.id) : qs(run.name);
    if (!applyInputs(tr("open %1").arg(name), run.inputs)) return false;
    emit notice(tr("Replayed %1 as it was saved.").arg(name));
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Could not open the run"), e);
  }
  return false;
}

bool WorkspaceController::openConfig(std::int64_t config_id) {
  if (!workspace_) return false;
  try {
    const StoredConfig config = workspace_->config(config_id);
    if (!showStoredIncident(config.incident_id, std::nullopt)) return false;
    const ReplaySession& session = window_->session();
    if (!window_->applyTuning(tr("config %1").arg(qs(config.name)), config.config,
                              session.changes(), session.scenario()))
      return false;
    emit notice(tr("Applied the config “%1”.").arg(qs(config.name)));
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Could not open the config"), e);
  }
  return false;
}

bool WorkspaceController::openItem(const WorkspaceItem& item) {
  switch (item.kind) {
    case WorkspaceItem::Kind::run:
      return openRun(item.id);
    case WorkspaceItem::Kind::config:
      return openConfig(item.id);
    case WorkspaceItem::Kind::incident:
      try {
        return workspace_ && showStoredIncident(item.id, std::nullopt);
      } catch (const std::exception& e) {
        reportError(tr("Could not open the incident"), e);
      }
      return false;
    default:
      return false;
  }
}

bool WorkspaceController::compareWithCurrent(const WorkspaceItem& item) {
  if (!workspace_) return false;
  const ReplaySession& session = window_->session();
  if (!session.hasIncident() || incident_id_ != item.incident_id) {
    emit failed(tr("Could not compare"),
                tr("Only a config or run of the open incident can be compared with it; open its "
                   "incident first."));
    return false;
  }
  try {
    const std::optional<ComparisonSlot::Choice> b = choiceOf(item);
    if (!b) return false;
    if (item.kind == WorkspaceItem::Kind::run) {
      const StoredRun run = workspace_->run(item.id);
      if (run.inputs.seed != session.openedIncident().seed ||
          !(run.inputs.scenario == session.scenario()))
        emit notice(tr("B (%1) is replayed with A's seed and scenario.").arg(b->name));
    }
    window_->compareWith(b);
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Could not compare"), e);
  }
  return false;
}

std::optional<ComparisonSlot::Choice> WorkspaceController::choiceOf(
    const WorkspaceItem& item) const {
  const ReplaySession& session = window_->session();
  if (item.kind == WorkspaceItem::Kind::config) {
    const StoredConfig config = workspace_->config(item.id);
    return ComparisonSlot::Choice{tr("config %1").arg(qs(config.name)),
                                  config.config,
                                  session.changes(),
                                  {},
                                  !session.changesEdited()};
  }
  if (item.kind == WorkspaceItem::Kind::run) {
    const StoredRun run = workspace_->run(item.id);
    const QString name = run.name.empty() ? tr("run %1").arg(run.id) : qs(run.name);
    return ComparisonSlot::Choice{name,
                                  run.inputs.config,
                                  run.inputs.changes.value_or(session.incident().changes),
                                  {},
                                  !run.inputs.changes};
  }
  return std::nullopt;
}

std::vector<ComparisonSlot::Choice> WorkspaceController::comparisonChoices() const {
  std::vector<ComparisonSlot::Choice> choices;
  if (!workspace_ || !incident_id_ || !window_->session().hasIncident()) return choices;
  try {
    for (const StoredConfig& c : workspace_->configs(*incident_id_))
      if (auto choice = choiceOf({WorkspaceItem::Kind::config, c.id, *incident_id_}))
        choices.push_back(std::move(*choice));
    RunFilter filter;
    filter.incident_id = *incident_id_;
    const std::vector<RunSummary> runs = workspace_->runs(filter);
    std::map<QString, int> runs_named;
    std::vector<ComparisonSlot::Choice> run_choices;
    for (const RunSummary& r : runs)
      if (auto choice = choiceOf({WorkspaceItem::Kind::run, r.id, *incident_id_})) {
        ++runs_named[choice->name];
        run_choices.push_back(std::move(*choice));
      }
    // Runs saved under one name are told apart by their numbers, which do not change as more
    // are saved.
    for (std::size_t i = 0; i < run_choices.size(); ++i) {
      ComparisonSlot::Choice& choice = run_choices[i];
      if (runs_named[choice.name] > 1)
        choice.name = tr("%1 (run %2)").arg(choice.name).arg(runs[i].id);
      choices.push_back(std::move(choice));
    }
  } catch (const std::exception&) {
    // A workspace that cannot be read offers nothing here; the panel says why.
  }
  return choices;
}

bool WorkspaceController::compareTwo(const WorkspaceItem& a, const WorkspaceItem& b) {
  using Kind = WorkspaceItem::Kind;
  const auto comparable = [](const WorkspaceItem& i) {
    return i.kind == Kind::config || i.kind == Kind::run;
  };
  if (!comparable(a) || !comparable(b) || a.incident_id != b.incident_id) {
    emit failed(tr("Could not compare"),
                tr("Choose two configs or runs of the same incident to compare."));
    return false;
  }
  return openItem(a) && compareWithCurrent(b);
}

bool WorkspaceController::restoreAutosave() {
  if (!workspace_) return false;
  try {
    const std::optional<Autosave> saved = workspace_->autosaved();
    if (!saved) return false;
    if (!showStoredIncident(saved->incident_id, saved->inputs.seed)) return false;
    if (!applyInputs(tr("restore the autosaved tuning"), saved->inputs)) return false;
    autosaved_ = saved;
    emit notice(tr("Restored the tuning you were working on."));
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Could not restore the autosaved tuning"), e);
  }
  return false;
}

std::string WorkspaceController::note(const NoteTarget& target) const {
  if (!workspace_) return {};
  try {
    return workspace_->note(target);
  } catch (const std::exception&) {
    return {};  // a note that no longer reads shows empty; writing it reports the problem
  }
}

bool WorkspaceController::setNote(const NoteTarget& target, const QString& text) {
  if (!workspace_) return false;
  try {
    if (workspace_->note(target) == text.toStdString()) return true;
    workspace_->setNote(target, text.toStdString());
    return true;
  } catch (const std::exception& e) {
    reportError(tr("Could not save the note"), e);
  }
  return false;
}

}  // namespace breakerlab::app
