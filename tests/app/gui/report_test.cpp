// `breakerlab-cli report` end to end: the 8 Sep incident with the deployed config and the early
// probe as HTML and PDF, checked against the same replays made here; an imported postmortem's
// import report; a hostile incident title. The CLI runs as a user runs it, headless.
#include <gtest/gtest.h>

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/report.h"
#include "breakerlab/views/metrics_panel.h"
#include "report_metrics.h"
#include "test_incident.h"

namespace breakerlab::app {
namespace {

struct Cli {
  int code = -1;
  QString out, err;
};

Cli runCli(const QStringList& arguments) {
  QProcess process;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(QStringLiteral("QT_QPA_PLATFORM"));  // the report picks offscreen by itself
  env.remove(QStringLiteral("DISPLAY"));
  env.remove(QStringLiteral("WAYLAND_DISPLAY"));
  process.setProcessEnvironment(env);
  process.start(QStringLiteral(BREAKERLAB_CLI), arguments);
  process.waitForFinished(120'000);
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

QString readText(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

QString escaped(const QString& text) {
  return QString::fromStdString(escapeHtml(text.toStdString()));
}

// The cells the report must show: the metrics panel's formatting of this run's replay.
QString valueOf(const Result& result, const char* metric) {
  const MetricInfo& info = *findMetric(metric);
  return views::formatMetric(info.unit, info.get(result.metrics), info.integral);
}
QString deltaOf(const Result& now, const Result& before, const char* metric) {
  const MetricInfo& info = *findMetric(metric);
  return views::formatDelta(info.unit, *info.get(now.metrics) - *info.get(before.metrics),
                            info.integral);
}

const char* kMetricsShown[] = {"failed_checkouts",       "cached_window_s",
                               "cached_while_healthy_s", "time_to_close_after_recovery_s",
                               "dependency_calls",       "latency_p99_ms"};

struct Report0908 : ::testing::Test {
  QTemporaryDir dir;
  const Incident& incident = test::incident0908();
  const Result deployed = simulate(incident, incident.deployed);
  const Result early = simulate(incident, incident.whatIf("early-probe")->config);
  QString path(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }
};

TEST_F(Report0908, HtmlHasTheReplaysNumbersImagesAndDiff) {
  const Cli cli = runCli({"report", QString::fromStdString(test::incidentPath()), "--whatif",
                          "early-probe", "-o", path("report.html")});
  ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
  EXPECT_TRUE(cli.out.contains("2 configs")) << cli.out.toStdString();
  const QString html = readText(path("report.html"));
  ASSERT_FALSE(html.isEmpty());

  EXPECT_TRUE(html.contains(escaped(QString::fromStdString(incident.title))));
  EXPECT_TRUE(html.contains("2026-09-08T14:02:00Z")) << "the start time";
  for (const char* metric : kMetricsShown) {
    EXPECT_TRUE(html.contains(QString::fromLatin1(metric))) << metric;
    EXPECT_TRUE(html.contains(">" + escaped(valueOf(deployed, metric)) + "<")) << metric;
    EXPECT_TRUE(html.contains(">" + escaped(valueOf(early, metric)) + "<")) << metric;
  }
  const QString delta = deltaOf(early, deployed, "cached_while_healthy_s");
  EXPECT_TRUE(delta.startsWith('-')) << delta.toStdString();
  EXPECT_TRUE(html.contains(">" + escaped(delta) + "<")) << delta.toStdString();

  // Each config's lanes, inline, decoding as PNGs of a real size.
  const QRegularExpression image("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"");
  int images = 0;
  for (const auto& match : image.globalMatch(html)) {
    const QByteArray png = QByteArray::fromBase64(match.captured(1).toLatin1());
    EXPECT_GT(png.size(), 20'000);
    QImage decoded;
    ASSERT_TRUE(decoded.loadFromData(png, "PNG"));
    EXPECT_GE(decoded.width(), 1000);
    EXPECT_GE(decoded.height(), 600);
    ++images;
  }
  EXPECT_EQ(images, 2);
  EXPECT_FALSE(html.contains("http://") || html.contains("https://")) << "nothing fetched";

  // The early probe's keys against deployed, in BreakerLab's keys (the deployed config's own).
  EXPECT_TRUE(html.contains(QRegularExpression(
      "breaker\\.open\\.early_probe\\.enabled</td><td class=\"key\">false</td><td>→</td><td "
      "class=\"key\">true</td>")));
  EXPECT_TRUE(html.contains("Calibration · deployed config"));
  EXPECT_TRUE(html.contains("Checks · what-if &#39;early-probe&#39;"));
  EXPECT_TRUE(html.contains("better than deployed"));
  EXPECT_FALSE(html.contains("Import report")) << "a breakerlab/1 file was not imported";
}

// The report's table names the dependency's answers as the workbench does (issue #33, item 12).
TEST_F(Report0908, MetricLabelsAreInTheIncidentsWords) {
  auto labelOf = [](const std::vector<ReportMetric>& rows, const char* name) {
    for (const ReportMetric& row : rows)
      if (row.name == name) return row.label;
    return std::string("(no row)");
  };
  const std::vector<const Result*> results{&deployed, &early};
  EXPECT_EQ(labelOf(metricRows(results, dependencyWords(incident.dependency.name)),
                    "oldest_cached_price_s"),
            "Oldest cached price");
  EXPECT_EQ(labelOf(metricRows(results, dependencyWords("Inventory")), "oldest_cached_price_s"),
            "Oldest cached Inventory answer");
}

TEST_F(Report0908, GobreakerTermsNameWhatItCannotExpress) {
  const Cli cli = runCli({"report", "inc-2026-0908-pricing", "--whatif", "early-probe", "--library",
                          "gobreaker", "-o", path("report.html")});
  ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
  const QString html = readText(path("report.html"));
  EXPECT_TRUE(html.contains("In the terms of gobreaker (Go Settings)."));
  EXPECT_TRUE(html.contains("No setting of gobreaker (Go Settings) differs"));
  EXPECT_TRUE(html.contains("<li>early probe on health green"));
  EXPECT_TRUE(html.contains("What gobreaker (Go Settings) cannot express"));
}

TEST_F(Report0908, PdfReadsBackWithTheNumbersAndTitles) {
  const Cli cli = runCli({"report", QString::fromStdString(test::incidentPath()), "--whatif",
                          "early-probe", "-o", path("report.pdf")});
  ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
  QFile pdf(path("report.pdf"));
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_TRUE(pdf.read(5) == "%PDF-");
  pdf.close();

  QProcess pdftotext;
  pdftotext.start(QStringLiteral("pdftotext"), {path("report.pdf"), QStringLiteral("-")});
  ASSERT_TRUE(pdftotext.waitForFinished(60'000));
  ASSERT_EQ(pdftotext.exitCode(), 0) << "is poppler-utils installed? (scripts/setup-debian.sh)";
  const QString text = QString::fromUtf8(pdftotext.readAllStandardOutput());
  for (const char* title : {"Deployed config", "What-if early-probe", "INC-2026-0908"})
    EXPECT_TRUE(text.contains(QString::fromUtf8(title))) << title;
  for (const char* metric : kMetricsShown) {
    EXPECT_TRUE(text.contains(QString::fromLatin1(metric))) << metric;
    EXPECT_TRUE(text.contains(valueOf(deployed, metric))) << metric;
    EXPECT_TRUE(text.contains(valueOf(early, metric))) << metric;
  }
  EXPECT_TRUE(text.contains("breaker.open.early_probe.enabled"));
  EXPECT_TRUE(text.contains("PASS"));
  // A check's measured value rounded as the metrics table rounds it (it read "actual 14.0899").
  EXPECT_FALSE(text.contains(QRegularExpression("actual -?[0-9]+\\.[0-9]{3,}")))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QRegularExpression("actual [0-9]+\\.[0-9]{2} s")))
      << text.toStdString();

  // The lanes are drawn into the pages, not just their titles.
  QProcess images;
  images.start(QStringLiteral("pdfimages"), {QStringLiteral("-list"), path("report.pdf")});
  ASSERT_TRUE(images.waitForFinished(60'000));
  const QStringList rows = QString::fromUtf8(images.readAllStandardOutput()).split('\n');
  int lanes = 0;
  for (const QString& row : rows)
    if (row.contains(QRegularExpression("\\bimage\\s+(\\d{4})\\s+(\\d{3,4})\\b"))) ++lanes;
  EXPECT_GE(lanes, 2) << rows.join('\n').toStdString();
}

// Three configs (issue #33: the metrics' name column one letter wide, 15 pages): every metric's
// name whole in the text, every value there, and about as many pages as two configs take.
TEST_F(Report0908, PdfOfThreeConfigsKeepsTheMetricNamesWhole) {
  const Cli cli = runCli({"report", QString::fromStdString(test::incidentPath()), "--whatif",
                          "early-probe", "--whatif", "short-ttl", "-o", path("three.pdf")});
  ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
  QProcess pdftotext;
  pdftotext.start(QStringLiteral("pdftotext"), {path("three.pdf"), QStringLiteral("-")});
  ASSERT_TRUE(pdftotext.waitForFinished(60'000));
  ASSERT_EQ(pdftotext.exitCode(), 0) << "is poppler-utils installed? (scripts/setup-debian.sh)";
  const QString text = QString::fromUtf8(pdftotext.readAllStandardOutput());
  const Result short_ttl = simulate(incident, incident.whatIf("short-ttl")->config);
  for (const char* metric : kMetricsShown) {
    EXPECT_TRUE(text.contains(QString::fromLatin1(metric))) << metric;
    EXPECT_TRUE(text.contains(valueOf(short_ttl, metric))) << metric;
  }
  EXPECT_TRUE(text.contains("What-if short-ttl"));
  // Pages: text pages end in a form feed.
  EXPECT_LE(text.count(QChar('\f')), 8) << "pages";
}

void collectTables(QTextFrame* frame, QList<QTextTable*>& tables) {
  if (auto* table = qobject_cast<QTextTable*>(frame)) tables << table;
  for (QTextFrame* child : frame->childFrames()) collectTables(child, tables);
}

// The second walkthrough of issue #33: a table that went on over a page break went on without
// its header row. Each table with a header row has it in <thead>, which QTextDocument (the PDF)
// repeats on every page the table continues on.
TEST_F(Report0908, EveryTablesHeaderRowRepeatsOnTheNextPage) {
  const auto expectHeaderRows = [this](const QStringList& arguments, const QStringList& kinds) {
    const Cli cli = runCli(QStringList{"report"} + arguments + QStringList{"-o", path("t.html")});
    ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
    QTextDocument document;
    document.setHtml(readText(path("t.html")));
    QList<QTextTable*> tables;
    collectTables(document.rootFrame(), tables);
    QStringList headed;
    for (QTextTable* table : tables) {
      const QString first = table->cellAt(0, 0).firstCursorPosition().block().text();
      if (!kinds.contains(first)) continue;
      headed << first;
      EXPECT_EQ(table->format().headerRowCount(), 1) << first.toStdString();
    }
    for (const QString& kind : kinds)
      EXPECT_TRUE(headed.contains(kind)) << kind.toStdString() << ": no such table";
  };
  expectHeaderRows({QString::fromStdString(test::incidentPath()), "--whatif", "early-probe",
                    "--whatif", "short-ttl"},
                   {"Metric", "Result", "Setting", "Goal"});
  expectHeaderRows({QString::fromStdString(
                       test::resourcePath("postmortems/inc-2026-0908-pricing-postmortem.md"))},
                   {"Metric", "Kind"});
}

TEST_F(Report0908, ImportedPostmortemShowsItsImportReport) {
  const Cli cli = runCli({"report",
                          QString::fromStdString(test::resourcePath(
                              "postmortems/inc-2026-0908-pricing-postmortem.md")),
                          "-o", path("postmortem.html")});
  ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
  const QString html = readText(path("postmortem.html"));
  EXPECT_TRUE(html.contains("<h2>Import report</h2>"));
  EXPECT_TRUE(
      html.contains(QRegularExpression("<td>recognised</td><td class=\"num\">[0-9]+</td>")));
  EXPECT_TRUE(html.contains("calibrated"));
}

TEST_F(Report0908, HostileTitleDoesNotInjectMarkup) {
  std::string text = readTextFile(test::incidentPath());
  const auto at = text.find("\ntitle: ");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + 1, text.find('\n', at + 1) - at - 1,
               "title: \"<script>alert(1)</script><img src=x onerror=alert(2)> Pricing\"");
  const QString hostile = path("hostile.yaml");
  writeOutputFile(hostile.toStdString(), text);
  const Cli cli = runCli({"report", hostile, "-o", path("hostile.html")});
  ASSERT_EQ(cli.code, 0) << cli.err.toStdString();
  const QString html = readText(path("hostile.html"));
  EXPECT_FALSE(html.contains("<script"));
  EXPECT_FALSE(html.contains("<img src=x"));
  EXPECT_TRUE(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

}  // namespace
}  // namespace breakerlab::app
