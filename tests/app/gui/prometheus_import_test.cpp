// File ▸ Import from Prometheus, offscreen: the dialog runs its queries in the background
// against a server played by a fake HttpGet (the fleet's saved answers), lists the series each
// found, names what is wrong, and the window opens what it fetched.
#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "breakerlab/data/file_io.h"
#include "main_window.h"
#include "prometheus_import_dialog.h"
#include "replay_session.h"

namespace breakerlab::app {
namespace {

const std::string kAnswers = std::string(BREAKERLAB_TEST_FIXTURES) +
                             "/../../data/fixtures/prometheus/fleet-0908-answers.json";

std::vector<PrometheusQuery> fleetQueries() {
  return {
      {"breaker_state", R"(resilience4j_circuitbreaker_state{name="pricing"})"},
      {"request_rate",
       R"(sum by (instance) (rate(http_client_requests_total{uri="/prices"}[30s])))"},
      {"latency_p99", "max(pricing_latency_p99_seconds)"},
  };
}

PrometheusFetch fleetFetch() {
  PrometheusFetch f;
  f.url = "http://127.0.0.1:9090";
  f.from = 1788876000;
  f.to = 1788876600;
  f.step = 10;
  f.queries = fleetQueries();
  return f;
}

// Answers each fleet query with its role's saved answer; refuses every connection when told to.
class SavedAnswers : public HttpGet {
 public:
  explicit SavedAnswers(bool refuse) : refuse_(refuse) {
    const auto saved = nlohmann::json::parse(readTextFile(kAnswers));
    for (const PrometheusQuery& q : fleetQueries())
      answers_[encode(q.promql)] = saved[q.role].dump();
  }
  HttpResponse get(const HttpRequest& request) override {
    if (refuse_) throw HttpError(HttpError::Kind::connect, "Failed to connect to 127.0.0.1");
    for (const auto& [query, body] : answers_)
      if (request.url.find("?query=" + query + "&") != std::string::npos)
        return {200, "application/json", body};
    return {200, "application/json",
            R"({"status":"success","data":{"resultType":"matrix","result":[]}})"};
  }

 private:
  static std::string encode(const std::string& s) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s)
      if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
        out += static_cast<char>(c);
      } else {
        out += '%';
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    return out;
  }
  bool refuse_;
  std::map<std::string, std::string> answers_;
};

PrometheusImportDialog::HttpFactory savedAnswers(bool refuse = false) {
  return [refuse] { return std::make_unique<SavedAnswers>(refuse); };
}

bool runPreview(PrometheusImportDialog& dialog) {
  QSignalSpy done(&dialog, &PrometheusImportDialog::previewFinished);
  dialog.preview();
  if (!done.wait(20'000)) return false;
  return done.at(0).at(0).toBool();
}

TEST(PrometheusImportDialog, ThePreviewListsTheSeriesEachQueryFound) {
  PrometheusImportDialog dialog(nullptr, savedAnswers());
  dialog.setFetch(fleetFetch());
  ASSERT_TRUE(runPreview(dialog)) << dialog.errorText().toStdString();
  const QString text = dialog.previewText();
  EXPECT_TRUE(text.contains(
      R"(breaker_state: 'resilience4j_circuitbreaker_state{name="pricing"}': 9 series, 549 samples)"))
      << text.toStdString();
  // Each pod's state series, by its labels.
  for (const char* pod : {"pod-1", "pod-2", "pod-3"})
    EXPECT_TRUE(text.contains(
        QStringLiteral(
            R"(  resilience4j_circuitbreaker_state{instance="%1",name="pricing",state="open"})")
            .arg(QLatin1String(pod))))
        << pod << "\n"
        << text.toStdString();
  EXPECT_TRUE(text.contains(R"(request_rate: 'sum by (instance))")) << text.toStdString();
  EXPECT_TRUE(text.contains(R"(  {instance="pod-2"})")) << text.toStdString();
  ASSERT_NE(dialog.result(), nullptr);
  EXPECT_EQ(dialog.result()->imported.incident.id, "prometheus-20260908T140000Z");
  // A field changed: the answers were for the fields as they were.
  dialog.findChild<QLineEdit*>("prometheus-step")->setText("20s");
  EXPECT_EQ(dialog.result(), nullptr);
  EXPECT_TRUE(dialog.previewText().isEmpty());
}

TEST(PrometheusImportDialog, WhatIsWrongIsSaidAndNothingIsKept) {
  PrometheusImportDialog dialog(nullptr, savedAnswers(/*refuse=*/true));
  dialog.setFetch(fleetFetch());
  EXPECT_FALSE(runPreview(dialog));
  EXPECT_TRUE(dialog.errorText().contains(
      "http://127.0.0.1:9090/api/v1/query_range: query breaker_state "
      "'resilience4j_circuitbreaker_state{name=\"pricing\"}': could not connect"))
      << dialog.errorText().toStdString();
  EXPECT_EQ(dialog.result(), nullptr);
  // A field that does not read is said before anything is asked.
  dialog.findChild<QLineEdit*>("prometheus-from")->setText("noon");
  QString error;
  EXPECT_FALSE(dialog.fetch(&error));
  EXPECT_TRUE(error.startsWith("From: expected RFC 3339")) << error.toStdString();
  dialog.preview();
  EXPECT_FALSE(dialog.busy());
  EXPECT_TRUE(dialog.errorText().startsWith("From: expected RFC 3339"));
}

// Holds each request until released (at most 10 s), then answers as SavedAnswers does.
class HeldAnswers : public SavedAnswers {
 public:
  explicit HeldAnswers(std::shared_ptr<std::atomic<bool>> released)
      : SavedAnswers(false), released_(std::move(released)) {}
  HttpResponse get(const HttpRequest& request) override {
    for (int i = 0; i < 1000 && !*released_; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return SavedAnswers::get(request);
  }

 private:
  std::shared_ptr<std::atomic<bool>> released_;
};

TEST(PrometheusImportDialog, FieldsChangedWhileTheQueriesRunAskAgain) {
  auto released = std::make_shared<std::atomic<bool>>(false);
  PrometheusImportDialog dialog(nullptr,
                                [released] { return std::make_unique<HeldAnswers>(released); });
  dialog.setFetch(fleetFetch());
  QSignalSpy done(&dialog, &PrometheusImportDialog::previewFinished);
  dialog.preview();
  ASSERT_TRUE(dialog.busy());
  dialog.findChild<QLineEdit*>("prometheus-step")->setText("20s");
  *released = true;
  ASSERT_TRUE(done.wait(20'000));
  EXPECT_FALSE(done.at(0).at(0).toBool());
  EXPECT_EQ(dialog.result(), nullptr);
  EXPECT_TRUE(dialog.errorText().contains("changed while the queries ran"))
      << dialog.errorText().toStdString();
}

TEST(PrometheusImportDialog, TheWindowOpensWhatWasFetched) {
  MainWindow window;
  window.setInteractive(false);
  QStringList errors;
  window.setErrorReporter([&](const QString&, const QString& text) { errors << text; });
  ASSERT_NE(window.action("import-prometheus"), nullptr);
  EXPECT_TRUE(window.action("import-prometheus")->isEnabled());
  PrometheusImportDialog dialog(nullptr, savedAnswers());
  dialog.setFetch(fleetFetch());
  ASSERT_TRUE(runPreview(dialog));
  ASSERT_TRUE(window.openPrometheusImport(*dialog.result())) << errors.join("\n").toStdString();
  EXPECT_TRUE(errors.isEmpty());
  EXPECT_EQ(window.session().incident().id, "prometheus-20260908T140000Z");
  EXPECT_EQ(QFileInfo(window.session().path()).fileName(), "prometheus-20260908T140000Z.json");
  EXPECT_NE(window.session().incident().recorded.lane("breaker"), nullptr);
  EXPECT_TRUE(window.session().isImported());
}

}  // namespace
}  // namespace breakerlab::app
