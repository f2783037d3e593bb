#include "tune_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/tuning/tune_setup.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/views/knob_spin_box.h"
#include "breakerlab/views/qt_text.h"
#include "breakerlab/views/sensitivity_text.h"
#include "breakerlab/views/wheel_guard.h"
#include "replay_session.h"
#include "workspace_controller.h"

namespace breakerlab::app {

namespace {

// A metric's value as the metrics panel writes it ("0 s", "2.049 s"); "—" when undefined.
QString objectiveText(const MetricInfo& metric, double value) {
  return std::isfinite(value) ? views::metricValueText(metric, value) : QStringLiteral("—");
}

}  // namespace

TunePanel::TunePanel(ReplaySession* session, WorkspaceController* workspace, QWidget* parent)
    : QWidget(parent), session_(session), workspace_(workspace), job_(new TuneJob(this)) {
  library_ = new QComboBox;
  library_->setObjectName(QStringLiteral("tune-library"));
  library_->setToolTip(tr("Whose breaker the knobs tune; the result is in its settings"));
  connect(library_, &QComboBox::activated, this, [this] { onLibraryChosen(); });

  knob_grid_ = new QGridLayout;
  knob_grid_->setContentsMargins(0, 0, 0, 0);
  knob_grid_->setHorizontalSpacing(4);
  knob_grid_->setVerticalSpacing(2);
  add_knob_ = new QComboBox;
  add_knob_->setObjectName(QStringLiteral("tune-add-knob"));
  add_knob_->setToolTip(tr("Search another knob too, over its whole range"));
  add_knob_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  add_knob_->setMinimumContentsLength(12);
  connect(add_knob_, &QComboBox::activated, this, [this](int index) {
    const QString id = add_knob_->itemData(index).toString();
    add_knob_->setCurrentIndex(0);
    if (!id.isEmpty()) addKnob(id);
  });

  incident_goals_ = new QCheckBox(tr("The incident's goals"));
  incident_goals_->setObjectName(QStringLiteral("tune-incident-goals"));
  incident_goals_->setChecked(true);
  incident_goals_->setToolTip(tr("Hold every config to the goals written in the incident"));
  // The goals themselves wrap under the box: a check box's text does not, and would be cut off.
  incident_goals_list_ = new QLabel;
  incident_goals_list_->setObjectName(QStringLiteral("tune-incident-goals-list"));
  incident_goals_list_->setWordWrap(true);
  incident_goals_list_->setIndent(20);
  extra_goals_ = new QLineEdit;
  extra_goals_->setObjectName(QStringLiteral("tune-goals"));
  extra_goals_->setPlaceholderText(tr("more goals: failed_checkouts == 0; …"));
  extra_goals_->setToolTip(
      tr("Goals beside the incident's, as METRIC OP VALUE, separated by ';' (as tune --goal)"));

  objective_ = new QComboBox;
  objective_->setObjectName(QStringLiteral("tune-minimize"));
  second_objective_ = new QComboBox;
  second_objective_->setObjectName(QStringLiteral("tune-minimize-2"));
  second_objective_->setToolTip(
      tr("A second metric: the result is the Pareto front of the two (none better on both)"));
  for (QComboBox* box : {objective_, second_objective_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }

  budget_ = new QSpinBox;
  budget_->setObjectName(QStringLiteral("tune-budget"));
  budget_->setRange(1, kMaxBudget);
  budget_->setValue(kDefaultBudget);
  budget_->setGroupSeparatorShown(true);
  budget_->setToolTip(tr("Configs replayed at most (tune --budget)"));
  seed_ = new QSpinBox;
  seed_->setObjectName(QStringLiteral("tune-seed"));
  seed_->setRange(0, 1'000'000);
  seed_->setValue(1);
  seed_->setToolTip(tr("The search's seed (tune --seed): the same seed finds the same configs"));
  // The dock scrolls: a wheel over a box scrolls it, and changes the box only once it has focus
  // (a user scrolling to read the status changed the second objective without noticing).
  for (QWidget* box : std::initializer_list<QWidget*>{library_, add_knob_, objective_,
                                                      second_objective_, budget_, seed_})
    views::takeWheelOnlyWithFocus(box);

  start_ = new QPushButton(tr("Tune"));
  start_->setObjectName(QStringLiteral("tune-start"));
  connect(start_, &QPushButton::clicked, this, [this] { busy() ? stop() : start(); });
  apply_ = new QPushButton(tr("Apply"));
  apply_->setObjectName(QStringLiteral("tune-apply"));
  apply_->setToolTip(tr("Make the chosen config A (one undo step)"));
  connect(apply_, &QPushButton::clicked, this, &TunePanel::apply);

  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("tune-progress"));
  progress_->setTextVisible(true);
  progress_->setMaximumHeight(progress_->fontMetrics().height() + 4);
  progress_->hide();

  results_ = new QListWidget;
  results_->setObjectName(QStringLiteral("tune-results"));
  results_->setWordWrap(true);
  results_->setToolTip(tr("The configs found; the one chosen is B"));
  connect(results_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (!outcome_ || row < 0 || static_cast<std::size_t>(row) >= outcome_->configs.size()) return;
    emit resultChosen(shortName(static_cast<std::size_t>(row)),
                      outcome_->configs[static_cast<std::size_t>(row)]);
    updateButtons();
  });

  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("tune-status"));
  status_->setWordWrap(true);
  notice_ = new QLabel;
  notice_->setObjectName(QStringLiteral("tune-notice"));
  notice_->setWordWrap(true);
  notice_->hide();

  best_timer_ = new QTimer(this);
  best_timer_->setSingleShot(true);
  best_timer_->setInterval(kBestSoFarIntervalMs);
  connect(best_timer_, &QTimer::timeout, this, [this] {
    if (!best_pending_ || !busy()) return;
    emit bestSoFar(tr("tune: best so far"), *best_pending_);
    best_pending_.reset();
    best_timer_->start();
  });

  auto* form = new QFormLayout;
  form->setContentsMargins(0, 0, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  form->addRow(tr("Library"), library_);
  auto* knobs_box = new QVBoxLayout;
  knobs_box->setContentsMargins(0, 0, 0, 0);
  knobs_box->addLayout(knob_grid_);
  knobs_box->addWidget(add_knob_);
  form->addRow(tr("Knobs"), knobs_box);
  auto* goals_box = new QVBoxLayout;
  goals_box->setContentsMargins(0, 0, 0, 0);
  goals_box->addWidget(incident_goals_);
  goals_box->addWidget(incident_goals_list_);
  goals_box->addWidget(extra_goals_);
  form->addRow(tr("Goals"), goals_box);
  auto* minimise_box = new QVBoxLayout;
  minimise_box->setContentsMargins(0, 0, 0, 0);
  minimise_box->addWidget(objective_);
  minimise_box->addWidget(second_objective_);
  form->addRow(tr("Minimise"), minimise_box);
  auto* budget_row = new QHBoxLayout;
  budget_row->setContentsMargins(0, 0, 0, 0);
  budget_row->addWidget(budget_, 1);
  budget_row->addWidget(new QLabel(tr("seed")));
  budget_row->addWidget(seed_);
  form->addRow(tr("Budget"), budget_row);

  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(start_);
  buttons->addWidget(apply_);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(4);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(notice_);
  layout->addWidget(results_, 1);
  layout->addWidget(status_);

  connect(job_, &TuneJob::progress, this, &TunePanel::onProgress);
  connect(job_, &TuneJob::finished, this, &TunePanel::onFinished);
  connect(job_, &TuneJob::failed, this, [this](const QString& reason) {
    progress_->hide();
    best_timer_->stop();
    updateButtons();
    status_->setText(tr("The search stopped on an error: %1").arg(reason));
    emit searchEnded();
  });
  connect(session_, &ReplaySession::incidentChanged, this, &TunePanel::onIncidentChanged);
  connect(session_, &ReplaySession::resultChanged, this, &TunePanel::followLibraryOfA);
  fillLibraries();
  if (session_->hasIncident()) onIncidentChanged();
  updateButtons();
}

TunePanel::~TunePanel() = default;

void TunePanel::fillLibraries() {
  library_->clear();
  for (const auto& info : kBreakerLibraries)
    library_->addItem(qs(info.title), static_cast<int>(info.id));
}

BreakerLibrary TunePanel::library() const {
  return static_cast<BreakerLibrary>(library_->currentData().toInt());
}

bool TunePanel::searchable(const KnobSpec& knob) const {
  // Every knob of the chosen library's breaker or of every library, but the choice of breaker
  // itself (the search is in one library's settings).
  return knob.editable() && knob.id != "breaker.library" &&
         (!knob.library || *knob.library == library());
}

void TunePanel::onIncidentChanged() {
  // Nothing of the incident before stays: not its results, nor the search running.
  job_->discard();
  best_timer_->stop();
  best_pending_.reset();
  outcome_.reset();
  results_->clear();
  progress_->hide();
  status_->clear();
  notice_->hide();
  if (session_->hasIncident()) {
    fillObjectives();
    updateGoals();
    followed_library_ = session_->config().breaker.library;
    chooseLibrary(*followed_library_);
  }
  updateButtons();
}

void TunePanel::followLibraryOfA() {
  if (!session_->hasIncident()) return;
  const BreakerLibrary a = session_->config().breaker.library;
  if (followed_library_ == a) return;  // a knob moved: the dock keeps the user's choice
  followed_library_ = a;
  // A search running keeps its library: its results are in that library's settings.
  if (!busy() && library() != a) chooseLibrary(a);
}

bool TunePanel::chooseLibrary(BreakerLibrary library) {
  const int index = library_->findData(static_cast<int>(library));
  if (index < 0) return false;
  library_->setCurrentIndex(index);
  onLibraryChosen();
  return true;
}

void TunePanel::onLibraryChosen() {
  clearKnobRows();
  const std::vector<KnobRange> knobs = session_->hasIncident()
                                           ? defaultSearchKnobs(library(), session_->config())
                                           : defaultSearchKnobs(library());
  for (const KnobRange& range : knobs) addKnobRow(range);
  layOutKnobRows();
  fillAddKnob();
}

void TunePanel::fillAddKnob() {
  add_knob_->clear();
  add_knob_->addItem(tr("Add a knob…"), QString());
  auto* model = qobject_cast<QStandardItemModel*>(add_knob_->model());
  std::string_view group;
  for (const KnobSpec& knob : knobSpecs()) {
    if (!searchable(knob)) continue;
    if (std::any_of(rows_.begin(), rows_.end(), [&](const KnobRow& r) { return r.knob == &knob; }))
      continue;
    if (knob.group != group) {
      // The knob panel's groups as headings in the list.
      group = knob.group;
      add_knob_->addItem(qs(group));
      if (model != nullptr) model->item(add_knob_->count() - 1)->setFlags(Qt::NoItemFlags);
    }
    add_knob_->addItem(QStringLiteral("   ") + qs(knob.label), qs(knob.id));
    add_knob_->setItemData(add_knob_->count() - 1, qs(knob.tip), Qt::ToolTipRole);
  }
  add_knob_->setCurrentIndex(0);
}

void TunePanel::clearKnobRows() {
  // Out of the grid at once, so the next rows take their places; deleted later, as a row's ✕
  // is the button whose click removes it.
  for (const KnobRow& r : rows_)
    for (QWidget* w : std::initializer_list<QWidget*>{r.name, r.low, r.high, r.log, r.remove})
      if (w != nullptr) {
        knob_grid_->removeWidget(w);
        w->hide();
        w->deleteLater();
      }
  rows_.clear();
}

void TunePanel::addKnobRow(const KnobRange& range) {
  KnobRow row;
  row.knob = range.knob;
  row.name = new QLabel(qs(range.knob->label));
  row.name->setToolTip(qs(range.knob->id) + QStringLiteral(": ") + qs(range.knob->tip));
  row.remove = new QToolButton;
  row.remove->setText(QStringLiteral("✕"));
  row.remove->setAutoRaise(true);
  row.remove->setToolTip(tr("Do not search this knob"));
  const KnobSpec* knob = range.knob;
  connect(row.remove, &QToolButton::clicked, this, [this, knob] { removeKnobRow(knob); });
  if (range.knob->kind == KnobSpec::Kind::number) {
    row.low = new views::KnobSpinBox;
    row.high = new views::KnobSpinBox;
    for (views::KnobSpinBox* spin : {row.low, row.high}) {
      spin->setRangeEndOf(*range.knob);
      spin->setKeyboardTracking(false);
      spin->setMinimumWidth(64);
      views::takeWheelOnlyWithFocus(spin);
    }
    row.low->setValue(range.low);
    row.high->setValue(range.high);
    row.low->setToolTip(tr("The range's low end"));
    row.high->setToolTip(tr("The range's high end (included)"));
    row.log = new QCheckBox(tr("log"));
    row.log->setChecked(range.log);
    row.log->setToolTip(tr("Spread the values by ratio (1..100 puts 10 in the middle)"));
  } else {
    // A switch or a choice is searched over all its values.
    row.name->setText(tr("%1 (every value)").arg(qs(range.knob->label)));
  }
  rows_.push_back(row);
}

void TunePanel::removeKnobRow(const KnobSpec* knob) {
  std::vector<KnobRange> kept = knobs();
  std::erase_if(kept, [knob](const KnobRange& r) { return r.knob == knob; });
  setKnobs(kept);
}

void TunePanel::layOutKnobRows() {
  // Each knob on two lines: its name, then its range, so the dock can be as narrow as the knobs'.
  int line = 0;
  for (const KnobRow& r : rows_) {
    knob_grid_->addWidget(r.name, line, 0, 1, 4);
    knob_grid_->addWidget(r.remove, line, 4);
    ++line;
    if (r.low != nullptr) {
      knob_grid_->addWidget(r.low, line, 0);
      knob_grid_->addWidget(r.high, line, 1);
      knob_grid_->addWidget(r.log, line, 2);
      ++line;
    }
  }
  knob_grid_->setColumnStretch(0, 1);
  knob_grid_->setColumnStretch(1, 1);
}

bool TunePanel::setKnobs(const std::vector<KnobRange>& knobs) {
  if (std::any_of(knobs.begin(), knobs.end(),
                  [this](const KnobRange& r) { return r.knob == nullptr || !searchable(*r.knob); }))
    return false;
  clearKnobRows();
  for (const KnobRange& r : knobs) addKnobRow(r);
  layOutKnobRows();
  fillAddKnob();
  updateButtons();
  return true;
}

bool TunePanel::addKnob(const QString& id) {
  const KnobSpec* knob = findKnob(id.toStdString());
  if (knob == nullptr || !searchable(*knob)) return false;
  std::vector<KnobRange> now = knobs();
  if (std::any_of(now.begin(), now.end(), [knob](const KnobRange& r) { return r.knob == knob; }))
    return false;
  now.push_back(wholeRange(*knob));
  return setKnobs(now);
}

std::vector<KnobRange> TunePanel::knobs() const {
  std::vector<KnobRange> ranges;
  for (const KnobRow& r : rows_) {
    KnobRange range = wholeRange(*r.knob);
    if (r.low != nullptr) {
      range.low = r.low->value();
      range.high = r.high->value();
      range.log = r.log->isChecked();
    } else if (r.knob->kind == KnobSpec::Kind::choice) {
      range.low = 0;
      range.high = static_cast<double>(std::max<std::size_t>(r.knob->choices.size(), 1) - 1);
    }
    ranges.push_back(range);
  }
  return ranges;
}

void TunePanel::fillObjectives() {
  objective_->clear();
  second_objective_->clear();
  second_objective_->addItem(tr("none: one metric"), QString());
  for (const MetricInfo& m : metricRegistry()) {
    if (!canMinimise(m)) continue;
    for (QComboBox* box : {objective_, second_objective_}) {
      box->addItem(qs(m.label), qs(m.name));
      box->setItemData(box->count() - 1, qs(m.description), Qt::ToolTipRole);
    }
  }
  chooseObjectives(qs(defaultObjective(session_->incident()).name));
}

bool TunePanel::chooseObjectives(const QString& first, const QString& second) {
  const int a = objective_->findData(first);
  const int b = second_objective_->findData(second);
  if (a < 0 || b < 0 || first == second) return false;
  objective_->setCurrentIndex(a);
  second_objective_->setCurrentIndex(b);
  return true;
}

std::vector<const MetricInfo*> TunePanel::objectives() const {
  std::vector<const MetricInfo*> metrics;
  for (const QComboBox* box : {objective_, second_objective_})
    if (const MetricInfo* m = findMetric(box->currentData().toString().toStdString());
        m != nullptr && std::find(metrics.begin(), metrics.end(), m) == metrics.end())
      metrics.push_back(m);
  return metrics;
}

void TunePanel::updateGoals() {
  QStringList goals;
  for (const Expectation& g : session_->incident().goals) goals << QString::fromStdString(g.text);
  // One goal a line: a goal is never broken across two.
  incident_goals_list_->setText(goals.isEmpty() ? tr("(it has none)") : goals.join('\n'));
}

void TunePanel::setExtraGoals(const QString& goals) {
  extra_goals_->setText(goals);
}

void TunePanel::setIncidentGoals(bool on) {
  incident_goals_->setChecked(on);
}

void TunePanel::setBudget(int budget) {
  budget_->setValue(budget);
}

void TunePanel::setSeed(int seed) {
  seed_->setValue(seed);
}

void TunePanel::updateButtons() {
  const bool open = session_->hasIncident();
  start_->setText(busy() ? tr("Stop") : tr("Tune"));
  start_->setEnabled(open && (busy() || !rows_.empty()));
  apply_->setEnabled(open && !busy() && chosenConfig().has_value());
  for (QWidget* w :
       std::initializer_list<QWidget*>{library_, add_knob_, incident_goals_, extra_goals_,
                                       objective_, second_objective_, budget_, seed_})
    w->setEnabled(open && !busy());
  for (const KnobRow& r : rows_)
    for (QWidget* w : std::initializer_list<QWidget*>{r.low, r.high, r.log, r.remove})
      if (w != nullptr) w->setEnabled(!busy());
}

void TunePanel::start() {
  if (!session_->hasIncident()) return;
  TuneRequest request;
  request.knobs = knobs();
  if (request.knobs.empty()) {
    status_->setText(tr("Add a knob to search."));
    return;
  }
  for (const KnobRange& r : request.knobs)
    if (const std::string problem = rangeProblem(r); !problem.empty()) {
      status_->setText(tr("%1: %2").arg(qs(r.knob->label), QString::fromStdString(problem)));
      return;
    }
  try {
    for (const QString& text : extra_goals_->text().split(';', Qt::SkipEmptyParts))
      if (!text.trimmed().isEmpty())
        request.goals.push_back(parseExpectation(text.trimmed().toStdString(), "goal"));
  } catch (const std::exception& e) {
    status_->setText(QString::fromUtf8(e.what()));
    return;
  }
  request.minimize = objectives();
  if (request.minimize.empty()) {
    status_->setText(tr("Choose a metric to minimise."));
    return;
  }
  auto incident = std::make_shared<Incident>(session_->incident());
  incident->changes = session_->changes();
  request.incident = incident;
  request.base = session_->config();
  request.library = library();
  request.incident_goals = incident_goals_->isChecked();
  request.budget = static_cast<std::size_t>(budget_->value());
  request.seed = static_cast<std::uint64_t>(seed_->value());
  request.threads = threads_;
  if (workspace_->isOpen() && !workspace_->workspace()->readOnly() &&
      workspace_->currentIncident()) {
    request.opened = std::make_shared<Incident>(session_->openedIncident());
    request.run_inputs = workspace_->currentInputs();
  }
  showIdleKnobs(
      tuneCaseFor(*incident, request.base, request.library, request.goals, request.incident_goals),
      request.knobs);
  searching_ = request.knobs;
  minimising_ = request.minimize;
  outcome_.reset();
  results_->clear();
  best_pending_.reset();
  progress_->setRange(0, static_cast<int>(request.budget));
  progress_->setValue(0);
  progress_->setFormat(tr("0 of %1 configs").arg(QLocale().toString(budget_->value())));
  progress_->show();
  status_->setText(views::countText(static_cast<long long>(request.knobs.size()),
                                    tr("Searching 1 knob…"), tr("Searching %1 knobs…")));
  emit started();
  job_->start(std::move(request));
  best_timer_->stop();
  updateButtons();
}

void TunePanel::showIdleKnobs(const TuneCase& searched, const std::vector<KnobRange>& knobs) {
  // As tune warns on the command line: a knob the config ignores gives the search nothing.
  QStringList lines;
  for (const IdleKnob& idle : knobsWithoutEffect({&searched, 1}, knobs))
    lines << (idle.switch_on != nullptr
                  ? tr("%1 has no effect while %2 is off: add %2 to the knobs, or turn it on.")
                        .arg(qs(idle.knob->label), qs(idle.switch_on->label).toLower())
                  : tr("%1 has no effect with this config.").arg(qs(idle.knob->label)));
  notice_->setText(lines.join('\n'));
  notice_->setVisible(!lines.isEmpty());
}

void TunePanel::stop() {
  if (!busy()) return;
  job_->stop();
  status_->setText(tr("Stopping: keeping the best config found so far…"));
}

void TunePanel::onProgress(const TuneStep& step) {
  const MetricInfo& metric = *minimising_.front();
  const QString best = step.have_feasible ? tr("best %1 %2")
                                                .arg(qs(metric.label).toLower(),
                                                     objectiveText(metric, step.best_objective))
                                          : tr("none meets the goals yet");
  // The words first: setValue() may repaint the bar at once, with the format it has then.
  progress_->setFormat(tr("%1 of %2 configs · %3")
                           .arg(QLocale().toString(static_cast<qulonglong>(step.evaluated)),
                                QLocale().toString(static_cast<qulonglong>(step.budget)), best));
  progress_->setMaximum(static_cast<int>(step.budget));
  progress_->setValue(static_cast<int>(step.evaluated));
  if (!step.best) return;
  // B follows the best config, but not faster than B can be replayed and looked at.
  best_pending_ = step.best;
  if (!best_timer_->isActive()) {
    emit bestSoFar(tr("tune: best so far"), *best_pending_);
    best_pending_.reset();
    best_timer_->start();
  }
}

void TunePanel::onFinished(const TuneOutcome& outcome) {
  best_timer_->stop();
  best_pending_.reset();
  progress_->hide();
  outcome_ = outcome;
  outcome_knobs_ = searching_;
  outcome_metrics_ = minimising_;
  results_->clear();
  for (std::size_t i = 0; i < outcome.reported.size(); ++i) results_->addItem(resultText(i));
  const TuneResult& r = outcome.result;
  const QString time = QLocale().toString(outcome.seconds, 'f', 2);
  QString text;
  if (outcome.reported.empty()) {
    text = tr("Stopped before a config was replayed.");
  } else {
    const bool feasible = !r.front.empty();
    text = tr("%1 configs in %2 s%3 · %4")
               .arg(QLocale().toString(static_cast<qulonglong>(r.stats.evaluated)), time,
                    r.cancelled ? tr(" (stopped: the best so far)") : QString(),
                    feasible ? (outcome.reported.size() > 1
                                    ? tr("a front of %1 configs meets every goal")
                                          .arg(outcome.reported.size())
                                    : tr("the best config meets every goal"))
                             : tr("no config meets every goal; the closest is shown"));
  }
  saveRuns(outcome);
  if (!outcome.runs.empty())
    text +=
        views::countText(static_cast<long long>(outcome.runs.size()),
                         tr(" · saved as 1 workspace run"), tr(" · saved as %1 workspace runs"));
  status_->setText(text);
  if (results_->count() > 0) results_->setCurrentRow(0);  // B: the first config found
  updateButtons();
  emit searchEnded();
}

void TunePanel::saveRuns(const TuneOutcome& outcome) {
  for (std::size_t i = 0; i < outcome.runs.size(); ++i)
    workspace_->saveReplayedRun(resultName(i), outcome.runs[i]);
}

QString TunePanel::resultName(std::size_t index) const {
  if (!outcome_) return {};
  QStringList values;
  const TunedConfig& t = outcome_->reported[index];
  for (std::size_t d = 0; d < outcome_knobs_.size(); ++d)
    values << qs(outcome_knobs_[d].knob->label) + QStringLiteral(" ") +
                  views::knobValueText(*outcome_knobs_[d].knob, t.values[d]);
  return shortName(index) + QStringLiteral(": ") + values.join(QStringLiteral(", "));
}

QString TunePanel::shortName(std::size_t index) const {
  if (!outcome_) return {};
  return outcome_->reported.size() > 1
             ? tr("tuned %1 of %2").arg(index + 1).arg(outcome_->reported.size())
             : tr("tuned");
}

QString TunePanel::resultText(std::size_t index) const {
  const TunedConfig& t = outcome_->reported[index];
  QStringList objectives;
  for (std::size_t m = 0; m < outcome_metrics_.size(); ++m)
    objectives << qs(outcome_metrics_[m]->label) + QStringLiteral(" ") +
                      objectiveText(*outcome_metrics_[m], t.evaluation.objectives[m]);
  return resultName(index) + QStringLiteral("\n") + objectives.join(QStringLiteral(" · ")) +
         (t.evaluation.feasible ? QString() : tr(" · misses a goal"));
}

std::optional<Config> TunePanel::chosenConfig() const {
  if (!outcome_ || outcome_->configs.empty()) return std::nullopt;
  const int row = std::max(results_->currentRow(), 0);
  return outcome_->configs[std::min(static_cast<std::size_t>(row), outcome_->configs.size() - 1)];
}

void TunePanel::apply() {
  const std::optional<Config> config = chosenConfig();
  if (!config || busy()) return;
  const int row = std::max(results_->currentRow(), 0);
  emit applyRequested(resultName(static_cast<std::size_t>(row)), *config);
}

QString TunePanel::statusText() const {
  return status_->text();
}

QString TunePanel::notice() const {
  return notice_->isHidden() ? QString() : notice_->text();
}

}  // namespace breakerlab::app
