#pragma once
// What an import made of a document (recognised, assumed, missing, calibrated, each with its
// line), and the state-name table the import read the dependency's states with: the user edits
// the table and imports again, which re-runs the calibration.
#include <QDialog>
#include <functional>

#include "breakerlab/data/import_report.h"
#include "breakerlab/data/state_table.h"

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextBrowser;

namespace breakerlab::app {

class ImportReportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ImportReportDialog(QWidget* parent = nullptr);

  void setReport(const ImportReport& report);
  void setStateTable(const StateTable& table);
  // The table as edited, or the error (line:column: message) that keeps it from being read.
  std::optional<StateTable> editedTable(QString* error) const;

  // The report as HTML (also what tests read): one row per finding.
  static QString reportHtml(const ImportReport& report);

 signals:
  // "Import Again": the document is read again with `table` and calibrated again.
  void reimportRequested(const breakerlab::StateTable& table);

 private:
  void saveTable();
  void loadTable();

  QTabWidget* tabs_ = nullptr;
  QTextBrowser* report_ = nullptr;
  QPlainTextEdit* table_ = nullptr;
  QLabel* table_error_ = nullptr;
  QLabel* summary_ = nullptr;
};

}  // namespace breakerlab::app
