#include "breakerlab/views/metrics_panel.h"

#include "breakerlab/core/outcome/metric_compare.h"

#include <QFont>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/qt_text.h"
#include "metrics/static_text_delegate.h"

namespace breakerlab::views {

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
  metrics_->setObjectName(QStringLiteral("metrics"));
  metrics_->setColumnCount(4);
  metrics_->setHeaderLabels({tr("Metric"), tr("Replay"), tr("Deployed"), tr("Δ")});
  metrics_->setRootIsDecorated(false);
  metrics_->setUniformRowHeights(true);
  metrics_->setAlternatingRowColors(true);
  metrics_->setItemDelegate(new StaticTextDelegate(metrics_));
  // The names take what the numbers leave: a tree's last column stretches too by default, and
  // the two shared the room, cutting names with space to spare beside them (issue #33).
  metrics_->header()->setStretchLastSection(false);
  metrics_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < 4; ++c)
    metrics_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

  for (const MetricInfo* info : metricRowOrder()) {
    auto* item = new QTreeWidgetItem(metrics_);
    item->setData(0, Qt::UserRole, qs(info->name));
    for (int c = 1; c < 4; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    rows_.insert(qs(info->name), item);
  }
  setDependencyWords(words_);

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

void MetricsPanel::setDependencyWords(const DependencyWords& words) {
  words_ = words;
  for (const MetricInfo& info : metricRegistry()) {
    QTreeWidgetItem* item = rows_.value(qs(info.name));
    if (item == nullptr) continue;
    QString description = qs(inDependencyWords(info.description, words_));
    description[0] = description[0].toUpper();
    item->setText(0, qs(inDependencyWords(info.label, words_)));
    item->setToolTip(0, description + QStringLiteral(" (") + qs(info.name) + QStringLiteral(")"));
  }
}

QString MetricsPanel::labelText(const QString& metric) const {
  const QTreeWidgetItem* item = rows_.value(metric);
  return item ? item->text(0) : QString();
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

// A metric check's value as its metric's row shows it ("14.09 s", "1,130"): the result keeps
// every digit ("14.0906"). A lane check's text as it is.
QString checkValueText(const ExpectationResult& r) {
  const QString text = QString::fromStdString(r.actual);
  const MetricInfo* info =
      r.expectation != nullptr && r.expectation->kind == Expectation::Kind::metric
          ? findMetric(r.expectation->metric)
          : nullptr;
  bool number = false;
  const double value = QLocale::c().toDouble(text, &number);
  return info != nullptr && number ? formatMetric(info->unit, value, info->integral) : text;
}

}  // namespace

void MetricsPanel::setResults(const Result& current, const Result& baseline, const Checks& checks) {
  // A column sized to its contents measures every row again on each cell's change (forty rows
  // of text shaping per cell); fixed while the cells change, it is measured once afterwards.
  QHeaderView* header = metrics_->header();
  for (int c = 1; c < 4; ++c) header->setSectionResizeMode(c, QHeaderView::Fixed);
  bool rows_shown_changed = false;
  for (const MetricInfo& info : metricRegistry()) {
    QTreeWidgetItem* item = rows_.value(qs(info.name));
    const MetricCells cells = metricCells(info, current.metrics, baseline.metrics);
    if (item->isHidden() == cells.shown) {
      item->setHidden(!cells.shown);
      rows_shown_changed = true;
    }
    setTextIfChanged(item, 1, cells.value);
    setTextIfChanged(item, 2, cells.baseline);
    setTextIfChanged(item, 3, cells.delta);
    setForegroundIfChanged(item, 3,
                           cells.direction > 0   ? QBrush(palette::kGood)
                           : cells.direction < 0 ? QBrush(palette::kBad)
                                                 : palette().brush(QPalette::Text));
    directions_[qs(info.name)] = cells.direction;
  }
  // A row shown or hidden moves the rows under it, which the view lays out later; until then
  // it repaints only the rows whose text changed before the first such row, and when that paint
  // comes first it lays the rows out inside it, where its request to repaint them all is lost
  // (another incident's rows under "Mean call" stayed on screen, issue #33). Laid out now, every
  // row is repainted.
  if (rows_shown_changed) metrics_->doItemsLayout();
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
  // More goals met is not better when a headline metric regresses beyond the gate's tolerance
  // (the second walkthrough of issue #33: "better than deployed" in green while failed checkouts
  // doubled): the verdict names what got worse, and is not green.
  const std::vector<MetricComparison> regressed =
      goals.verdict == V::none || goals.verdict == V::worse
          ? std::vector<MetricComparison>{}
          : headlineRegressions(baseline.metrics, current.metrics);
  if (!regressed.empty())
    verdict += tr(", but worse on %1").arg(qs(regressedMetricsText(regressed, words_)));
  if (verdict_label_->text() != verdict) verdict_label_->setText(verdict);
  const QColor colour = goals.verdict == V::better && regressed.empty() ? palette::kGood
                        : goals.verdict == V::worse                     ? palette::kBad
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
      result += checkValueText(e);
      if (is_goals && i < g.baseline->size())
        result += tr("  (%1 %2)").arg(baseline_name_, checkValueText((*g.baseline)[i]));
      if (item->text(1) != result) {
        item->setText(1, result);
        // Whole in the tooltip: a lane check's reason is longer than its column (the second
        // walkthrough of issue #33 read it cut).
        item->setToolTip(1, result);
      }
      setForegroundIfChanged(item, 1, QBrush(e.passed ? palette::kGood : palette::kBad));
      if (item->data(1, Qt::UserRole).toBool() != e.passed || !same)
        item->setData(1, Qt::UserRole, e.passed);
      if (!same)
        item->setToolTip(0, tr("%1\n(line %2 of the incident)")
                                .arg(QString::fromStdString(e.expectation->text))
                                .arg(e.expectation->line));
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
  // Its column is as wide as its contents: a long name ("what-if breaker-before-saturation")
  // would take the metric names' room and cut them ("Cached while…", issue #33). The header
  // elides it to about a number's width; its tooltip has it whole.
  const QString title = name.left(1).toUpper() + name.mid(1);
  const QFontMetrics metrics(metrics_->header()->font());
  const int room = metrics.horizontalAdvance(QStringLiteral("-88,888.88 ms"));
  metrics_->headerItem()->setText(2, metrics.elidedText(title, Qt::ElideRight, room));
  metrics_->headerItem()->setToolTip(2, title);
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
