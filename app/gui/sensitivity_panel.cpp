#include "sensitivity_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/views/knob_spin_box.h"
#include "breakerlab/views/qt_text.h"
#include "breakerlab/views/sensitivity_plot.h"
#include "breakerlab/views/sensitivity_text.h"
#include "breakerlab/views/wheel_guard.h"
#include "replay_session.h"

namespace breakerlab::app {

namespace {

// The knobs a map can turn: every knob the config's breaker shows but the choice of breaker
// itself (which changes what the other knobs are).
bool mappable(const KnobSpec& knob, const Config& config) {
  return knob.editable() && knob.id != "breaker.library" && knobShown(knob, config);
}

// The pairs worth mapping first, when the config shows both: the 8 Sep question (how long to
// stay open, how often to look at the health check) before any other.
constexpr std::pair<std::string_view, std::string_view> kPresets[] = {
    {"breaker.open.interval", "breaker.open.early_probe.poll"},
    {"breaker.open.interval", "breaker.failure_rate"},
    {"timeout.attempt", "retry.max_attempts"},
};

// The metric a map colours by default: the incident's own question (time cached while healthy)
// when a goal asks it, else the first goal's metric; without goals, the time cached while healthy
// where the deployed config has a cache, else the failed checkouts (issue #33: a map of a metric
// that is 0 everywhere for want of a cache).
QString defaultMetric(const Incident& incident) {
  for (const Expectation& goal : incident.goals)
    if (goal.kind == Expectation::Kind::metric && goal.metric == "cached_while_healthy_s")
      return QString::fromStdString(goal.metric);
  for (const Expectation& goal : incident.goals)
    if (goal.kind == Expectation::Kind::metric && findMetric(goal.metric) != nullptr)
      return QString::fromStdString(goal.metric);
  return incident.deployed.cache.enabled ? QStringLiteral("cached_while_healthy_s")
                                         : QStringLiteral("failed_checkouts");
}

}  // namespace

SensitivityPanel::SensitivityPanel(ReplaySession* session, QWidget* parent)
    : QWidget(parent), session_(session), job_(new SensitivityJob(this)) {
  auto* grid = new QGridLayout;
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setHorizontalSpacing(6);
  grid->setVerticalSpacing(4);
  const QString axis_names[] = {tr("Across"), tr("Up")};
  const QString axis_tips[] = {tr("The knob along the map's horizontal axis"),
                               tr("The knob up the map (none: a line plot of the first knob)")};
  for (int a = 0; a < 2; ++a) {
    AxisControls& c = axes_[a];
    auto* label = new QLabel(axis_names[a]);
    c.knob = new QComboBox;
    c.knob->setObjectName(a == 0 ? QStringLiteral("sensitivity-x")
                                 : QStringLiteral("sensitivity-y"));
    c.knob->setToolTip(axis_tips[a]);
    c.knob->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c.knob->setMinimumContentsLength(12);
    c.low = new views::KnobSpinBox;
    c.high = new views::KnobSpinBox;
    // The dock scrolls: a box takes the wheel only once it has focus (wheel_guard.h).
    for (QDoubleSpinBox* spin : {c.low, c.high}) {
      spin->setKeyboardTracking(false);
      spin->setMinimumWidth(64);
      views::takeWheelOnlyWithFocus(spin);
    }
    views::takeWheelOnlyWithFocus(c.knob);
    c.low->setToolTip(tr("The range's low end"));
    c.high->setToolTip(tr("The range's high end (included)"));
    c.log = new QCheckBox(tr("log"));
    c.log->setToolTip(tr("Spread the values by ratio: each decade gets the same number of cells"));
    grid->addWidget(label, a, 0);
    grid->addWidget(c.knob, a, 1);
    grid->addWidget(c.low, a, 2);
    grid->addWidget(new QLabel(QStringLiteral("–")), a, 3);
    grid->addWidget(c.high, a, 4);
    grid->addWidget(c.log, a, 5);
    connect(c.knob, &QComboBox::activated, this, [this, a] {
      resetRange(a);
      updateAxisControls();
      updateNotice();
    });
  }
  x_knob_ = axes_[0].knob;
  y_knob_ = axes_[1].knob;
  grid->setColumnStretch(1, 1);

  metric_ = new QComboBox;
  metric_->setObjectName(QStringLiteral("sensitivity-metric"));
  metric_->setToolTip(tr("The metric the map is coloured by"));
  metric_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  metric_->setMinimumContentsLength(12);
  points_ = new QSpinBox;
  points_->setObjectName(QStringLiteral("sensitivity-points"));
  points_->setRange(2, kMaxPoints);
  points_->setValue(kDefaultPoints);
  points_->setToolTip(tr("Values per knob: a map of two knobs replays the incident points² times"));
  views::takeWheelOnlyWithFocus(metric_);
  views::takeWheelOnlyWithFocus(points_);
  compute_ = new QPushButton(tr("Compute"));
  compute_->setObjectName(QStringLiteral("sensitivity-compute"));
  connect(compute_, &QPushButton::clicked, this, [this] { busy() ? cancel() : compute(); });
  // The metric's name says the goal it is bounded by ("Cached while healthy ≤ 3 s"): a row of its
  // own, so that it is not cut short in a narrow dock.
  grid->addWidget(new QLabel(tr("Colour")), 2, 0);
  grid->addWidget(metric_, 2, 1, 1, 5);
  auto* row = new QHBoxLayout;
  row->setSpacing(6);
  row->addWidget(points_);
  row->addStretch(1);
  row->addWidget(compute_);
  grid->addWidget(new QLabel(tr("Points")), 3, 0);
  grid->addLayout(row, 3, 1, 1, 5);

  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("sensitivity-progress"));
  progress_->setTextVisible(true);
  progress_->setMaximumHeight(progress_->fontMetrics().height() + 4);
  progress_->hide();

  notice_ = new QLabel;
  notice_->setObjectName(QStringLiteral("sensitivity-notice"));
  notice_->setWordWrap(true);
  enable_ = new QPushButton;
  enable_->setObjectName(QStringLiteral("sensitivity-enable"));
  connect(enable_, &QPushButton::clicked, this, [this] {
    if (enabled_config_) emit applyRequested(enable_->text().toLower(), *enabled_config_);
  });
  auto* notice_row = new QHBoxLayout;
  notice_row->addWidget(notice_, 1);
  notice_row->addWidget(enable_);
  auto* notice_box = new QWidget;
  notice_box->setLayout(notice_row);
  notice_row->setContentsMargins(0, 0, 0, 0);

  // Recomputing is the Compute button's job (it says Recompute then): one button, not two.
  stale_row_ = new QLabel(tr("The config changed since this map was computed."));
  stale_row_->setObjectName(QStringLiteral("sensitivity-stale"));
  stale_row_->setWordWrap(true);
  stale_row_->hide();
  recompute_timer_ = new QTimer(this);
  recompute_timer_->setSingleShot(true);
  recompute_timer_->setInterval(kRecomputeDelayMs);
  connect(recompute_timer_, &QTimer::timeout, this, [this] {
    if (stale_ && !busy()) compute();
  });

  plot_ = new views::SensitivityPlot;
  plot_->setPlaceholder(tr("Choose one or two knobs and Compute"));
  connect(plot_, &views::SensitivityPlot::cellChosen, this, &SensitivityPanel::onCellChosen);

  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("sensitivity-status"));
  status_->setWordWrap(true);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(4);
  layout->addLayout(grid);
  layout->addWidget(progress_);
  layout->addWidget(notice_box);
  layout->addWidget(stale_row_);
  layout->addWidget(plot_, 1);
  layout->addWidget(status_);
  notice_box->setVisible(false);

  connect(job_, &SensitivityJob::progress, this, &SensitivityPanel::showProgress);
  connect(job_, &SensitivityJob::preview, this, &SensitivityPanel::onPreview);
  connect(job_, &SensitivityJob::finished, this, &SensitivityPanel::onFinished);
  connect(job_, &SensitivityJob::failed, this, [this](const QString& reason) {
    computing_.reset();
    updateComputeButton();
    progress_->hide();
    status_->setText(tr("The map could not be computed: %1").arg(reason));
  });
  connect(session_, &ReplaySession::incidentChanged, this, &SensitivityPanel::onIncidentChanged);
  connect(session_, &ReplaySession::resultChanged, this, &SensitivityPanel::onStateChanged);
  connect(session_, &ReplaySession::scenarioChanged, this, &SensitivityPanel::onStateChanged);
  if (session_->hasIncident()) onIncidentChanged();
}

SensitivityPanel::~SensitivityPanel() = default;

void SensitivityPanel::onIncidentChanged() {
  // Nothing of the incident before stays: not its map, nor the one computing.
  recompute_timer_->stop();
  last_seconds_ = 0;
  job_->cancel();
  computing_.reset();
  inputs_.reset();
  stale_ = false;
  plot_->setMap({});
  plot_->setStale(false);
  stale_row_->hide();
  progress_->hide();
  updateComputeButton();
  status_->clear();
  if (!session_->hasIncident()) return;
  fillKnobs();
  fillMetrics();
  choosePreset();
  updateNotice();
}

void SensitivityPanel::onStateChanged() {
  if (!session_->hasIncident()) return;
  if (session_->config().breaker.library != knobs_library_) {
    fillKnobs();
    if (knobOf(0) == nullptr) choosePreset();
  }
  updateNotice();
  updateMarker();
  updateStale();
}

void SensitivityPanel::fillKnobs() {
  const Config& config = session_->config();
  knobs_library_ = config.breaker.library;
  for (int a = 0; a < 2; ++a) {
    QComboBox* combo = axes_[a].knob;
    const QString was = combo->currentData().toString();
    combo->clear();
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    if (a == 1) combo->addItem(tr("none: a line plot"), QString());
    std::string_view group;
    for (const KnobSpec& knob : knobSpecs()) {
      if (!mappable(knob, config)) continue;
      if (knob.group != group) {
        // The knob panel's groups as headings in the list.
        group = knob.group;
        combo->addItem(qs(group));
        if (model != nullptr) {
          QStandardItem* heading = model->item(combo->count() - 1);
          heading->setFlags(Qt::NoItemFlags);
          QFont bold = combo->font();
          bold.setBold(true);
          heading->setFont(bold);
        }
      }
      combo->addItem(QStringLiteral("   ") + qs(knob.label), qs(knob.id));
      combo->setItemData(combo->count() - 1, qs(knob.tip), Qt::ToolTipRole);
    }
    const int keep = combo->findData(was);
    combo->setCurrentIndex(keep >= 0 ? keep : (a == 1 ? 0 : -1));
  }
  updateAxisControls();
}

void SensitivityPanel::fillMetrics() {
  const Incident& incident = session_->incident();
  metric_->clear();
  for (const MetricInfo& m : metricRegistry()) {
    QString text = qs(m.label);
    for (const Expectation& goal : incident.goals)
      if (goal.kind == Expectation::Kind::metric && goal.metric == m.name) {
        views::SensitivityGoal bound;
        bound.metric = m.name;
        bound.op = goal.op;
        bound.value = goal.value;
        text = views::goalText(bound);
        break;
      }
    metric_->addItem(text, qs(m.name));
    metric_->setItemData(metric_->count() - 1, qs(m.description), Qt::ToolTipRole);
  }
  chooseMetric(defaultMetric(incident));
}

void SensitivityPanel::choosePreset() {
  const Config& config = session_->config();
  const auto has = [this](std::string_view id) { return x_knob_->findData(qs(id)) >= 0; };
  const auto counts = [&](std::string_view id) {
    const KnobSpec* k = findKnob(id);
    return k != nullptr && (k->applies == nullptr || k->applies(config));
  };
  // An incident whose goal is the time cached while healthy asks the early probe's question
  // (8 Sep): its map is the open interval by the health poll even while the probe is off (the
  // notice offers to turn it on). Any other takes the first pair whose knobs both count.
  bool cached_goal = false;
  for (const Expectation& goal : session_->incident().goals)
    cached_goal = cached_goal || goal.metric == "cached_while_healthy_s";
  for (const auto& [x, y] : kPresets)
    if (has(x) && has(y) &&
        ((cached_goal && x == kPresets[0].first && y == kPresets[0].second) ||
         (counts(x) && counts(y)))) {
      chooseKnobs(qs(x), qs(y));
      return;
    }
  // Else the first two number knobs that count in this config (any two, if fewer do).
  QStringList numbers;
  for (const bool must_count : {true, false})
    for (int i = 0; i < x_knob_->count() && numbers.size() < 2; ++i) {
      const QString id = x_knob_->itemData(i).toString();
      const KnobSpec* k = findKnob(id.toStdString());
      if (k != nullptr && k->kind == KnobSpec::Kind::number && !numbers.contains(id) &&
          (!must_count || counts(k->id)))
        numbers << id;
    }
  chooseKnobs(numbers.value(0), numbers.value(1));
}

bool SensitivityPanel::chooseKnobs(const QString& x, const QString& y) {
  const int xi = x_knob_->findData(x);
  const int yi = y_knob_->findData(y);
  if (xi < 0 || yi < 0 || (!y.isEmpty() && x == y)) return false;
  x_knob_->setCurrentIndex(xi);
  y_knob_->setCurrentIndex(yi);
  resetRange(0);
  resetRange(1);
  updateAxisControls();
  updateNotice();
  return true;
}

bool SensitivityPanel::chooseMetric(const QString& name) {
  const int i = metric_->findData(name);
  if (i < 0) return false;
  metric_->setCurrentIndex(i);
  return true;
}

void SensitivityPanel::setPoints(int points) {
  points_->setValue(points);
}

void SensitivityPanel::setRange(int axis, double low, double high, bool log) {
  AxisControls& c = axes_[axis];
  c.low->setValue(low);
  c.high->setValue(high);
  c.log->setChecked(log);
}

const KnobSpec* SensitivityPanel::knobOf(int axis) const {
  const QString id = axes_[axis].knob->currentData().toString();
  return id.isEmpty() ? nullptr : findKnob(id.toStdString());
}

void SensitivityPanel::resetRange(int axis) {
  AxisControls& c = axes_[axis];
  const KnobSpec* knob = knobOf(axis);
  if (knob == nullptr) return;
  const bool number = knob->kind == KnobSpec::Kind::number;
  double low = knob->min, high = knob->max;
  if (knob->kind == KnobSpec::Kind::choice)
    high = static_cast<double>(std::max<std::size_t>(knob->choices.size(), 1) - 1);
  const bool log = number && knob->scale == KnobSpec::Scale::log;
  // A log range starts at the smallest positive value, as the knob's slider does.
  if (log && low <= 0) low = knob->step > 0 ? knob->step : 1;
  for (views::KnobSpinBox* spin : {c.low, c.high}) {
    if (number) {
      spin->setRangeEndOf(*knob);
      continue;
    }
    spin->setKnob(nullptr, false);
    spin->setDecimals(0);
    spin->setRange(0, high);
    spin->setSingleStep(1);
    spin->setSuffix(QString());
  }
  c.low->setValue(low);
  c.high->setValue(high);
  c.log->setChecked(log);
}

void SensitivityPanel::updateAxisControls() {
  for (int a = 0; a < 2; ++a) {
    const KnobSpec* knob = knobOf(a);
    const bool number = knob != nullptr && knob->kind == KnobSpec::Kind::number;
    axes_[a].low->setEnabled(number);
    axes_[a].high->setEnabled(number);
    axes_[a].log->setEnabled(number);
  }
}

std::vector<KnobRange> SensitivityPanel::ranges() const {
  std::vector<KnobRange> knobs;
  for (int a = 0; a < 2; ++a) {
    const KnobSpec* knob = knobOf(a);
    if (knob == nullptr) continue;
    const AxisControls& c = axes_[a];
    knobs.push_back({knob, c.low->value(), c.high->value(),
                     knob->kind == KnobSpec::Kind::number && c.log->isChecked()});
  }
  return knobs;
}

QString SensitivityPanel::notice() const {
  return notice_->isVisibleTo(this) ? notice_->text() : QString();
}

void SensitivityPanel::updateNotice() {
  // A mapped knob the config ignores (the health poll while the early probe is off) gives a
  // map of stripes: say so, and offer the switch that makes it count.
  enabled_config_.reset();
  QString text;
  if (session_->hasIncident()) {
    const Config& config = session_->config();
    for (int a = 0; a < 2 && text.isEmpty(); ++a) {
      const KnobSpec* knob = knobOf(a);
      if (knob == nullptr || knob->applies == nullptr || knob->applies(config)) continue;
      for (const KnobSpec& toggle : knobSpecs()) {
        if (toggle.kind != KnobSpec::Kind::toggle || !mappable(toggle, config) ||
            toggle.get(config) != 0)
          continue;
        Config on = config;
        toggle.set(on, 1);
        if (knob->applies(on)) {
          enabled_config_ = on;
          enable_->setText(tr("Turn on %1").arg(qs(toggle.label)));
          text = tr("%1 has no effect while %2 is off: the map will not change along it.")
                     .arg(qs(knob->label), qs(toggle.label).toLower());
          break;
        }
      }
      if (text.isEmpty())
        text = tr("%1 has no effect with this config (the knob panel greys it out).")
                   .arg(qs(knob->label));
    }
  }
  notice_->setText(text);
  enable_->setVisible(enabled_config_.has_value());
  notice_->parentWidget()->setVisible(!text.isEmpty());
}

void SensitivityPanel::compute() {
  if (!session_->hasIncident()) return;
  const std::vector<KnobRange> knobs = ranges();
  if (knobs.empty()) {
    status_->setText(tr("Choose a knob to map."));
    return;
  }
  for (const KnobRange& r : knobs)
    if (const std::string problem = rangeProblem(r); !problem.empty()) {
      status_->setText(tr("%1: %2").arg(qs(r.knob->label), QString::fromStdString(problem)));
      return;
    }
  SensitivityRequest request;
  auto incident = std::make_shared<Incident>(session_->incident());
  incident->changes = session_->changes();
  request.incident = incident;
  request.base = session_->config();
  request.knobs = knobs;
  request.points.assign(knobs.size(), static_cast<std::size_t>(points_->value()));
  // The metric coloured, then the goals' metrics (a cell's tooltip says why it misses one).
  const MetricInfo* chosen = findMetric(metric_->currentData().toString().toStdString());
  if (chosen == nullptr) chosen = findMetric("cached_while_healthy_s");
  request.metrics.push_back(chosen);
  for (const Expectation& goal : incident->goals)
    if (const MetricInfo* m = findMetric(goal.metric);
        m != nullptr &&
        std::find(request.metrics.begin(), request.metrics.end(), m) == request.metrics.end())
      request.metrics.push_back(m);
  // The map shown, whole and of this config, is what computing it again would give (a replay is
  // deterministic): keep it rather than throw it away for a preview.
  if (!busy() && inputs_ && !stale_ && !plot_->map().empty() && plot_->map().preview_cells == 0 &&
      inputs_->asks(knobs, request.points.front(), request.metrics)) {
    status_->setText(
        tr("The map is up to date: the same knobs, ranges, points and config give "
           "the same map."));
    return;
  }
  computing_ = Inputs{request.base, incident->changes,      session_->scenario(),
                      knobs,        request.points.front(), request.metrics};
  std::size_t cells = 1;
  for (const auto& axis : sweepAxes(knobs, request.points)) cells *= axis.size();
  progress_->setRange(0, static_cast<int>(cells));
  progress_->setValue(0);
  progress_->setFormat(tr("%1 of %2 cells").arg(0).arg(cells));
  progress_->show();
  updateComputeButton();
  status_->setText(views::countText(static_cast<long long>(cells), tr("Computing 1 cell…"),
                                    tr("Computing %1 cells…")));
  job_->start(std::move(request));
}

bool SensitivityPanel::Inputs::asks(const std::vector<KnobRange>& other_ranges,
                                    std::size_t other_points,
                                    const std::vector<const MetricInfo*>& other_metrics) const {
  const auto same = [](const KnobRange& a, const KnobRange& b) {
    return a.knob == b.knob && a.low == b.low && a.high == b.high && a.log == b.log;
  };
  return points == other_points && metrics == other_metrics &&
         std::equal(ranges.begin(), ranges.end(), other_ranges.begin(), other_ranges.end(), same);
}

void SensitivityPanel::cancel() {
  recompute_timer_->stop();
  if (!busy() && !computing_) return;
  job_->cancel();
  computing_.reset();
  updateComputeButton();
  progress_->hide();
  const std::size_t preview = plot_->map().preview_cells;
  if (preview > 0) {
    status_->setText(tr("Stopped at %1 of %2 cells; the others show their nearest computed cell.")
                         .arg(preview)
                         .arg(plot_->map().cellCount()));
  } else {
    status_->setText(inputs_ ? tr("Stopped; the map shown is the last one computed.")
                             : tr("Stopped."));
  }
}

void SensitivityPanel::showProgress(std::size_t done, std::size_t total) {
  // The words first: setValue() may repaint the bar at once, with the format it has then.
  progress_->setFormat(tr("%1 of %2 cells").arg(done).arg(total));
  progress_->setMaximum(static_cast<int>(total));
  progress_->setValue(static_cast<int>(done));
}

void SensitivityPanel::onPreview(const views::SensitivityMap& map) {
  if (!computing_) return;
  // The bar says no fewer cells than the preview: its steps are coarser.
  if (map.preview_cells > static_cast<std::size_t>(progress_->value()))
    showProgress(map.preview_cells, map.cellCount());
  // The map shown is now the one computing: the marker and staleness are of its inputs, and it is
  // not one quick enough to recompute by itself.
  inputs_ = computing_;
  last_seconds_ = std::numeric_limits<double>::infinity();
  plot_->setMap(map);
  status_->setText(tr("Preview: %1 of %2 cells computed, the others show their nearest computed "
                      "cell")
                       .arg(map.preview_cells)
                       .arg(map.cellCount()) +
                   clickHint());
  updateMarker();
  updateStale();
}

void SensitivityPanel::onFinished(const views::SensitivityMap& map, double seconds) {
  inputs_ = computing_;
  computing_.reset();
  last_seconds_ = seconds;
  updateComputeButton();
  progress_->hide();
  plot_->setMap(map);
  status_->setText(summary(map, seconds));
  updateMarker();
  updateStale();
  emit computed();
}

QString SensitivityPanel::summary(const views::SensitivityMap& map, double seconds) const {
  std::size_t met = 0;
  for (views::CellVerdict v : map.all_goals) met += v == views::CellVerdict::met ? 1 : 0;
  const QString time =
      seconds < 10 ? QLocale().toString(seconds, 'f', 2) : QLocale().toString(seconds, 'f', 0);
  QString text = tr("%1 cells in %2 s").arg(map.cellCount()).arg(time);
  if (!map.goals.empty()) {
    text += tr(" · %1 meet every goal").arg(met);
    if (!map.metrics.empty())
      if (const views::SensitivityGoal* own = map.goalOn(map.metrics[0].metric->name)) {
        std::size_t own_met = 0;
        for (views::CellVerdict v : own->cells) own_met += v == views::CellVerdict::met ? 1 : 0;
        if (own_met != met) text += tr(", %1 meet %2").arg(own_met).arg(views::goalText(*own));
      }
  }
  return text + clickHint();
}

QString SensitivityPanel::clickHint() const {
  // Wrapped as one piece: the status line's last line is never a lone "it".
  QString hint = QStringLiteral("· ") + tr("click a cell to apply it");
  hint.replace(QChar(' '), QChar::Nbsp);
  return QStringLiteral(" ") + hint;
}

void SensitivityPanel::updateMarker() {
  if (!inputs_ || !session_->hasIncident()) {
    plot_->setCurrent({});
    return;
  }
  std::vector<double> current;
  for (const KnobRange& r : inputs_->ranges) current.push_back(r.knob->get(session_->config()));
  // The current replay's own metrics, when it is whole and of a config the map holds but for the
  // mapped knobs: a line plot puts its marker there rather than at the nearest cell's value.
  std::vector<double> own;
  if (session_->resultIsCurrent() && mapsCurrentConfig())
    for (const views::SensitivityMetric& m : plot_->map().metrics)
      own.push_back(m.metric->get(session_->result().metrics).value_or(std::nan("")));
  plot_->setCurrent(std::move(current), std::move(own));
}

bool SensitivityPanel::mapsCurrentConfig() const {
  if (!inputs_ || !session_->hasIncident()) return false;
  // The current config with the mapped knobs as they were when it was computed.
  Config same = session_->config();
  for (const KnobRange& r : inputs_->ranges) r.knob->set(same, r.knob->get(inputs_->base));
  return same == inputs_->base && session_->changes() == inputs_->changes &&
         session_->scenario() == inputs_->scenario;
}

void SensitivityPanel::updateStale() {
  const bool stale = inputs_ && session_->hasIncident() && !mapsCurrentConfig();
  stale_ = stale;
  plot_->setStale(stale);
  stale_row_->setVisible(stale);
  updateComputeButton();
  if (stale && !busy() && last_seconds_ < auto_recompute_seconds_) {
    recompute_timer_->start();  // restarted by each step of a drag
  } else if (!stale) {
    recompute_timer_->stop();
  }
}

void SensitivityPanel::updateComputeButton() {
  compute_->setText(computing_ ? tr("Cancel") : stale_ ? tr("Recompute") : tr("Compute"));
}

void SensitivityPanel::onCellChosen(const std::vector<double>& values) {
  if (!inputs_ || !session_->hasIncident() || values.size() != inputs_->ranges.size()) return;
  Config after = session_->config();
  QStringList parts;
  for (std::size_t d = 0; d < values.size(); ++d) {
    inputs_->ranges[d].knob->set(after, values[d]);
    parts << qs(inputs_->ranges[d].knob->label) + QStringLiteral(" ") +
                 views::knobValueText(*inputs_->ranges[d].knob, values[d]);
  }
  if (after == session_->config()) return;
  emit applyRequested(tr("map cell: %1").arg(parts.join(QStringLiteral(", "))), after);
}

}  // namespace breakerlab::app
