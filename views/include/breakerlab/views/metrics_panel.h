#pragma once
// The numbers of a replay beside those of the deployed config, with the difference coloured by
// whether it is better or worse, a verdict on the incident's goals, and the checks: calibration
// (the incident's expect: on the deployed config), goals (on the current config) and the
// what-if's own checks, as pass/fail.
#include <QHash>
#include <QWidget>
#include <vector>

#include "breakerlab/core/inputs/dependency_words.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/views/metric_cells.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace breakerlab::views {

class MetricsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MetricsPanel(QWidget* parent = nullptr);

  void setResults(const Result& current, const Result& baseline, const Checks& checks);
  // What the baseline is ("deployed" by default; B of an A/B comparison). Takes effect in the
  // header at once, in the verdict and goals on the next setResults().
  void setBaselineName(const QString& name);
  // The incident's words for the dependency's answers, in the metrics' names and descriptions
  // ("Oldest cached Inventory answer"); labelText is a metric's name as shown.
  void setDependencyWords(const DependencyWords& words);
  QString labelText(const QString& metric) const;

  // The shown value of a metric ("14.09 s"), and its delta column ("-12.04 s", "+3.20 pp").
  QString valueText(const QString& metric) const;
  QString deltaText(const QString& metric) const;
  // False for a row hidden because neither run has the resource it measures (no bounded pool,
  // no health checks, ...); undefined metrics otherwise show as "—".
  bool isShown(const QString& metric) const;
  // Whether the delta is shown as better (+1), worse (-1) or uncoloured (0: unchanged, or a
  // metric whose direction is neutral).
  int deltaDirection(const QString& metric) const;
  // Calibration checks and the what-if's checks that fail (goals not met are not counted).
  int failedExpectations() const { return failed_expectations_; }
  int unmetGoals() const { return unmet_goals_; }
  // The row on top of the metrics: "Goals: 2 of 2 met (deployed: 0 of 2) — better than
  // deployed".
  QString verdictText() const;
  GoalComparison::Verdict verdict() const { return verdict_; }

  // The rows of the checks tree under their group headers, as shown.
  struct CheckRow {
    QString group;  // the header: "Calibration · deployed config", "Goals · current config", ...
    QString text;   // the expectation as written
    QString result;
    bool passed = false;
  };
  std::vector<CheckRow> checkRows() const;
  QStringList groupTitles() const;

  // Tab-separated: metric, value, deployed, delta (the rows shown); then the goals verdict and
  // the checks: group, expectation, result.
  QString asText() const;

  static QString calibrationTitle();
  static QString goalsTitle();
  static QString checksTitle(const QString& of);

 private:
  QLabel* verdict_label_ = nullptr;
  QString baseline_name_ = QStringLiteral("deployed");
  DependencyWords words_;
  QTreeWidget* metrics_ = nullptr;
  QTreeWidget* expectations_ = nullptr;
  QHash<QString, QTreeWidgetItem*> rows_;
  QHash<QString, int> directions_;
  QStringList check_structure_;  // group titles and check texts, to update the tree in place
  int failed_expectations_ = 0;
  int unmet_goals_ = 0;
  GoalComparison::Verdict verdict_ = GoalComparison::Verdict::none;
};

}  // namespace breakerlab::views
