#include "prometheus_import_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <nlohmann/json.hpp>

#include "breakerlab/data/load_error.h"
#include "breakerlab/views/qt_text.h"
#include "prometheus_fields.h"

namespace breakerlab::app {

namespace {

// A series shown by its labels, as PromQL writes them: name{label="value",...}.
QString seriesText(const nlohmann::json& metric) {
  std::string name, labels;
  if (metric.is_object())
    for (auto it = metric.begin(); it != metric.end(); ++it) {
      const std::string value = it.value().is_string() ? it.value().get<std::string>() : "";
      if (it.key() == "__name__")
        name = value;
      else
        labels += (labels.empty() ? "" : ",") + it.key() + "=\"" + value + "\"";
    }
  return qs(clipText(name + "{" + labels + "}", 160));
}

QStringList lines(const QPlainTextEdit* edit) {
  QStringList out;
  for (const QString& line : edit->toPlainText().split(QLatin1Char('\n')))
    if (!line.trimmed().isEmpty()) out << line.trimmed();
  return out;
}

}  // namespace

PrometheusImportDialog::PrometheusImportDialog(QWidget* parent, HttpFactory http)
    : QDialog(parent), http_(http ? std::move(http) : HttpFactory(&makeCurlHttpGet)) {
  setWindowTitle(tr("Import from Prometheus"));
  setObjectName(QStringLiteral("prometheus-import"));
  // Placeholders read as examples ("e.g. ..."), greyed by the style: bare values in them were
  // taken for filled fields (issue #33).
  url_ = new QLineEdit;
  url_->setObjectName(QStringLiteral("prometheus-url"));
  url_->setPlaceholderText(tr("e.g. http://127.0.0.1:9090"));
  url_->setToolTip(tr("Required: the Prometheus server, http://HOST:PORT or https://HOST"));
  from_ = new QLineEdit;
  from_->setObjectName(QStringLiteral("prometheus-from"));
  from_->setPlaceholderText(tr("e.g. 2026-09-08T14:00:00Z"));
  from_->setToolTip(tr("Required: the start of the range, RFC 3339 or Unix seconds"));
  to_ = new QLineEdit;
  to_->setObjectName(QStringLiteral("prometheus-to"));
  to_->setPlaceholderText(tr("e.g. 2026-09-08T14:10:00Z"));
  to_->setToolTip(tr("Required: the end of the range, RFC 3339 or Unix seconds"));
  step_ = new QLineEdit;
  step_->setObjectName(QStringLiteral("prometheus-step"));
  step_->setPlaceholderText(tr("e.g. 30s (15s when left empty)"));
  queries_ = new QPlainTextEdit;
  queries_->setObjectName(QStringLiteral("prometheus-queries"));
  queries_->setToolTip(
      tr("One query a line: ROLE=PROMQL, with ROLE one of breaker_state, request_rate, "
         "error_ratio, latency_p50, latency_p95, latency_p99; or PROMQL whose series are a "
         "breaker's state"));
  QStringList defaults;
  for (const PrometheusQuery& q : defaultPrometheusQueries())
    defaults << qs(q.role) + QLatin1Char('=') + qs(q.promql);
  queries_->setPlainText(defaults.join(QLatin1Char('\n')));
  headers_ = new QPlainTextEdit;
  headers_->setObjectName(QStringLiteral("prometheus-headers"));
  headers_->setPlaceholderText(tr("e.g. Authorization: Bearer <token> (optional, one a line)"));
  headers_->setMaximumHeight(60);
  queries_->setMaximumHeight(120);

  auto* form = new QFormLayout;
  form->addRow(tr("Server URL *"), url_);
  form->addRow(tr("From *"), from_);
  form->addRow(tr("To *"), to_);
  form->addRow(tr("Step"), step_);
  form->addRow(tr("Queries"), queries_);
  form->addRow(tr("Headers"), headers_);

  series_ = new QTreeWidget;
  series_->setObjectName(QStringLiteral("prometheus-series"));
  series_->setHeaderLabels({tr("Series found")});
  status_ = new QLabel(tr("Preview runs the queries and lists the series they find."));
  status_->setObjectName(QStringLiteral("prometheus-status"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
  preview_button_ = buttons->addButton(tr("&Preview"), QDialogButtonBox::ActionRole);
  preview_button_->setObjectName(QStringLiteral("prometheus-preview-button"));
  import_button_ = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
  import_button_->setObjectName(QStringLiteral("prometheus-import-button"));
  connect(preview_button_, &QPushButton::clicked, this, [this] { start(false); });
  // Import takes the previewed answers, or runs the queries and takes them when they all answer.
  disconnect(buttons, &QDialogButtonBox::accepted, nullptr, nullptr);
  connect(import_button_, &QPushButton::clicked, this, [this] {
    if (result_)
      accept();
    else
      start(true);
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  for (QLineEdit* edit : {url_, from_, to_, step_})
    connect(edit, &QLineEdit::textChanged, this, [this] { fieldsChanged(); });
  for (QPlainTextEdit* edit : {queries_, headers_})
    connect(edit, &QPlainTextEdit::textChanged, this, [this] { fieldsChanged(); });
  connect(&watcher_, &QFutureWatcher<Run>::finished, this, [this] { finished(); });

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(series_, 1);
  layout->addWidget(status_);
  layout->addWidget(buttons);
  resize(720, 560);
  updateReadiness();
}

PrometheusImportDialog::~PrometheusImportDialog() {
  // A run under way ends within its timeout: the window waits for it rather than leave it
  // writing into a dialog that is gone.
  watcher_.waitForFinished();
}

void PrometheusImportDialog::setFetch(const PrometheusFetch& f) {
  url_->setText(qs(f.url));
  from_->setText(f.from > 0 ? qs(formatRfc3339(f.from)) : QString());
  to_->setText(f.to > 0 ? qs(formatRfc3339(f.to)) : QString());
  step_->setText(f.step > 0 ? QString::number(f.step) : QString());
  QStringList queries;
  for (const PrometheusQuery& q : f.queries.empty() ? defaultPrometheusQueries() : f.queries)
    queries << (q.role.empty() ? QString() : qs(q.role) + QLatin1Char('=')) + qs(q.promql);
  queries_->setPlainText(queries.join(QLatin1Char('\n')));
  QStringList headers;
  for (const std::string& h : f.headers) headers << qs(h);
  headers_->setPlainText(headers.join(QLatin1Char('\n')));
}

std::optional<PrometheusFetch> PrometheusImportDialog::fetch(QString* error) const {
  if (const QString problem = prometheusFieldsProblem(url_->text(), from_->text(), to_->text());
      !problem.isEmpty()) {
    if (error != nullptr) *error = problem;
    return std::nullopt;
  }
  try {
    PrometheusFetch f;
    f.url = url_->text().trimmed().toStdString();
    if (f.url.empty()) throw LoadError(tr("Server URL").toStdString(), 0, 0, "give the server");
    f.from = parsePrometheusTime(from_->text().toStdString(), tr("From").toStdString());
    f.to = parsePrometheusTime(to_->text().toStdString(), tr("To").toStdString());
    if (!step_->text().trimmed().isEmpty())
      f.step = parsePrometheusStep(step_->text().toStdString(), tr("Step").toStdString());
    for (const QString& q : lines(queries_))
      f.queries.push_back(parsePrometheusQuery(q.toStdString(), tr("Queries").toStdString()));
    for (const QString& h : lines(headers_)) f.headers.push_back(h.toStdString());
    (void)planPrometheusFetch(f);  // the URL, headers, range and roles, before anything is asked
    return f;
  } catch (const LoadError& e) {
    if (error != nullptr) *error = qs(e.what());
    return std::nullopt;
  }
}

void PrometheusImportDialog::preview() {
  start(false);
}

bool PrometheusImportDialog::busy() const {
  return watcher_.isRunning();
}

const PrometheusImport* PrometheusImportDialog::result() const {
  return result_ ? &*result_ : nullptr;
}

void PrometheusImportDialog::start(bool accept_when_done) {
  if (busy()) return;
  QString error;
  const std::optional<PrometheusFetch> f = fetch(&error);
  if (!f) {
    status_->setText(error);
    return;
  }
  accept_when_done_ = accept_when_done;
  changed_while_busy_ = false;
  result_.reset();
  series_->clear();
  status_->setText(tr("Asking %1…").arg(url_->text().trimmed()));
  preview_button_->setEnabled(false);
  import_button_->setEnabled(false);
  HttpFactory http = http_;
  watcher_.setFuture(QtConcurrent::run([f = *f, http]() {
    Run run;
    try {
      const std::unique_ptr<HttpGet> client = http();
      run.imported = importPrometheusUrl(f, *client, Config{});
    } catch (const LoadError& e) {
      run.error = qs(e.what());
    } catch (const std::exception& e) {
      run.error = qs(e.what());
    }
    return run;
  }));
}

void PrometheusImportDialog::finished() {
  Run run = watcher_.result();
  const bool ready = prometheusFieldsProblem(url_->text(), from_->text(), to_->text()).isEmpty();
  preview_button_->setEnabled(ready);
  import_button_->setEnabled(ready);
  if (!run.imported || changed_while_busy_) {
    status_->setText(run.imported ? tr("The fields changed while the queries ran: Preview again")
                                  : run.error);
    emit previewFinished(false);
    return;
  }
  result_ = std::move(run.imported);
  // Each query with what it found, its series under it (the first 50).
  const nlohmann::json bundle = nlohmann::json::parse(result_->responses, nullptr, false);
  for (const ImportFinding& f : result_->imported.report.findings) {
    if (f.what.rfind("query ", 0) != 0) continue;
    auto* item = new QTreeWidgetItem(series_, {qs(f.what.substr(6) + ": " + f.detail)});
    const std::string role = f.what.substr(6);
    if (bundle.is_object() && bundle.contains(role)) {
      const nlohmann::json& result = bundle[role]["data"]["result"];
      for (std::size_t i = 0; i < result.size() && i < 50; ++i)
        new QTreeWidgetItem(item, {seriesText(result[i].value("metric", nlohmann::json()))});
      if (result.size() > 50) new QTreeWidgetItem(item, {tr("… %1 more").arg(result.size() - 50)});
    }
    item->setExpanded(true);
  }
  const ImportReport& report = result_->imported.report;
  status_->setText(tr("%1 recognised, %2 assumed, %3 missing: Import opens it")
                       .arg(report.count(ImportFinding::Kind::recognised))
                       .arg(report.count(ImportFinding::Kind::assumed))
                       .arg(report.count(ImportFinding::Kind::missing)));
  emit previewFinished(true);
  if (accept_when_done_) accept();
}

void PrometheusImportDialog::fieldsChanged() {
  if (busy()) {
    changed_while_busy_ = true;
    return;
  }
  // The answers are those of the fields as they were: a change asks again.
  result_.reset();
  series_->clear();
  updateReadiness();
}

void PrometheusImportDialog::updateReadiness() {
  const QString problem = prometheusFieldsProblem(url_->text(), from_->text(), to_->text());
  preview_button_->setEnabled(problem.isEmpty() && !busy());
  import_button_->setEnabled(problem.isEmpty() && !busy());
  status_->setText(
      problem.isEmpty() ? tr("Preview runs the queries and lists the series they find.") : problem);
}

QString PrometheusImportDialog::previewText() const {
  QStringList out;
  for (int i = 0; i < series_->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* item = series_->topLevelItem(i);
    out << item->text(0);
    for (int k = 0; k < item->childCount(); ++k)
      out << QStringLiteral("  ") + item->child(k)->text(0);
  }
  return out.join(QLatin1Char('\n'));
}

QString PrometheusImportDialog::errorText() const {
  return status_->text();
}

}  // namespace breakerlab::app
