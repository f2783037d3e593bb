#include "breakerlab/views/metrics_panel.h"

#include <QHeaderView>
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

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
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
  expectations_->setColumnCount(2);
  expectations_->setHeaderLabels({tr("Expectation"), tr("Result")});
  expectations_->setRootIsDecorated(false);
  expectations_->setItemDelegate(new StaticTextDelegate(expectations_));
  expectations_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  expectations_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);

  metrics_->setMinimumWidth(460);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(metrics_);
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

void MetricsPanel::setResults(const Result& current, const Result& baseline,
                              const std::vector<ExpectationResult>& expectations) {
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
        delta = (d > 0 ? QStringLiteral("+") : QString()) + formatMetric(info.unit, d, integral);
        direction = (d < 0) == info.lower_is_better ? 1 : -1;
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

  // The same expectations as shown (the usual case while tuning): update their results in place.
  bool same = expectations_->topLevelItemCount() == static_cast<int>(expectations.size());
  for (int i = 0; same && i < expectations_->topLevelItemCount(); ++i)
    same = expectations_->topLevelItem(i)->text(0) ==
           QString::fromStdString(expectations[static_cast<std::size_t>(i)].expectation->text);
  if (!same) expectations_->clear();
  failed_expectations_ = 0;
  for (std::size_t i = 0; i < expectations.size(); ++i) {
    const ExpectationResult& e = expectations[i];
    QTreeWidgetItem* item = same ? expectations_->topLevelItem(static_cast<int>(i))
                                 : new QTreeWidgetItem(expectations_);
    setTextIfChanged(item, 0, QString::fromStdString(e.expectation->text));
    setTextIfChanged(item, 1,
                     (e.passed ? tr("PASS  ") : tr("FAIL  ")) + QString::fromStdString(e.actual));
    setForegroundIfChanged(item, 1, QBrush(e.passed ? palette::kGood : palette::kBad));
    item->setToolTip(0, tr("line %1 of the incident").arg(e.expectation->line));
    failed_expectations_ += e.passed ? 0 : 1;
  }
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
  if (expectations_->topLevelItemCount() > 0)
    lines << QString() << QStringLiteral("expectation\tresult");
  for (int i = 0; i < expectations_->topLevelItemCount(); ++i) {
    const auto* item = expectations_->topLevelItem(i);
    lines << item->text(0) + '\t' + item->text(1);
  }
  return lines.join('\n') + '\n';
}

}  // namespace breakerlab::views
