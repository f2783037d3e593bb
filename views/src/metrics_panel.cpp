#include "breakerlab/views/metrics_panel.h"

#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "breakerlab/views/lane_colors.h"
#include "static_text_delegate.h"

namespace breakerlab::views {

namespace {
QString qs(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

// The metrics an on-call engineer reads first, in this order; the rest follow.
const char* kHeadline[] = {"failed_checkouts",
                           "cached_window_s",
                           "cached_while_healthy_s",
                           "time_to_trip_s",
                           "time_to_close_after_recovery_s",
                           "oldest_cached_price_s",
                           "latency_p99_ms",
                           "dependency_calls"};

// Undefined metrics whose "—" says something about the run (the breaker never tripped, never
// closed again, no checkout failed); they are always shown.
const char* kDashShown[] = {"time_to_trip_s", "time_to_close_after_recovery_s",
                            "calls_per_failed_checkout", "time_to_recover_s"};

// Every other metric undefined in both runs measures something neither run has (a bounded pool,
// bounded workers, load-balancer health checks, a capped dependency): a column of dashes that
// would bury the metrics that matter, so its row is hidden. The counts of those resources are
// zero rather than undefined; they are hidden while neither run has the resource and the count
// is zero in both.
bool pool(const Metrics& m) {
  return m.peak_pool_utilization_pct.has_value();
}
bool workers(const Metrics& m) {
  return m.peak_worker_utilization_pct.has_value();
}
bool healthChecks(const Metrics& m) {
  return m.min_pods_in_rotation.has_value();
}
bool retries(const Metrics& m) {
  return m.retries > 0;
}

struct ResourceCount {
  std::string_view name;
  bool (*present)(const Metrics&);  // whether the run has the resource
};
const ResourceCount kResourceCounts[] = {
    {"pool_exhausted", pool},          {"worker_rejections", workers},
    {"pod_ejections", healthChecks},   {"no_pod_rejections", healthChecks},
    {"peak_pending_retries", retries},
};

bool applies(const MetricInfo& info, const Metrics& current, const Metrics& baseline) {
  const auto now = info.get(current), before = info.get(baseline);
  for (const auto& r : kResourceCounts)
    if (info.name == r.name)
      return r.present(current) || r.present(baseline) || now.value_or(0) != 0 ||
             before.value_or(0) != 0;
  if (now || before) return true;
  return std::any_of(std::begin(kDashShown), std::end(kDashShown),
                     [&](const char* name) { return info.name == name; });
}

}  // namespace

QString formatMetric(std::string_view unit, const std::optional<double>& value, bool integral) {
  if (!value) return QStringLiteral("—");
  const QLocale locale = QLocale::system();
  QString number = integral ? locale.toString(static_cast<qlonglong>(std::llround(*value)))
                            : locale.toString(*value, 'f', unit == "ms" ? 1 : 2);
  if (!unit.empty()) number += (unit == "%" ? QString() : QStringLiteral(" ")) + qs(unit);
  return number;
}

QString formatDelta(std::string_view unit, double delta, bool integral) {
  QString text = unit == "%" ? formatMetric("", delta, integral) + QStringLiteral(" pp")
                             : formatMetric(unit, delta, integral);
  return delta > 0 ? QStringLiteral("+") + text : text;
}

int deltaDirectionOf(const MetricInfo& metric, double delta) {
  if (delta == 0) return 0;
  switch (metric.direction) {
    case MetricDirection::lower_is_better:
      return delta < 0 ? 1 : -1;
    case MetricDirection::higher_is_better:
      return delta > 0 ? 1 : -1;
    case MetricDirection::neutral:
      return 0;
  }
  return 0;
}

QString MetricsPanel::calibrationTitle() {
  return tr("Calibration · deployed config");
}
QString MetricsPanel::goalsTitle() {
  return tr("Goals · current config");
}
QString MetricsPanel::checksTitle(const QString& of) {
  return tr("Checks · %1").arg(of);
}

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
  verdict_label_ = new QLabel;
  verdict_label_->setObjectName(QStringLiteral("goalVerdict"));
  verdict_label_->setWordWrap(true);
  verdict_label_->setContentsMargins(4, 2, 4, 2);
  verdict_label_->setToolTip(
      tr("How many of the incident's goals the current config meets, against the deployed "
         "config"));

  metrics_ = new QTreeWidget;
  metrics_->setColumnCount(4);
  metrics_->setHeaderLabels({tr("Metric"), tr("Replay"), tr("Deployed"), tr("Δ")});
  metrics_->setRootIsDecorated(false);
  metrics_->setUniformRowHeights(true);
  metrics_->setAlternatingRowColors(true);
  metrics_->setItemDelegate(new StaticTextDelegate(metrics_));
  metrics_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < 4; ++c)
    metrics_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

  std::vector<const MetricInfo*> ordered;
  for (const char* name : kHeadline) ordered.push_back(findMetric(name));
  for (const MetricInfo& info : metricRegistry())
    if (std::find(ordered.begin(), ordered.end(), &info) == ordered.end()) ordered.push_back(&info);
  for (const MetricInfo* info : ordered) {
    auto* item = new QTreeWidgetItem(metrics_);
    QString description = qs(info->description);
    description[0] = description[0].toUpper();
    item->setText(0, qs(info->label));
    item->setData(0, Qt::UserRole, qs(info->name));
    item->setToolTip(0, description + QStringLiteral(" (") + qs(info->name) + QStringLiteral(")"));
    for (int c = 1; c < 4; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    rows_.insert(qs(info->name), item);
  }

  expectations_ = new QTreeWidget;
  expectations_->setObjectName(QStringLiteral("checks"));
  expectations_->setColumnCount(2);
  expectations_->setHeaderLabels({tr("Check"), tr("Result")});
  expectations_->setRootIsDecorated(false);
  expectations_->setItemsExpandable(false);
  expectations_->setIndentation(12);
  expectations_->setItemDelegate(new StaticTextDelegate(expectations_));
  expectations_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  expectations_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);

  // Room for the names (elided) and three columns of numbers; a dock never clips them.
  metrics_->setMinimumWidth(320);
  auto* top = new QWidget;
  auto* top_layout = new QVBoxLayout(top);
  top_layout->setContentsMargins(0, 0, 0, 0);
  top_layout->setSpacing(2);
  top_layout->addWidget(verdict_label_);
  top_layout->addWidget(metrics_, 1);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(top);
  split->addWidget(expectations_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
}

namespace {

// Item updates that change nothing still relayout and repaint their row (a knob drag changes a
// few numbers of forty), so each one is made only when it changes something.
void setTextIfChanged(QTreeWidgetItem* item, int column, const QString& text) {
  if (item->text(column) != text) item->setText(column, text);
}
void setForegroundIfChanged(QTreeWidgetItem* item, int column, const QBrush& brush) {
  if (item->foreground(column) != brush) item->setForeground(column, brush);
}

}  // namespace

void MetricsPanel::setResults(const Result& current, const Result& baseline, const Checks& checks) {
  // A column sized to its contents measures every row again on each cell's change (forty rows
  // of text shaping per cell); fixed while the cells change, it is measured once afterwards.
  QHeaderView* header = metrics_->header();
  for (int c = 1; c < 4; ++c) header->setSectionResizeMode(c, QHeaderView::Fixed);
  for (const MetricInfo& info : metricRegistry()) {
    QTreeWidgetItem* item = rows_.value(qs(info.name));
    const auto now = info.get(current.metrics);
    const auto before = info.get(baseline.metrics);
    const bool integral = info.integral;
    const bool hidden = !applies(info, current.metrics, baseline.metrics);
    if (item->isHidden() != hidden) item->setHidden(hidden);
    setTextIfChanged(item, 1, formatMetric(info.unit, now, integral));
    setTextIfChanged(item, 2, formatMetric(info.unit, before, integral));
    int direction = 0;
    QString delta;
    if (now && before) {
      const double d = *now - *before;
      if (std::abs(d) > 1e-9 * std::max(1.0, std::abs(*before))) {
        delta = formatDelta(info.unit, d, integral);
        direction = deltaDirectionOf(info, d);
      }
    } else if (now.has_value() != before.has_value()) {
      delta = now ? tr("now defined") : tr("now undefined");
    }
    setTextIfChanged(item, 3, delta);
    setForegroundIfChanged(item, 3,
                           direction > 0   ? QBrush(palette::kGood)
                           : direction < 0 ? QBrush(palette::kBad)
                                           : palette().brush(QPalette::Text));
    directions_[qs(info.name)] = direction;
  }
  for (int c = 1; c < 4; ++c) header->setSectionResizeMode(c, QHeaderView::ResizeToContents);

  // The verdict on the goals, over the metrics.
  const GoalComparison goals = checks.goalComparison();
  verdict_ = goals.verdict;
  using V = GoalComparison::Verdict;
  QString verdict;
  if (goals.verdict == V::none) {
    verdict = tr("Goals: none in this incident");
  } else {
    verdict = tr("Goals: %1 of %2 met (%4: %3 of %2) — ")
                  .arg(goals.met)
                  .arg(goals.total)
                  .arg(goals.baseline_met)
                  .arg(baseline_name_);
    switch (goals.verdict) {
      case V::better:
        verdict += tr("better than %1").arg(baseline_name_);
        break;
      case V::worse:
        verdict += tr("worse than %1").arg(baseline_name_);
        break;
      case V::same:
        verdict += tr("same as %1").arg(baseline_name_);
        break;
      case V::mixed:
        verdict += tr("as many as %1, not the same ones").arg(baseline_name_);
        break;
      case V::none:
        break;
    }
  }
  if (verdict_label_->text() != verdict) verdict_label_->setText(verdict);
  const QColor colour = goals.verdict == V::better  ? palette::kGood
                        : goals.verdict == V::worse ? palette::kBad
                                                    : palette().color(QPalette::WindowText);
  if (verdict_label_->palette().color(QPalette::WindowText) != colour) {
    QPalette p = verdict_label_->palette();
    p.setColor(QPalette::WindowText, colour);
    verdict_label_->setPalette(p);
  }

  // The checks in their groups. The same groups and checks as shown (the usual case while
  // tuning): their results are updated in place.
  struct Group {
    QString title;
    const std::vector<ExpectationResult>* results;
    const std::vector<ExpectationResult>* baseline;  // goals: the deployed config's
  };
  std::vector<Group> groups;
  if (!checks.calibration.empty())
    groups.push_back({calibrationTitle(), &checks.calibration, nullptr});
  if (!checks.goals.empty())
    groups.push_back({goalsTitle(), &checks.goals, &checks.baseline_goals});
  if (!checks.checks.empty())
    groups.push_back(
        {checksTitle(QString::fromStdString(checks.checks_of)), &checks.checks, nullptr});
  QStringList structure;
  for (const Group& g : groups) {
    structure << g.title;
    for (const ExpectationResult& e : *g.results)
      structure << QString::fromStdString(e.expectation->text);
  }
  const bool same = structure == check_structure_;
  if (!same) {
    expectations_->clear();
    check_structure_ = structure;
  }
  failed_expectations_ = 0;
  unmet_goals_ = 0;
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const Group& g = groups[gi];
    const bool is_goals = g.baseline != nullptr;
    QTreeWidgetItem* head = nullptr;
    if (same) {
      head = expectations_->topLevelItem(static_cast<int>(gi));
    } else {
      head = new QTreeWidgetItem(expectations_);
      head->setText(0, g.title);
      QFont bold = head->font(0);
      bold.setBold(true);
      head->setFont(0, bold);
      head->setFont(1, bold);
      head->setFlags(Qt::ItemIsEnabled);
      head->setToolTip(0, is_goals ? tr("The incident's goals: what a good config must achieve, "
                                        "checked against the current config")
                          : g.results == &checks.calibration
                              ? tr("The incident's expect: lines, checked against the "
                                   "replay of the deployed config: whether the model "
                                   "reproduces the record. Tuning does not change them.")
                              : tr("The what-if's own expect: lines, checked against "
                                   "the current config"));
    }
    std::size_t passed = 0;
    for (std::size_t i = 0; i < g.results->size(); ++i) {
      const ExpectationResult& e = (*g.results)[i];
      QTreeWidgetItem* item = same ? head->child(static_cast<int>(i)) : new QTreeWidgetItem(head);
      setTextIfChanged(item, 0, QString::fromStdString(e.expectation->text));
      QString result = is_goals ? (e.passed ? tr("MET  ") : tr("NOT MET  "))
                                : (e.passed ? tr("PASS  ") : tr("FAIL  "));
      result += QString::fromStdString(e.actual);
      if (is_goals && i < g.baseline->size())
        result +=
            tr("  (%1 %2)").arg(baseline_name_, QString::fromStdString((*g.baseline)[i].actual));
      setTextIfChanged(item, 1, result);
      setForegroundIfChanged(item, 1, QBrush(e.passed ? palette::kGood : palette::kBad));
      if (item->data(1, Qt::UserRole).toBool() != e.passed || !same)
        item->setData(1, Qt::UserRole, e.passed);
      if (!same) item->setToolTip(0, tr("line %1 of the incident").arg(e.expectation->line));
      passed += e.passed ? 1 : 0;
      (is_goals ? unmet_goals_ : failed_expectations_) += e.passed ? 0 : 1;
    }
    setTextIfChanged(
        head, 1,
        (is_goals ? tr("%1 of %2 met") : tr("%1 of %2 pass")).arg(passed).arg(g.results->size()));
  }
  if (!same) expectations_->expandAll();
}

QString MetricsPanel::verdictText() const {
  return verdict_label_->text();
}

std::vector<MetricsPanel::CheckRow> MetricsPanel::checkRows() const {
  std::vector<CheckRow> rows;
  for (int g = 0; g < expectations_->topLevelItemCount(); ++g) {
    const QTreeWidgetItem* head = expectations_->topLevelItem(g);
    for (int i = 0; i < head->childCount(); ++i) {
      const QTreeWidgetItem* item = head->child(i);
      rows.push_back(
          {head->text(0), item->text(0), item->text(1), item->data(1, Qt::UserRole).toBool()});
    }
  }
  return rows;
}

QStringList MetricsPanel::groupTitles() const {
  QStringList titles;
  for (int g = 0; g < expectations_->topLevelItemCount(); ++g)
    titles << expectations_->topLevelItem(g)->text(0);
  return titles;
}

QString MetricsPanel::valueText(const QString& metric) const {
  const auto* item = rows_.value(metric);
  return item ? item->text(1) : QString();
}

QString MetricsPanel::deltaText(const QString& metric) const {
  const auto* item = rows_.value(metric);
  return item ? item->text(3) : QString();
}

bool MetricsPanel::isShown(const QString& metric) const {
  const auto* item = rows_.value(metric);
  return item != nullptr && !item->isHidden();
}

void MetricsPanel::setBaselineName(const QString& name) {
  // "deployed", or what B is: the baseline column, the verdict and the goals name it.
  if (baseline_name_ == name) return;
  baseline_name_ = name;
  metrics_->headerItem()->setText(2, name.left(1).toUpper() + name.mid(1));
}

int MetricsPanel::deltaDirection(const QString& metric) const {
  return directions_.value(metric, 0);
}

QString MetricsPanel::asText() const {
  QStringList lines{QStringLiteral("metric\treplay\tdeployed\tdelta")};
  for (int i = 0; i < metrics_->topLevelItemCount(); ++i) {
    const auto* item = metrics_->topLevelItem(i);
    if (item->isHidden()) continue;  // copied as shown
    lines << QStringList{item->data(0, Qt::UserRole).toString(), item->text(1), item->text(2),
                         item->text(3)}
                 .join('\t');
  }
  lines << QString() << verdictText();
  const std::vector<CheckRow> rows = checkRows();
  if (!rows.empty()) lines << QString() << QStringLiteral("group\texpectation\tresult");
  for (const CheckRow& row : rows) lines << row.group + '\t' + row.text + '\t' + row.result;
  return lines.join('\n') + '\n';
}

}  // namespace breakerlab::views
