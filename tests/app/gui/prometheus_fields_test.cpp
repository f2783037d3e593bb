// What File ▸ Import from Prometheus needs before it asks the server, as a table, and the dialog
// that keeps Preview and Import off until then (issue #33: example values in the fields read as
// filled ones).
#include "prometheus_fields.h"

#include <gtest/gtest.h>

#include <QLineEdit>
#include <QPushButton>

#include "prometheus_import_dialog.h"

namespace breakerlab::app {
namespace {

TEST(PrometheusFields, SayTheFirstThingMissingOrWrong) {
  struct Case {
    const char* url;
    const char* from;
    const char* to;
    const char* says;  // nullptr: nothing, the fields can be asked
  };
  const Case cases[] = {
      {"", "", "", "Give the server's URL (e.g. http://127.0.0.1:9090)."},
      {"  ", "2026-09-08T14:00:00Z", "2026-09-08T14:10:00Z", "Give the server's URL"},
      {"prometheus:9090", "", "",
       "Server URL: \"prometheus:9090\" is not the URL of a Prometheus "
       "server: expected http://HOST:PORT"},
      {"http://", "", "", "Server URL: \"http://\" is not the URL of a Prometheus server: no host"},
      {"http://prom etheus:9090", "", "", "Server URL: "},
      {"http://127.0.0.1:9090?q=up", "", "", "Server URL: "},
      {"http://127.0.0.1:9090", "", "", "Give the start of the range in From"},
      {"http://127.0.0.1:9090", "2026-09-08T14:00:00Z", "", "Give the end of the range in To"},
      {"http://127.0.0.1:9090", "noon", "2026-09-08T14:10:00Z", "From: expected RFC 3339"},
      {"http://127.0.0.1:9090", "2026-09-08T14:00:00Z", "later", "To: expected RFC 3339"},
      {"http://127.0.0.1:9090", "2026-09-08T14:00:00Z", "2026-09-08T14:10:00Z", nullptr},
      {" https://prom.example.com/prefix ", "1788876000", "1788876600", nullptr},
  };
  for (const Case& c : cases) {
    const QString problem = prometheusFieldsProblem(c.url, c.from, c.to);
    if (c.says == nullptr)
      EXPECT_TRUE(problem.isEmpty()) << c.url << ": " << problem.toStdString();
    else
      EXPECT_TRUE(problem.startsWith(QString::fromUtf8(c.says)))
          << c.url << " / " << c.from << " / " << c.to << ": " << problem.toStdString();
  }
}

TEST(PrometheusImportDialog, ExamplesAreNotValuesAndImportWaitsForTheRequiredFields) {
  PrometheusImportDialog dialog;
  auto* url = dialog.findChild<QLineEdit*>("prometheus-url");
  auto* from = dialog.findChild<QLineEdit*>("prometheus-from");
  auto* to = dialog.findChild<QLineEdit*>("prometheus-to");
  auto* import = dialog.findChild<QPushButton*>("prometheus-import-button");
  auto* preview = dialog.findChild<QPushButton*>("prometheus-preview-button");
  ASSERT_TRUE(url && from && to && import && preview);
  for (const char* name :
       {"prometheus-url", "prometheus-from", "prometheus-to", "prometheus-step"}) {
    const auto* edit = dialog.findChild<QLineEdit*>(name);
    ASSERT_NE(edit, nullptr) << name;
    EXPECT_TRUE(edit->text().isEmpty()) << name;
    EXPECT_TRUE(edit->placeholderText().startsWith("e.g. ")) << name;
  }
  EXPECT_FALSE(import->isEnabled());
  EXPECT_FALSE(preview->isEnabled());
  EXPECT_TRUE(dialog.errorText().startsWith("Give the server's URL"));

  url->setText("prometheus:9090");
  EXPECT_FALSE(import->isEnabled());
  EXPECT_TRUE(dialog.errorText().startsWith("Server URL: \"prometheus:9090\" is not the URL"))
      << dialog.errorText().toStdString();
  url->setText("http://127.0.0.1:9090");
  from->setText("2026-09-08T14:00:00Z");
  EXPECT_FALSE(import->isEnabled());
  EXPECT_TRUE(dialog.errorText().startsWith("Give the end of the range"))
      << dialog.errorText().toStdString();
  to->setText("2026-09-08T14:10:00Z");
  EXPECT_TRUE(import->isEnabled());
  EXPECT_TRUE(preview->isEnabled());
  EXPECT_TRUE(dialog.errorText().startsWith("Preview runs the queries"));
  url->clear();
  EXPECT_FALSE(import->isEnabled());
}

}  // namespace
}  // namespace breakerlab::app
