#pragma once
// File ▸ Import from Prometheus: a server's URL, a time range and the queries it will run (one a
// line, ROLE=PROMQL or PROMQL), headers, and a preview of the series each query found, run in
// the background. Import takes the previewed answers (or runs the queries first) and the window
// opens them as it opens the saved file (`import --prometheus`, docs/formats.md).
#include <QDialog>
#include <QFutureWatcher>
#include <functional>
#include <memory>
#include <optional>

#include "breakerlab/data/http_get.h"
#include "breakerlab/data/prometheus_query.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace breakerlab::app {

class PrometheusImportDialog : public QDialog {
  Q_OBJECT
 public:
  using HttpFactory = std::function<std::unique_ptr<HttpGet>()>;
  // `http`: how each run asks the server (default: libcurl; a test gives its own).
  explicit PrometheusImportDialog(QWidget* parent = nullptr, HttpFactory http = {});
  ~PrometheusImportDialog() override;

  // The fields from a fetch (the last one used, or a test's), and back; the error is what a
  // field is wrong about (`--from: expected RFC 3339 ...`).
  void setFetch(const PrometheusFetch& fetch);
  std::optional<PrometheusFetch> fetch(QString* error) const;

  // Runs the queries in the background; previewFinished(ok) when they are done.
  void preview();
  bool busy() const;
  // The answers of the last run, while the fields are as they were for it.
  const PrometheusImport* result() const;
  // What the preview shows, as text: one line a query, then its series (tests read it).
  QString previewText() const;
  QString errorText() const;

 signals:
  void previewFinished(bool ok);

 private:
  struct Run {
    std::optional<PrometheusImport> imported;
    QString error;
  };
  void start(bool accept_when_done);
  void finished();
  void fieldsChanged();
  // Preview and Import on only when the required fields read; the status says what is missing.
  void updateReadiness();

  HttpFactory http_;
  QLineEdit* url_ = nullptr;
  QLineEdit* from_ = nullptr;
  QLineEdit* to_ = nullptr;
  QLineEdit* step_ = nullptr;
  QPlainTextEdit* queries_ = nullptr;
  QPlainTextEdit* headers_ = nullptr;
  QTreeWidget* series_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* preview_button_ = nullptr;
  QPushButton* import_button_ = nullptr;
  QFutureWatcher<Run> watcher_;
  std::optional<PrometheusImport> result_;
  bool accept_when_done_ = false;
  bool changed_while_busy_ = false;  // the answers under way are for fields no longer there
};

}  // namespace breakerlab::app
