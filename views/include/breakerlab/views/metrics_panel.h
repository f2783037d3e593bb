#pragma once
// The numbers of a replay beside those of the deployed config, with the difference coloured by
// whether it is better or worse, and the incident's expectations as pass/fail.
#include <QHash>
#include <QWidget>
#include <vector>

#include "breakerlab/core/expectations.h"
#include "breakerlab/core/result.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace breakerlab::views {

class MetricsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MetricsPanel(QWidget* parent = nullptr);

  void setResults(const Result& current, const Result& baseline,
                  const std::vector<ExpectationResult>& expectations);

  // The shown value of a metric ("14.09 s"), and its delta column ("-12.04 s").
  QString valueText(const QString& metric) const;
  QString deltaText(const QString& metric) const;
  // False for a row hidden because neither run has the resource it measures (no bounded pool,
  // no health checks, ...); undefined metrics otherwise show as "—".
  bool isShown(const QString& metric) const;
  // Whether the delta is shown as better (+1), worse (-1) or unchanged (0).
  int deltaDirection(const QString& metric) const;
  int failedExpectations() const { return failed_expectations_; }
  // Tab-separated: metric, value, deployed, delta (the rows shown); then the expectations.
  QString asText() const;

 private:
  QTreeWidget* metrics_ = nullptr;
  QTreeWidget* expectations_ = nullptr;
  QHash<QString, QTreeWidgetItem*> rows_;
  QHash<QString, int> directions_;
  int failed_expectations_ = 0;
};

// "1,760", "14.09 s", "800 ms", "0.27", "—" (undefined).
QString formatMetric(std::string_view unit, const std::optional<double>& value, bool integral);

}  // namespace breakerlab::views
