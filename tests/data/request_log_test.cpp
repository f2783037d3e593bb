// Request logs (CSV and JSON Lines): columns by name and by mapping, values, linking attempts
// to their requests, errors with their positions, streaming bounds, and the counterfactual replay.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ostream>

#include <filesystem>
#include <fstream>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/request_log.h"
#include "test_support.h"

namespace breakerlab {
namespace {

RequestLog csv(const std::string& text, const RequestLogOptions& options = {}) {
  return parseRequestLog(text, "log.csv", RequestLogFormat::csv, options);
}
RequestLog jsonl(const std::string& text, const RequestLogOptions& options = {}) {
  return parseRequestLog(text, "log.jsonl", RequestLogFormat::jsonl, options);
}

TEST(RequestLog, CsvColumnsByTheirUsualNames) {
  const RequestLog log =
      csv("ts,latency_ms,status_code,sku,request_id,attempt,pod\n"
          "1757339531.250000,25,200,a,r1,0,p1\n"
          "1757339531.500000,800,504,b,r2,0,p1\n"
          "1757339532.350000,2,0,b,r2,1,p2\n"
          "1757339532.5,12.5,404,a,r3,0,p2\n");
  EXPECT_EQ(log.origin, 1757339531LL * kSecond);
  ASSERT_EQ(log.arrivals.size(), 3u);
  EXPECT_EQ(log.arrivals[0], 250 * kMillisecond);
  EXPECT_EQ(log.arrivals[2], 1500 * kMillisecond);
  EXPECT_EQ(log.key_count, 2u);
  EXPECT_EQ(log.arrival_keys, (std::vector<std::uint32_t>{0, 1, 0}));
  const RecordedCalls& c = log.calls;
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c.outcome[0], CallOutcome::success);
  EXPECT_EQ(c.outcome[1], CallOutcome::server_error);
  EXPECT_EQ(c.outcome[2], CallOutcome::refused);  // status 0: no response
  EXPECT_EQ(c.outcome[3], CallOutcome::client_error);
  EXPECT_EQ(c.duration[0], 25'000u);
  EXPECT_EQ(c.duration[3], 12'500u);
  // r2's retry is linked to its first call.
  EXPECT_EQ(c.first_of_request[1], 1u);
  EXPECT_EQ(c.next_of_request[1], 2u);
  EXPECT_EQ(c.attempt[2], 1);
  EXPECT_EQ(log.columns[static_cast<int>(RequestLogField::duration)], "latency_ms");
}

TEST(RequestLog, TimestampsEpochUnitsAndIso8601) {
  // Milliseconds by magnitude; ISO 8601 with an offset, with a space, without seconds.
  EXPECT_EQ(csv("time,duration,outcome\n1757339531250,1,ok\n").origin, 1757339531LL * kSecond);
  const RequestLog iso =
      csv("timestamp,duration_s,outcome\n"
          "2026-09-08T14:02:11.250Z,0.1,success\n"
          "2026-09-08T16:02:12.75+02:00,0.1,timeout\n"
          "2026-09-08 14:02:13.25,0.1,refused\n"
          "2026-09-08T14:03-0030,0.1,ok\n");
  EXPECT_EQ(iso.origin, 1788876131LL * kSecond);
  ASSERT_EQ(iso.arrivals.size(), 4u);
  EXPECT_EQ(iso.arrivals[0], 250 * kMillisecond);
  EXPECT_EQ(iso.arrivals[1], 1750 * kMillisecond);
  EXPECT_EQ(iso.arrivals[2], 2250 * kMillisecond);
  EXPECT_EQ(iso.arrivals[3], (49 + 30 * 60) * kSecond);  // 14:03 at -00:30 is 14:33Z
  EXPECT_EQ(iso.calls.duration[0], 100'000u);            // duration_s
  // Seconds with 16 digits are read exactly, not through a double.
  const RequestLog exact = csv("ts,duration_us,outcome\n1767225600.000001,7,ok\n");
  EXPECT_EQ(exact.arrivals[0], 1);
  EXPECT_EQ(exact.calls.duration[0], 7u);
}

TEST(RequestLog, OutcomeWordsAndStatuses) {
  const RequestLog log =
      csv("ts,duration_ms,outcome,status\n"
          "0,1,timeout,\n0.1,1,ECONNREFUSED,\n0.2,1,,503\n0.3,1,,429\n0.4,1,,408\n"
          "0.5,1,rejected,\n0.6,1,pool_exhausted,\n0.7,1,deadline_exceeded,\n");
  EXPECT_EQ(log.not_sent, 1u);
  EXPECT_EQ(log.pool_exhausted, 1u);
  const std::vector<CallOutcome> expected = {CallOutcome::timeout,      CallOutcome::refused,
                                             CallOutcome::server_error, CallOutcome::server_error,
                                             CallOutcome::timeout,      CallOutcome::timeout};
  EXPECT_EQ(log.calls.outcome, expected);
  EXPECT_EQ(log.arrivals.size(), 8u);  // a request without a call still arrived
  EXPECT_EQ(log.calls.first_of_request[5], RecordedCalls::kNone);
}

TEST(RequestLog, MappingNamesOtherColumns) {
  RequestLogOptions options;
  options.mapping = parseRequestLogMapping("ts=when,duration=took,id=rid", "--map");
  EXPECT_EQ(options.mapping.toText(), "timestamp=when,duration=took,request_id=rid");
  const RequestLog log = csv("when,took,result,rid\n5,3,ok,x\n5.5,4,error,x\n", options);
  EXPECT_EQ(log.duration_unit, "ms");  // no unit in the name: milliseconds
  ASSERT_EQ(log.arrivals.size(), 1u);  // the second line is x's retry (no attempt column)
  EXPECT_EQ(log.calls.attempt[1], 1);
  EXPECT_EQ(log.calls.next_of_request[0], 1u);
  EXPECT_LOAD_ERROR_AT(parseRequestLogMapping("ts", "--map"), (test::TextPosition{0, 0}),
                       "expected FIELD=NAME");
  EXPECT_LOAD_ERROR_AT(parseRequestLogMapping("tz=a", "--map"), (test::TextPosition{0, 0}),
                       "unknown field \"tz\"");
  EXPECT_LOAD_ERROR_AT(csv("a,b,c\n1,2,3\n", options), (test::TextPosition{1, 1}),
                       "the mapping names column \"when\" for timestamp");
}

TEST(RequestLog, JsonLinesWithNestedKeysAndExactNumbers) {
  const RequestLog log = jsonl(
      "{\"timestamp\":\"2026-01-01T00:00:00.5Z\",\"duration_ms\":38.875,\"outcome\":\"success\","
      "\"key\":\"43\",\"request_id\":\"0\",\"attempt\":0}\n"
      "\n"
      "{\"ts\":1767225601.000001,\"latency_ms\":3,\"http\":{\"status\":503},\"id\":7,"
      "\"tags\":[1,{\"a\":2}]}\n");
  EXPECT_EQ(log.origin, 1767225600LL * kSecond);
  ASSERT_EQ(log.arrivals.size(), 2u);
  EXPECT_EQ(log.arrivals[1], kSecond + 1);
  EXPECT_EQ(log.calls.duration[0], 38'875u);
  // "http.status" is a status alias, so 503 is a server error.
  EXPECT_EQ(log.calls.outcome[1], CallOutcome::server_error);
}

TEST(RequestLog, UnsortedLinesAndAttemptsCountedFromOne) {
  const RequestLog log =
      csv("ts,duration_ms,outcome,request_id,attempt\n"
          "3,1,ok,b,1\n1,1,timeout,a,1\n2,1,ok,a,2\n");
  EXPECT_FALSE(log.sorted);
  ASSERT_EQ(log.arrivals.size(), 2u);
  EXPECT_EQ(log.arrivals[0], 0);  // a at 1 s is t = 0
  EXPECT_EQ(log.calls.attempt, (std::vector<std::uint8_t>{0, 1, 0}));
  EXPECT_EQ(log.calls.next_of_request[0], 1u);
}

TEST(RequestLog, RetriesAreLinkedInAttemptOrder) {
  // a's retry was logged (by another pod's clock) before its first call.
  const RequestLog log =
      csv("ts,duration_ms,outcome,request_id,attempt\n"
          "1.0,1,ok,a,1\n1.2,1,timeout,a,0\n2,1,ok,b,0\n");
  EXPECT_EQ(log.unlinked, 0u);
  ASSERT_EQ(log.arrivals.size(), 2u);
  EXPECT_EQ(log.arrivals[0], 200 * kMillisecond);
  EXPECT_EQ(log.calls.attempt, (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(log.calls.first_of_request[0], 1u);
  EXPECT_EQ(log.calls.next_of_request[1], 0u);
  EXPECT_EQ(log.calls.next_of_request[0], RecordedCalls::kNone);
}

struct BadLine {
  const char* name;
  std::string text;
  int line, column;
  const char* fragment;
};

// The case by its name in test listings, not the struct's bytes.
void PrintTo(const BadLine& c, std::ostream* out) {
  *out << c.name;
}

class RequestLogErrors : public ::testing::TestWithParam<BadLine> {};

TEST_P(RequestLogErrors, NameTheLineAndColumn) {
  const BadLine& c = GetParam();
  const bool json = c.text.front() == '{';
  EXPECT_LOAD_ERROR_AT(json ? jsonl(c.text) : csv(c.text), (test::TextPosition{c.line, c.column}),
                       c.fragment);
}

const std::string kHeader = "timestamp,duration_ms,outcome\n";
INSTANTIATE_TEST_SUITE_P(
    Cases, RequestLogErrors,
    ::testing::Values(
        BadLine{"bad_timestamp", kHeader + "1,2,ok\nyesterday,2,ok\n", 3, 1,
                "timestamp: expected epoch seconds"},
        BadLine{"negative_duration", kHeader + "1,-2,ok\n", 2, 3,
                "duration: expected a non-negative"},
        BadLine{"bad_outcome", kHeader + "1,2, maybe\n", 2, 6, "outcome: expected success"},
        BadLine{"too_few_fields", kHeader + "1,2\n", 2, 4,
                "expected 3 fields as in the header, got 2"},
        BadLine{"too_many_fields", kHeader + "1,2,ok,4\n", 2, 8, "got 4"},
        BadLine{"unclosed_quote", kHeader + "1,\"2,ok\n", 2, 3, "quoted field is not closed"},
        BadLine{"no_timestamp_column", "when,duration_ms,outcome\n1,2,ok\n", 1, 1,
                "has no column for a timestamp"},
        BadLine{"no_outcome_column", "ts,duration_ms,sku\n1,2,ok\n", 1, 1,
                "has no column for a status or outcome"},
        BadLine{"bad_attempt", "ts,duration_ms,outcome,attempt\n1,2,ok,1.5\n", 2, 8,
                "attempt: expected a whole number"},
        BadLine{"json_syntax", "{\"ts\":1,\"duration_ms\":2,\"outcome\":\"ok\"\n", 1, 39, "parse"},
        BadLine{"json_missing_duration", "{\"ts\":1,\"outcome\":\"ok\"}\n", 1, 1,
                "duration: missing"},
        BadLine{"json_not_object", "{\"ts\":1,\"duration\":1,\"outcome\":\"ok\"}\n[1]\n", 2, 1,
                "expected a JSON object"},
        BadLine{"not_utf8", kHeader + "1,2,ok\xff\n", 2, 7, "not UTF-8"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RequestLog, ErrorsQuoteAtMost80Characters) {
  const std::string field(10'000, 'x');
  const auto error = test::loadErrorOf([&] { csv(kHeader + field + ",2,ok\n"); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->line(), 2);
  EXPECT_LT(error->message().size(), 260u) << error->message();
  const auto long_line =
      test::loadErrorOf([&] { csv(kHeader + std::string(100'000, '1') + ",2,ok\n"); });
  ASSERT_TRUE(long_line.has_value());
  EXPECT_NE(long_line->message().find("line longer than"), std::string::npos);
}

TEST(RequestLog, DetectedByContent) {
  EXPECT_EQ(detectRequestLog("# calls\ntimestamp,duration_ms,outcome\n"), RequestLogFormat::csv);
  EXPECT_EQ(detectRequestLog("start_s,duration_s,outcome\n0,0.1,200\n"), RequestLogFormat::csv);
  EXPECT_EQ(detectRequestLog("{\"ts\": 1, \"latency\": 2}\n"), RequestLogFormat::jsonl);
  EXPECT_FALSE(detectRequestLog("{\n  \"format\": \"breakerlab/1\"\n}\n"));
  EXPECT_FALSE(detectRequestLog("# Postmortem\n\nAt 14:02, things, broke\n"));
  EXPECT_FALSE(detectRequestLog("format: breakerlab/1\n"));
  EXPECT_EQ(detectIncidentSource("ts,latency_ms,status\n1,2,200\n", "x.txt"),
            IncidentSource::request_log_csv);
  // Columns only a mapping names.
  const RequestLogMapping mapping = parseRequestLogMapping("ts=when,duration=took", "--map");
  EXPECT_FALSE(detectRequestLog("when,spent,result\n1,2,ok\n"));
  EXPECT_EQ(detectRequestLog("When,took,result\n1,2,ok\n", mapping), RequestLogFormat::csv);
  EXPECT_EQ(detectRequestLog("{\"meta\": {\"when\": 1}, \"took\": 2}\n",
                             parseRequestLogMapping("ts=meta.when", "--map")),
            RequestLogFormat::jsonl);
}

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("breakerlab-log-" + std::to_string(::getpid()) + "-" + name);
}

TEST(RequestLog, FifoIsRefusedWithoutBlocking) {
  const auto fifo = temp("fifo.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_LOAD_ERROR_AT(readRequestLog(fifo, RequestLogFormat::csv), (test::TextPosition{0, 0}),
                       "cannot read");
  std::filesystem::remove(fifo);
}

// 200,000 calls with retries and keys, read from a file: progress is reported, cancel stops
// it, and the reader's arrays stay under 48 bytes a call at their peak.
TEST(RequestLog, StreamsWithProgressCancelAndBoundedMemory) {
  const auto path = temp("big.csv");
  {
    std::ofstream out(path);
    out << "timestamp,duration_ms,status,key,request_id,attempt\n";
    for (int i = 0; i < 200'000; ++i) {
      // Every fifth line is a retry of the line before. The fraction is not zero-padded, so
      // the lines within a second are out of order: sorting them is part of the peak.
      const int request = i - (i + 1) / 5;
      out << 1767225600 + i / 1000 << '.' << (i % 1000) * 1000 + 7 << ",12.5,"
          << (i % 5 == 4   ? 200
              : i % 7 == 0 ? 503
                           : 200)
          << ",sku" << i % 97 << ",req" << request << ',' << (i % 5 == 4 ? 1 : 0) << '\n';
    }
  }
  int calls = 0;
  RequestLogOptions options;
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_LE(done, total);
    ++calls;
    return true;
  };
  const RequestLog log = readRequestLog(path, RequestLogFormat::csv, options);
  EXPECT_GE(calls, 1);
  EXPECT_EQ(log.rows, 200'000u);
  EXPECT_EQ(log.arrivals.size(), 160'000u);
  EXPECT_EQ(log.unlinked, 0u);
  const double per_call = static_cast<double>(log.peak_bytes) / static_cast<double>(log.rows);
  std::printf("[ memory    ] %.1f bytes a call at peak\n", per_call);
  EXPECT_LE(per_call, 48.0);

  options.progress = [](std::uint64_t, std::uint64_t) { return false; };
  EXPECT_THROW(readRequestLog(path, RequestLogFormat::csv, options), ImportCancelled);
  std::filesystem::remove(path);
}

// A log of an outage: healthy, then 20 s of refused connections, then healthy again.
std::string outageLog() {
  std::string text = "ts,duration_ms,outcome,request_id\n";
  for (int i = 0; i < 1200; ++i) {
    const double t = i * 0.05;
    const bool refused = t >= 20 && t < 40;
    text += std::to_string(t) + "," + (refused ? "2" : "20") + "," + (refused ? "refused" : "ok") +
            ",r" + std::to_string(i) + "\n";
  }
  return text;
}

TEST(RequestLog, IncidentFromALogReplaysItsRecordedAnswers) {
  ImportReport report;
  Incident incident = incidentFromRequestLog(csv(outageLog()), Config{}, report);
  EXPECT_EQ(validate(incident), "");
  EXPECT_EQ(incident.id, "log");
  EXPECT_EQ(incident.end, 60 * kSecond);
  ASSERT_EQ(incident.dependency.segments.size(), 3u);
  EXPECT_EQ(incident.dependency.segments[1].state, "connection refused");
  EXPECT_EQ(incident.dependency.segments[1].from, 20 * kSecond);
  EXPECT_EQ(incident.dependency.segments[1].health, Health::red);

  // Without a breaker every recorded call is made again and answers as it did.
  Config no_breaker;
  no_breaker.breaker.enabled = false;
  const Result same = simulate(incident, no_breaker);
  EXPECT_EQ(same.metrics.dependency_calls, 1200u);
  EXPECT_EQ(same.metrics.dependency_failures, 400u);

  // Retries the log never made draw from the answers around them: refused in the outage.
  Config retries = no_breaker;
  retries.retry.max_attempts = 3;
  retries.retry.backoff = BackoffKind::none;
  retries.retry.jitter = Jitter::none;
  const Result more = simulate(incident, retries);
  EXPECT_EQ(more.metrics.retries, 800u);
  EXPECT_EQ(more.metrics.dependency_failures, 1200u);

  // Deterministic: the same log, config and seed give the same run.
  const Result again = simulate(incident, retries);
  EXPECT_EQ(again.checkouts.size(), more.checkouts.size());
  EXPECT_TRUE(std::equal(again.checkouts.begin(), again.checkouts.end(), more.checkouts.begin(),
                         [](const CheckoutRecord& a, const CheckoutRecord& b) {
                           return a.arrival == b.arrival && a.latency_us == b.latency_us &&
                                  a.outcome == b.outcome;
                         }));
  EXPECT_EQ(again.breaker, more.breaker);
}

}  // namespace
}  // namespace breakerlab
