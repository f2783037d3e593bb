// The import side of hostile inputs (the reproducers 08, 10, 11, 13, 17 and 18 of
// hostile-input, and other members of each class): nothing is clamped into range silently,
// encodings other than UTF-8 are named and a byte-order mark is skipped, the reader chosen by
// content says why, and a value out of range names its place, the value and the range.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/request_log.h"
#include "test_support.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool importContains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// The message of the LoadError that importing `text` as `name` throws ("" when none).
std::string importError(std::string_view text, const std::string& name = "in.json") {
  const auto e = test::loadErrorOf([&] { importIncident(text, name); });
  return e ? std::string(e->what()) : std::string();
}

bool hasFinding(const ImportReport& r, ImportFinding::Kind kind, std::string_view part) {
  for (const ImportFinding& f : r.findings)
    if (f.kind == kind && (importContains(f.detail, part) || importContains(f.what, part)))
      return true;
  return false;
}

// A file in a directory of its own, removed with the fixture.
class ImportFile : public test::ScratchDirTest {
 protected:
  std::string write(const std::string& name, std::string_view bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
    return path.string();
  }
  std::string openError(const std::string& path) {
    const auto e = test::loadErrorOf([&] { openIncidentFile(path); });
    return e ? std::string(e->what()) : std::string();
  }
};

// ---------------------------------------------------------------------------------------------
// Prometheus: values out of range (08) and duplicate series (18)

const char* kImportHead = R"({"status":"success","data":{"resultType":"matrix","result":[)";

// A role bundle: `role` with one series per entry of `series` (each a "values" list).
std::string bundle(const std::string& role, const std::vector<std::string>& series,
                   const std::vector<std::string>& labels = {}) {
  std::string out = "{\"" + role + "\":" + kImportHead;
  for (std::size_t i = 0; i < series.size(); ++i)
    out += std::string(i ? "," : "") + "{\"metric\":{" + (i < labels.size() ? labels[i] : "") +
           "},\"values\":" + series[i] + "}";
  return out + "]}}}";
}

TEST(ImportHostile, PrometheusRateAboveTheLimitIsAnErrorAtItsSample) {
  // 08: 1e8 requests a second used to be clamped to 1e6 and reported as recognised.
  const std::string e = importError(
      bundle("request_rate", {R"([[100,"20"],[101,"1e8"],[102,"20"]])"}, {R"("pod":"a")"}));
  EXPECT_TRUE(
      importContains(e,
                     "in.json: /request_rate/data/result/0/values/1: request_rate 100000000 "
                     "per second is above the limit of 1000000"))
      << e;
  EXPECT_TRUE(importContains(importError(bundle("request_rate", {R"([[100,"1e300"]])"})),
                             "request_rate 1e+300 per second is above the limit"));
  // Other clamps of the same importer.
  EXPECT_TRUE(
      importContains(importError(bundle("request_rate", {R"([[100,"-3"]])"})), "is negative"));
  EXPECT_TRUE(importContains(importError(bundle("request_rate", {R"([[100,"+Inf"]])"})),
                             "/values/0: request_rate inf: expected a finite number"));
  const std::string ratio = importError(bundle("error_ratio", {R"([[100,"0"],[101,"50"]])"}));
  EXPECT_TRUE(importContains(ratio,
                             "/error_ratio/data/result/0/values/1: error_ratio 50 is not a ratio "
                             "from 0 to 1 (a percentage? divide it by 100)"))
      << ratio;
  EXPECT_TRUE(importContains(importError(bundle("error_ratio", {R"([[100,"-0.5"]])"})),
                             "error_ratio -0.5 is not a ratio"));
  const std::string p99 = importError(bundle("latency_p99", {R"([[100,"7200"]])"}));
  EXPECT_TRUE(importContains(p99, "latency_p99 7200 s is above the limit of 3600 s")) << p99;
  EXPECT_TRUE(importContains(importError(bundle("latency_p50", {R"([[100,"-0.01"]])"})),
                             "latency_p50 -0.01 s is negative"));
  // Each series below the limit, their sum above it.
  const std::string sum =
      importError(bundle("request_rate", {R"([[100,"600000"]])", R"([[100,"600000"]])"},
                         {R"("pod":"a")", R"("pod":"b")"}));
  EXPECT_TRUE(importContains(sum, "/request_rate: the 2 series sum to 1200000 requests per second"))
      << sum;
}

TEST(ImportHostile, PrometheusFillInsAreAssumedNotRecognised) {
  // A median above the p99 and a p99 of 0 were clamped silently.
  const std::string text =
      R"({"latency_p50":)" + std::string(kImportHead) +
      R"({"metric":{},"values":[[100,"0.5"],[101,"0.01"]]}]}},"latency_p99":)" + kImportHead +
      R"({"metric":{},"values":[[100,"0.1"],[101,"0"]]}]}}})";
  const ImportedIncident imported = importIncident(text, "q.json");
  EXPECT_TRUE(hasFinding(imported.report, ImportFinding::Kind::assumed,
                         "with latency_p50 above the p99: the median taken as the p99"));
  EXPECT_TRUE(hasFinding(imported.report, ImportFinding::Kind::assumed, "quantiles below 1 µs"));
  EXPECT_TRUE(hasFinding(imported.report, ImportFinding::Kind::assumed, "0 requests per second") ||
              hasFinding(imported.report, ImportFinding::Kind::missing, "no request_rate"));
}

TEST(ImportHostile, PrometheusDuplicateSeriesAreNamed) {
  // 18: a second state="closed" series with the same labels and other values took over the lane.
  const std::string closed =
      R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing","state":"closed")";
  const std::string open =
      R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing","state":"open")";
  const std::string text = std::string(kImportHead) + "{\"metric\":{" + closed +
                           R"(},"values":[[100,"1"],[101,"0"],[102,"1"]]},{"metric":{)" + open +
                           R"(},"values":[[100,"0"],[101,"1"],[102,"0"]]},{"metric":{)" + closed +
                           R"(},"values":[[100,"0"],[101,"1"],[102,"0"]]}]}})";
  const std::string e = importError(text);
  EXPECT_TRUE(
      importContains(e,
                     "/data/result/2: a duplicate of /data/result/0 (the same series "
                     "resilience4j_circuitbreaker_state{name=\"pricing\",state=\"closed\"}) "
                     "with other samples"))
      << e;
  // The same samples twice: read once, with a note.
  const std::string same = std::string(kImportHead) + "{\"metric\":{" + closed +
                           R"(},"values":[[100,"1"],[101,"1"]]},{"metric":{)" + closed +
                           R"(},"values":[[100,"1"],[101,"1"]]}]}})";
  const ImportedIncident imported = importIncident(same, "q.json");
  EXPECT_TRUE(hasFinding(imported.report, ImportFinding::Kind::note,
                         "/data/result/1 is a duplicate of /data/result/0"));
  // A duplicate rate was summed into twice the traffic.
  EXPECT_TRUE(
      importContains(importError(bundle("request_rate", {R"([[100,"5"]])", R"([[100,"6"]])"},
                                        {R"("pod":"a")", R"("pod":"a")"})),
                     "/request_rate/data/result/1: a duplicate of /request_rate/data/result/0"));
  // A role, or a label, twice in one object: JSON readers keep the last.
  const std::string rate = bundle("request_rate", {R"([[100,"5"]])"});
  const std::string twice =
      importError(rate.substr(0, rate.size() - 1) + "," + rate.substr(1, rate.size() - 1));
  EXPECT_TRUE(importContains(twice,
                             "the key \"request_rate\" appears twice in one object (at the top "
                             "level)"))
      << twice;
  EXPECT_TRUE(importContains(
      importError(bundle("request_rate", {R"([[100,"5"]])"}, {R"("pod":"a","pod":"b")"})),
      "the key \"pod\" appears twice in one object (nested"));
  // Different labels are different series (one per pod), summed.
  const ImportedIncident pods = importIncident(
      bundle("request_rate", {R"([[100,"5"],[101,"5"]])", R"([[100,"6"],[101,"6"]])"},
             {R"("pod":"a")", R"("pod":"b")"}),
      "q.json");
  EXPECT_DOUBLE_EQ(pods.incident.traffic.rate.front().rps_from, 11);
}

TEST(ImportHostile, PrometheusTimesThatCannotBeToldApartSaySo) {
  // 18: samples 1 ns apart are the same double: "times must increase (1788876120 after
  // 1788876120)" read as a contradiction.
  const std::string series =
      R"({"metric":{"__name__":"resilience4j_circuitbreaker_state","state":"open"},)";
  const std::string ns =
      importError(std::string(kImportHead) + series +
                  R"("values":[[1788876120,"1"],[1788876120.000000001,"1"]]}]}})");
  EXPECT_TRUE(importContains(ns,
                             "/data/result/0/values/1: the same time as the previous sample "
                             "(1788876120)"))
      << ns;
  EXPECT_TRUE(importContains(ns, "samples closer than 1 µs"));
  const std::string close = importError(std::string(kImportHead) + series +
                                        R"("values":[[100,"1"],[100.0000005,"1"]]}]}})");
  EXPECT_TRUE(
      importContains(close, "100.0000005 is less than 1 µs after the previous sample (100)"))
      << close;
  const std::string back = importError(std::string(kImportHead) + series +
                                       R"("values":[[100.25,"1"],[100.125,"1"]]}]}})");
  EXPECT_TRUE(importContains(back, "times must increase (100.125 after 100.25)")) << back;
  EXPECT_TRUE(importContains(
      importError(std::string(kImportHead) + series + R"("values":[[1788876120000,"1"]]}]}})"),
      "the time 1788876120000 is not epoch seconds (milliseconds? divide by 1000)"));
}

// ---------------------------------------------------------------------------------------------
// Encodings (10)

const std::string kCsv =
    "timestamp,duration_ms,status,key\n"
    "1788876131.000,5,503,sku-0\n"
    "1788876131.001,6,200,sku-1\n"
    "1788876131.002,7,200,sku-2\n";
const std::string kJsonl = R"({"timestamp": 1788876131.000, "duration_ms": 5, "status": 503})"
                           "\n"
                           R"({"timestamp": 1788876131.001, "duration_ms": 6, "status": 200})"
                           "\n";
const std::string kBom = "\xEF\xBB\xBF";

std::string utf16(std::string_view text, bool big_endian, bool mark) {
  std::string out = mark ? (big_endian ? std::string("\xFE\xFF") : std::string("\xFF\xFE")) : "";
  for (char c : text) {
    out += big_endian ? std::string(1, '\0') + c : std::string(1, c) + '\0';
  }
  return out;
}

TEST_F(ImportFile, AByteOrderMarkIsSkippedByEveryReader) {
  // 10: Excel's "CSV UTF-8" starts with EF BB BF; the header's first column was not recognised.
  for (const auto& [name, text] : {std::pair{"bom.csv", kCsv}, std::pair{"bom.jsonl", kJsonl}}) {
    const ImportedIncident plain = importIncident(text, name);
    const ImportedIncident from_text = importIncident(kBom + text, name);
    const ImportedIncident from_file = openIncidentFile(write(name, kBom + text));
    EXPECT_EQ(from_text.source, plain.source) << name;
    EXPECT_EQ(from_file.source, plain.source) << name;
    EXPECT_EQ(from_file.incident.traffic.recorded, plain.incident.traffic.recorded) << name;
  }
  // The other readers: a Prometheus response, OTLP, an incident in YAML and in JSON.
  const std::string prom = std::string(R"({"request_rate":)") + kImportHead +
                           R"({"metric":{},"values":[[100,"5"],[101,"5"]]}]}}})";
  EXPECT_EQ(openIncidentFile(write("prom.json", kBom + prom)).source,
            IncidentSource::prometheus_range);
  const std::string otlp =
      R"({"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},"scopeSpans":[{"spans":[)"
      R"({"traceId":"01","spanId":"a","kind":2,"startTimeUnixNano":"1788876120000000000","endTimeUnixNano":"1788876120005000000"},)"
      R"({"traceId":"01","spanId":"b","kind":3,"startTimeUnixNano":"1788876120000001000","endTimeUnixNano":"1788876120004000000","attributes":[{"key":"peer.service","value":{"stringValue":"pricing"}}]}]}]}]})";
  EXPECT_EQ(openIncidentFile(write("otlp.json", kBom + otlp)).source, IncidentSource::otlp_traces);
  const std::string yaml = test::pricingText();
  EXPECT_EQ(openIncidentFile(write("inc.yaml", kBom + yaml)).source, IncidentSource::incident);
  EXPECT_EQ(importIncident(kBom + yaml, "inc.yaml").source, IncidentSource::incident);
}

TEST_F(ImportFile, Utf16AndUtf32AreNamed) {
  // 10: UTF-16 got "not a document BreakerLab can open".
  const struct {
    std::string bytes;
    std::string_view says;
  } cases[] = {
      {utf16(kCsv, false, true),
       "UTF-16 text: save it as UTF-8 (the file starts with the UTF-16 "
       "little-endian byte-order mark FF FE)"},
      {utf16(kCsv, true, true), "UTF-16 text: save it as UTF-8"},
      {utf16(kCsv, false, false), "UTF-16 text: save it as UTF-8 (UTF-16 little-endian"},
      {utf16(kCsv, true, false), "UTF-16 text: save it as UTF-8 (UTF-16 big-endian"},
      {std::string("\xFF\xFE\0\0t\0\0\0", 8), "UTF-32 text: save it as UTF-8"},
      {utf16(utf16(kCsv, false, false), false, false), "UTF-32 text: save it as UTF-8"},
  };
  int i = 0;
  for (const auto& c : cases) {
    const std::string name = "log" + std::to_string(i++) + ".csv";
    const std::string from_file = openError(write(name, c.bytes));
    EXPECT_TRUE(importContains(from_file, name + ":1:1: " + std::string(c.says))) << from_file;
    EXPECT_TRUE(importContains(importError(c.bytes, name), c.says)) << name;
  }
  // Incidents and configs (their YAML reader) and request logs read directly say the same.
  const std::string yaml = utf16(test::pricingText(), false, true);
  const auto e = test::loadErrorOf([&] { parseIncident(yaml, "inc.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_TRUE(importContains(e->message(), "UTF-16 text: save it as UTF-8")) << e->what();
  const auto r = test::loadErrorOf(
      [&] { readRequestLog(write("direct.csv", utf16(kCsv, true, true)), RequestLogFormat::csv); });
  ASSERT_TRUE(r);
  EXPECT_TRUE(importContains(r->message(), "UTF-16 text")) << r->what();
}

TEST_F(ImportFile, CrOnlyLineEndsAreNamed) {
  // 10: "no calls: the log has a header but no lines of calls" (500 rows: "more than 256
  // columns").
  std::string cr = kCsv;
  for (char& c : cr)
    if (c == '\n') c = '\r';
  std::string long_cr = "timestamp,duration_ms,status,key\r";
  for (int i = 0; i < 500; ++i) long_cr += "1788876131." + std::to_string(100 + i) + ",5,200,k\r";
  for (const std::string& text : {cr, long_cr}) {
    const std::string e = openError(write("cr.csv", text));
    EXPECT_TRUE(importContains(e, "cr.csv:1:1: lines end in CR only (classic Mac)")) << e;
    EXPECT_TRUE(importContains(importError(text, "cr.csv"), "lines end in CR only")) << text.size();
  }
  std::string jsonl = kJsonl;
  for (char& c : jsonl)
    if (c == '\n') c = '\r';
  EXPECT_TRUE(importContains(openError(write("cr.jsonl", jsonl)), "lines end in CR only"));
  // A postmortem in plain text, which matches nothing on one line.
  EXPECT_TRUE(importContains(importError("Outage\r\r| UTC | what |\r|---|---|\r", "pm.txt"),
                             "lines end in CR only") ||
              !importError("Outage\r\r| UTC | what |\r|---|---|\r", "pm.txt").empty());
  // An incident in YAML: yaml-cpp read it as one line ("the file is empty").
  std::string yaml = test::pricingText();
  for (char& c : yaml)
    if (c == '\n') c = '\r';
  EXPECT_TRUE(
      importContains(openError(write("cr.yaml", yaml)), "cr.yaml:1:1: lines end in CR only"));
  // CRLF is fine.
  std::string crlf;
  for (char c : kCsv) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(openIncidentFile(write("crlf.csv", crlf)).source, IncidentSource::request_log_csv);
}

// ---------------------------------------------------------------------------------------------
// The reader chosen by content (11)

const std::string kOneLine =
    R"({"format": "breakerlab/1", "id": "J", "traffic": {"rate": [{"from": "0s", "to": "60s", "rps": 4}]}, "dependency": {"segments": [{"state": "up", "from": "0s", "to": "60s"}]}, "config": {"timeout": {"attempt": 800}}})";

TEST_F(ImportFile, AOneLineJsonIncidentIsReadAsAnIncident) {
  // 11: "one-line.json:1:1: timestamp: missing": read as a JSON Lines request log.
  const std::string from_file = openError(write("one-line.json", kOneLine));
  EXPECT_TRUE(importContains(from_file, "config.timeout.attempt: expected a duration with a unit"))
      << from_file;
  EXPECT_FALSE(importContains(from_file, "timestamp")) << from_file;
  EXPECT_TRUE(importContains(importError(kOneLine, "one-line.json"), "config.timeout.attempt"));
  // With the format last, blanks around the colon, and under any name.
  const std::string last =
      R"({"id": "J", "title": "start of the outage", "traffic": {"rate": [{"from": 0, "to": 60, "rps": 4}]}, "dependency": {"segments": [{"state": "up", "from": 0, "to": 60}]}, "config": {"timeout": {"attempt": 800}}, "format" :"breakerlab/1"})";
  EXPECT_TRUE(importContains(openError(write("x.log", last)), "config.timeout.attempt"));
  // Past the first 4 KiB, on its one line.
  const std::string long_summary =
      "{\"summary\": \"" + std::string(6000, 'x') + "\", " + last.substr(1);
  EXPECT_TRUE(
      importContains(openError(write("long.json", long_summary)), "config.timeout.attempt"));
  // Even with a --map that would make it a request log.
  ImportOptions mapped;
  mapped.request_log_mapping = parseRequestLogMapping("ts=id", "--map");
  const auto e = test::loadErrorOf([&] { importIncident(kOneLine, "one-line.json", mapped); });
  ASSERT_TRUE(e);
  EXPECT_TRUE(importContains(e->message(), "config.timeout.attempt")) << e->what();
}

TEST_F(ImportFile, AReaderChosenByContentSaysWhy) {
  const std::string jsonl = R"({"time_taken": 5, "status": 200})";
  const std::string e = openError(write("calls.json", jsonl));
  EXPECT_TRUE(importContains(e,
                             "read as a request log (JSON Lines) because line 1 is one JSON object "
                             "with the key \"time_taken\""))
      << e;
  EXPECT_TRUE(importContains(e, "; timestamp: missing")) << e;
  EXPECT_TRUE(
      importContains(importError(jsonl, "calls.json"), "read as a request log (JSON Lines)"));
  const std::string csv = openError(write("c.csv", "time,duration\n"));
  EXPECT_TRUE(importContains(csv,
                             "read as a request log (CSV) because line 1 (\"time,duration\") names "
                             "a time column and a duration column"))
      << csv;
  // An incident chosen by the file's name, not by its content.
  const std::string yaml = importError("id: x\ntraffic: {}\n", "inc.yaml");
  EXPECT_TRUE(
      importContains(yaml, "read as a breakerlab/1 incident because the name ends in .yaml"))
      << yaml;
  // A declared incident's own errors are not explained.
  EXPECT_FALSE(importContains(importError(kOneLine, "x.json"), "read as"));
  // An error deep in a log is about the log, not about how it was told.
  const std::string late = importError(kCsv + "1788876131.003,x,200,k\n", "log.csv");
  EXPECT_TRUE(importContains(late, "log.csv:5:")) << late;
  EXPECT_FALSE(importContains(late, "read as")) << late;
}

// ---------------------------------------------------------------------------------------------
// Range messages of the incident readers (17)

TEST(ImportHostile, AChangeOutsideTheWindowSaysWhereWhatAndTheWindow) {
  // 17: "changes-at.yaml: changes[0].at must be within the window": no line, value or window.
  const std::string text =
      test::replaceFirst(test::readResource("incidents/inc-payment-retry-amplification.yaml"),
                         "{at: 25m, set", "{at: 250m, set");
  test::TextPosition at = test::positionOf(text, "at: 250m");
  at.column += 4;
  EXPECT_LOAD_ERROR_AT(parseIncident(text, "changes-at.yaml"), at,
                       "changes[0].at: expected a time within the window (0s to 31m), got 250m");
  // Before the window, and in a what-if's changes.
  const std::string before =
      test::replaceFirst(test::readResource("incidents/inc-payment-retry-amplification.yaml"),
                         "{at: 25m, set", "{at: -5s, set");
  test::TextPosition minus = test::positionOf(before, "at: -5s");
  minus.column += 4;
  EXPECT_LOAD_ERROR_AT(parseIncident(before, "c.yaml"), minus, "got -5s");
  const std::string pricing = test::pricingText();
  const std::string what_if = test::replaceFirst(
      pricing, "what_ifs:\n",
      "what_ifs:\n  - name: late\n    changes: [{at: 61s, set: {timeout.attempt: 1s}}]\n");
  EXPECT_LOAD_ERROR_AT(parseIncident(what_if, "w.yaml"), test::positionOf(what_if, "61s"),
                       "what_ifs[0].changes[0].at: expected a time within the window (0s to 1m, "
                       "14:02 to 14:03), got 61s");
}

TEST(ImportHostile, AWindowOverSevenDaysIsNamedAtItsEnd) {
  // It was "window: longer than 7 days" from validate(), without a position.
  const std::string text = test::replaceFirst(test::pricingText(), "window: {from: 0s, to: 60s}",
                                              "window: {from: 0s, to: 700000s}");
  EXPECT_LOAD_ERROR_AT(parseIncident(text, "w.yaml"), test::positionOf(text, "700000s"),
                       "window.to: expected at most 7 days after window.from (0s), got 700000s");
}

TEST(ImportHostile, APostmortemRatePastTheLimitIsNamedAtItsLine) {
  // A stated rate above 1e6 was dropped ("states no request rate; 40 assumed"), one above 1e8
  // made "the incident built from the document is not valid".
  const std::string doc = test::readResource("postmortems/inc-2026-0908-pricing-postmortem.md");
  const std::string big = test::replaceFirst(doc, "was about 40 requests per second",
                                             "was 300000000 requests per second");
  const auto e = test::loadErrorOf([&] { importIncident(big, "pm.md"); });
  ASSERT_TRUE(e);
  EXPECT_TRUE(importContains(e->message(), "traffic: 300000000 requests per second, from"))
      << e->what();
  EXPECT_GT(e->line(), 1) << e->what();
  const ImportedIncident two_million =
      importIncident(test::replaceFirst(doc, "was about 40 requests per second",
                                        "was 2000000 requests per second"),
                     "pm.md");
  EXPECT_TRUE(hasFinding(two_million.report, ImportFinding::Kind::recognised,
                         "2000000 requests per second"));
}

// ---------------------------------------------------------------------------------------------
// Request logs: the packed columns' limits were clamps

TEST(ImportHostile, RequestLogValuesPastThePackedLimitsAreErrors) {
  // A duration past 32 bits of microseconds (71 minutes) was stored as 71 minutes.
  const std::string two_hours = kCsv + "1788876131.003,7200000,200,k\n";
  const std::string e = importError(two_hours, "log.csv");
  EXPECT_TRUE(importContains(e,
                             "log.csv:5:16: duration: \"7200000\" (7200s) is above the limit of "
                             "4294.967295s (about 71 minutes) per call"))
      << e;
  // A wait before the call, likewise.
  const std::string wait =
      "timestamp,duration_ms,status,request_start\n"
      "1788876131,5,200,1788868931\n";
  EXPECT_TRUE(
      importContains(importError(wait, "w.csv"),
                     "request_start: 7200s before the call's timestamp, more than the limit"));
  // A request id with more than 251 calls was numbered 250 from its 251st call on.
  std::string many = "timestamp,duration_ms,status,request_id\n";
  for (int i = 0; i < 300; ++i) many += "1788876131." + std::to_string(100 + i) + ",5,503,r1\n";
  EXPECT_TRUE(importContains(importError(many, "m.csv"), "a request id has more than 251 calls"));
}

TEST(ImportHostile, RequestLogKeysAndColumnsNamedTwiceAreErrors) {
  // One of the two was read silently.
  const std::string jsonl = importError(
      R"({"timestamp": 1788876131.0, "timestamp": 1788876199.0, "duration_ms": 5, "status": 200})"
      "\n",
      "k.jsonl");
  EXPECT_TRUE(importContains(jsonl, "the key \"timestamp\" appears twice in the object")) << jsonl;
  const std::string csv = importError(
      "timestamp,duration_ms,status,timestamp\n1788876131.0,5,200,1788876199\n", "c.csv");
  EXPECT_TRUE(importContains(csv, "c.csv:1:30:")) << csv;
  EXPECT_TRUE(
      importContains(csv, "the column \"timestamp\" appears twice in the header (columns 1 and 4)"))
      << csv;
  // Columns not read may repeat (Excel's empty ones).
  EXPECT_EQ(
      importIncident("timestamp,duration_ms,status,,\n1788876131.0,5,200,,\n", "e.csv").source,
      IncidentSource::request_log_csv);
}

// ---------------------------------------------------------------------------------------------
// OTLP (13)

constexpr std::uint64_t kImportEpochNs = 1788876120ull * 1'000'000'000ull;

json otlpSpan(const std::string& trace, const std::string& id, int kind, json start, json end) {
  json s = {{"traceId", trace},           {"spanId", id},          {"name", "x"}, {"kind", kind},
            {"startTimeUnixNano", start}, {"endTimeUnixNano", end}};
  if (kind == 3)
    s["attributes"] = {{{"key", "peer.service"}, {"value", {{"stringValue", "pricing"}}}}};
  return s;
}

std::string otlpDocument(const json& spans, int indent) {
  const json doc = {
      {"resourceSpans",
       {{{"resource",
          {{"attributes", {{{"key", "service.name"}, {"value", {{"stringValue", "orders"}}}}}}}},
         {"scopeSpans", {{{"spans", spans}}}}}}}};
  return doc.dump(indent);
}

TEST(ImportHostile, OtlpSpanTimesThatAreNotNanosecondsAreNamedAtTheirValue) {
  const std::string trace = "00000000000000000000000000000001";
  const auto withTimes = [&](json start, json end) {
    return otlpDocument({otlpSpan(trace, "0000000000000003", 2, std::to_string(kImportEpochNs),
                                  std::to_string(kImportEpochNs + 9'000'000)),
                         otlpSpan(trace, "0000000000000004", 3, start, end)},
                        2);
  };
  // 13: "expected startTimeUnixNano <= endTimeUnixNano" at 1:1, though -5 < -1.
  const std::string neg = withTimes("-5", "-1");
  const auto e = test::loadErrorOf([&] { importIncident(neg, "t.json"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message(),
            "span 0000000000000004: startTimeUnixNano: expected a whole number of nanoseconds "
            "since the epoch, got \"-5\"");
  EXPECT_EQ(e->line(), test::positionOf(neg, "\"-5\"").line) << e->what();
  EXPECT_EQ(e->column(), test::positionOf(neg, "\"-5\"").column) << e->what();
  for (const auto& [start, end, says] :
       {std::tuple{json("1e300"), json("1e301"), "got \"1e300\""},
        std::tuple{json(std::to_string(kImportEpochNs) + ".5"),
                   json(std::to_string(kImportEpochNs + 1)), ".5\""},
        std::tuple{json(1.5e18), json(std::to_string(kImportEpochNs)), "got 1.5e+18"},
        std::tuple{json("99999999999999999999"), json("1"), "got \"99999999999999999999\""},
        std::tuple{json(std::to_string(kImportEpochNs)), json("-1"),
                   "endTimeUnixNano: expected a whole"},
        std::tuple{json(std::to_string(kImportEpochNs + 7)),
                   json(std::to_string(kImportEpochNs + 5)),
                   "endTimeUnixNano 1788876120000000005 is before startTimeUnixNano "
                   "1788876120000000007"}}) {
    const std::string text = withTimes(start, end);
    const auto err = test::loadErrorOf([&] { importIncident(text, "t.json"); });
    ASSERT_TRUE(err);
    EXPECT_TRUE(importContains(err->message(), says)) << err->what();
    EXPECT_GT(err->line(), 1) << err->what();
    EXPECT_GT(err->column(), 1) << err->what();
  }
}

TEST(ImportHostile, OtlpSpansYearsApartNameTheSpans) {
  // "5" is a whole number of nanoseconds, in 1970: it was "the log's requests span more than 7
  // days", about a log the user never wrote.
  const std::string trace = "00000000000000000000000000000001";
  const std::string text =
      otlpDocument({otlpSpan(trace, "0000000000000003", 2, std::to_string(kImportEpochNs),
                             std::to_string(kImportEpochNs + 9'000'000)),
                    otlpSpan(trace, "0000000000000004", 3, "5", "9")},
                   2);
  const std::string e = importError(text, "t.json");
  EXPECT_TRUE(
      importContains(e,
                     "t.json: the spans start more than 7 days apart: span 0000000000000004 "
                     "at 5 ns, span 0000000000000003 at 1788876120000000000 ns"))
      << e;
}

TEST(ImportHostile, OtlpCallsOverThePerTraceLimitNameTheTrace) {
  const std::string trace = "00000000000000000000000000000001";
  json spans = json::array();
  spans.push_back(otlpSpan(trace, "00000000000000ff", 2, std::to_string(kImportEpochNs),
                           std::to_string(kImportEpochNs + 900'000'000)));
  for (int i = 0; i < 300; ++i)
    spans.push_back(otlpSpan(trace, std::to_string(1000 + i), 3,
                             std::to_string(kImportEpochNs + 1000 + i * 1000),
                             std::to_string(kImportEpochNs + 1500 + i * 1000)));
  const auto e = test::loadErrorOf([&] { importIncident(otlpDocument(spans, -1), "dup.json"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), 0) << e->what();
  EXPECT_EQ(e->message(),
            "trace 00000000000000000000000000000001 has more than 251 calls to pricing (300): a "
            "request makes at most its first call and 250 retries");
  // 13: the same client span 50,000 times gave "253:34: attempt: ..." on a one-line file: a
  // span sent again is one span.
  json repeated = json::array();
  for (int i = 0; i < 2000; ++i) {
    repeated.push_back(otlpSpan(trace, "0000000000000001", 2, std::to_string(kImportEpochNs),
                                std::to_string(kImportEpochNs + 5'000'000)));
    repeated.push_back(otlpSpan(trace, "0000000000000002", 3, std::to_string(kImportEpochNs + 1),
                                std::to_string(kImportEpochNs + 4'000'000)));
  }
  const ImportedIncident imported = importIncident(otlpDocument(repeated, -1), "otlp-dup.json");
  EXPECT_TRUE(hasFinding(imported.report, ImportFinding::Kind::assumed,
                         "3998 spans repeat an earlier span"));
  EXPECT_EQ(imported.incident.traffic.recorded.size(), 1u);
}

}  // namespace
}  // namespace breakerlab
