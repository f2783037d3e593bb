// File > Export Report in the workbench: the deployed config, the tuning and B, as shown.
#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "main_window.h"
#include "replay_session.h"
#include "report_export.h"
#include "test_incident.h"

namespace breakerlab::app {
namespace {

struct ReportExport : ::testing::Test {
  ReportExport() {
    window.setInteractive(false);
    window.setErrorReporter([this](const QString&, const QString& text) { errors << text; });
    window.resize(1400, 900);
    window.show();
  }
  void settle() {
    QElapsedTimer waited;
    waited.start();
    while ((window.comparison().busy() || window.session().busy()) && waited.elapsed() < 60'000)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QCoreApplication::processEvents();
  }
  QString exported(const char* name) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    QString error;
    EXPECT_TRUE(exportReportTo(window.session(), window.comparison(), path, &error))
        << error.toStdString();
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
  }
  static int images(const QString& html) {
    return static_cast<int>(html.count(QStringLiteral("src=\"data:image/png;base64,")));
  }
  MainWindow window;
  QStringList errors;
  QTemporaryDir dir;
};

TEST_F(ReportExport, TheActionIsInTheFileMenuOnceAnIncidentIsOpen) {
  QAction* action = window.action(QStringLiteral("export-report"));
  ASSERT_NE(action, nullptr);
  EXPECT_FALSE(action->isEnabled()) << "nothing to report on the start page";
  EXPECT_EQ(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  EXPECT_TRUE(action->isEnabled());
}

TEST_F(ReportExport, DeployedTuningAndB) {
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  settle();
  // Untuned: the deployed config alone.
  QString html = exported("deployed.html");
  EXPECT_EQ(images(html), 1);
  EXPECT_TRUE(html.contains("Only the deployed config is in this report."));

  // The early probe as the tuning.
  window.session().setConfig(test::incident0908().whatIf("early-probe")->config);
  settle();
  html = exported("tuned.html");
  EXPECT_EQ(images(html), 2);
  EXPECT_TRUE(html.contains("<h3>What-if early-probe</h3>"));
  EXPECT_TRUE(html.contains("breaker.open.early_probe.enabled"));

  // B is the short TTL: a third config, after A.
  for (const ComparisonSlot::Choice& choice : window.comparisonChoices())
    if (choice.name == QStringLiteral("what-if short-ttl")) window.compareWith(choice);
  settle();
  ASSERT_NE(window.comparison().result(), nullptr);
  html = exported("ab.pdf.html");
  EXPECT_EQ(images(html), 3);
  const auto a = html.indexOf("<h3>What-if early-probe</h3>");
  const auto b = html.indexOf("<h3>B: what-if short-ttl</h3>");
  EXPECT_GE(a, 0);
  EXPECT_GT(b, a) << "B after A";
  EXPECT_TRUE(html.contains("fallback.cache.ttl"));

  // And as PDF.
  const QString pdf = dir.filePath("ab.pdf");
  QString error;
  ASSERT_TRUE(exportReportTo(window.session(), window.comparison(), pdf, &error))
      << error.toStdString();
  QFile file(pdf);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_TRUE(file.read(5) == "%PDF-");
  EXPECT_GT(file.size(), 50'000);
  EXPECT_TRUE(errors.isEmpty()) << errors.join('\n').toStdString();
}

TEST_F(ReportExport, ErrorsSayWhy) {
  QString error;
  EXPECT_FALSE(
      exportReportTo(window.session(), window.comparison(), dir.filePath("x.pdf"), &error));
  EXPECT_TRUE(error.contains("No incident")) << error.toStdString();
  ASSERT_TRUE(window.openIncident(QString::fromStdString(test::incidentPath())));
  settle();
  EXPECT_FALSE(
      exportReportTo(window.session(), window.comparison(), "/nonexistent-dir/r.pdf", &error));
  EXPECT_TRUE(error.contains("cannot create a temporary file in /nonexistent-dir"))
      << error.toStdString();
  EXPECT_FALSE(
      exportReportTo(window.session(), window.comparison(), dir.filePath("r.docx"), &error));
  EXPECT_TRUE(error.contains("Unknown report type 'docx'")) << error.toStdString();
}

}  // namespace
}  // namespace breakerlab::app
