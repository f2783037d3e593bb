#include "import_report_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/views/qt_text.h"
#include "dialog_folders.h"
#include "settings_keys.h"

namespace breakerlab::app {

namespace {
// Kinds by how much they need the reader's attention; the colours are the lanes' (red: failed).
const char* kindColour(ImportFinding::Kind kind) {
  switch (kind) {
    case ImportFinding::Kind::missing:
      return "#c62828";
    case ImportFinding::Kind::assumed:
      return "#ef6c00";
    case ImportFinding::Kind::calibrated:
      return "#1565c0";
    case ImportFinding::Kind::recognised:
      return "#2e7d32";
    case ImportFinding::Kind::note:
      return "#616161";
  }
  return "#616161";
}
}  // namespace

QString ImportReportDialog::reportHtml(const ImportReport& report) {
  using K = ImportFinding::Kind;
  QString html = QStringLiteral("<p><b>%1</b> (%2)</p>")
                     .arg(qs(report.source).toHtmlEscaped(), qs(report.format).toHtmlEscaped());
  // Missing and assumed first: they are what the user should check.
  for (K kind : {K::missing, K::assumed, K::calibrated, K::recognised, K::note}) {
    if (report.count(kind) == 0) continue;
    html += QStringLiteral(
                "<h3 style='color:%1'>%2 (%3)</h3><table cellspacing='0' "
                "cellpadding='3'>")
                .arg(QString::fromLatin1(kindColour(kind)), qs(toString(kind)).toHtmlEscaped(),
                     QString::number(report.count(kind)));
    for (const ImportFinding& f : report.findings) {
      if (f.kind != kind) continue;
      html += QStringLiteral(
                  "<tr><td style='color:#757575'>%1</td><td><b>%2</b></td>"
                  "<td>%3</td></tr>")
                  .arg(f.line > 0 ? QObject::tr("line %1").arg(f.line) : QString(),
                       qs(f.what).toHtmlEscaped(), qs(f.detail).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
  }
  return html;
}

ImportReportDialog::ImportReportDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Import Report"));
  setObjectName(QStringLiteral("import-report"));
  summary_ = new QLabel;
  summary_->setWordWrap(true);

  report_ = new QTextBrowser;
  report_->setObjectName(QStringLiteral("import-report-text"));
  report_->setOpenLinks(false);

  auto* table_page = new QWidget;
  auto* hint = new QLabel(
      tr("How each dependency state named in the document behaves in the replay. The first row "
         "whose <i>match</i> phrase appears in a state's name is used; <i>fitted</i> marks the "
         "outcome whose share calibration fits to the recorded breaker lane. Edit and press "
         "<b>Import Again</b>."));
  hint->setWordWrap(true);
  table_ = new QPlainTextEdit;
  table_->setObjectName(QStringLiteral("state-table"));
  table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  table_->setLineWrapMode(QPlainTextEdit::NoWrap);
  table_error_ = new QLabel;
  table_error_->setStyleSheet(QStringLiteral("color:#c62828"));
  table_error_->setWordWrap(true);
  table_error_->hide();
  auto* table_layout = new QVBoxLayout(table_page);
  table_layout->addWidget(hint);
  table_layout->addWidget(table_, 1);
  table_layout->addWidget(table_error_);

  tabs_ = new QTabWidget;
  tabs_->addTab(report_, tr("&Report"));
  tabs_->addTab(table_page, tr("&State Table"));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QPushButton* again = buttons->addButton(tr("&Import Again"), QDialogButtonBox::ApplyRole);
  again->setObjectName(QStringLiteral("import-again"));
  again->setToolTip(tr("Read the document again with the state table as edited, and calibrate"));
  QPushButton* save = buttons->addButton(tr("Save &Table…"), QDialogButtonBox::ActionRole);
  QPushButton* load = buttons->addButton(tr("&Load Table…"), QDialogButtonBox::ActionRole);
  QPushButton* defaults = buttons->addButton(tr("&Defaults"), QDialogButtonBox::ResetRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
  connect(save, &QPushButton::clicked, this, &ImportReportDialog::saveTable);
  connect(load, &QPushButton::clicked, this, &ImportReportDialog::loadTable);
  connect(defaults, &QPushButton::clicked, this, [this] { setStateTable(StateTable::defaults()); });
  connect(again, &QPushButton::clicked, this, [this] {
    QString error;
    if (auto table = editedTable(&error)) {
      table_error_->hide();
      emit reimportRequested(*table);
    } else {
      table_error_->setText(error);
      table_error_->show();
      tabs_->setCurrentIndex(1);
    }
  });

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(tabs_, 1);
  layout->addWidget(buttons);
  resize(820, 600);
}

void ImportReportDialog::setReport(const ImportReport& report) {
  using K = ImportFinding::Kind;
  summary_->setText(tr("%1 recognised · %2 assumed · %3 missing · %4 calibrated. Check what was "
                       "assumed and what is missing before trusting the replay.")
                        .arg(report.count(K::recognised))
                        .arg(report.count(K::assumed))
                        .arg(report.count(K::missing))
                        .arg(report.count(K::calibrated)));
  report_->setHtml(reportHtml(report));
}

void ImportReportDialog::setStateTable(const StateTable& table) {
  table_->setPlainText(qs(stateTableToYaml(table)));
  table_error_->hide();
}

std::optional<StateTable> ImportReportDialog::editedTable(QString* error) const {
  try {
    return parseStateTable(table_->toPlainText().toStdString(), "state table");
  } catch (const LoadError& e) {
    if (error) *error = QString::fromStdString(e.what());
  }
  return std::nullopt;
}

void ImportReportDialog::saveTable() {
  const QString folder = dialogFolder(FileKind::state_table, DialogMode::save, {});
  const QString path = QFileDialog::getSaveFileName(this, tr("Save State Table"), folder,
                                                    tr("State tables (*.yaml *.yml)"));
  if (path.isEmpty()) return;
  rememberDialogFolder(FileKind::state_table, path);
  try {
    writeOutputFile(path.toStdString(), table_->toPlainText().toStdString());
  } catch (const std::exception& e) {
    table_error_->setText(QString::fromStdString(e.what()));
    table_error_->show();
  }
}

void ImportReportDialog::loadTable() {
  const QString folder = dialogFolder(FileKind::state_table, DialogMode::open, {});
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Load State Table"), folder, tr("State tables (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  rememberDialogFolder(FileKind::state_table, path);
  try {
    const std::string text = readTextFile(path.toStdString());
    setStateTable(parseStateTable(text, path.toStdString()));
  } catch (const std::exception& e) {
    table_error_->setText(QString::fromStdString(e.what()));
    table_error_->show();
    tabs_->setCurrentIndex(1);
  }
}

}  // namespace breakerlab::app
