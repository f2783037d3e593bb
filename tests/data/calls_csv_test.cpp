#include <gtest/gtest.h>

#include "breakerlab/data/calls_csv.h"
#include "test_support.h"

namespace breakerlab {
namespace {

TEST(CallsCsv, ParsesNamesStatusesHeaderAndComments) {
  const auto calls = parseCallsCsv(
      "start_s,duration_s,outcome\n"
      "# a comment\n"
      "\n"
      "0, 0.1, success\r\n"
      "0.5,0.8,timeout\n"
      "  0.5 ,0.002,refused\n"
      "1,0.05,server_error\n"
      "1.25,0.05,client_error\n"
      "2,0.01,200\n"
      "2,0.01,204\n"
      "3,0.01,404\n"
      "4,0.01,503\n"
      "5,0.5,pool_exhausted\n",
      "calls.csv");
  ASSERT_EQ(calls.size(), 10u);
  EXPECT_EQ(calls[0].start, 0);
  EXPECT_EQ(calls[0].duration, 100 * kMillisecond);
  EXPECT_EQ(calls[0].outcome, CallOutcome::success);
  EXPECT_EQ(calls[1].outcome, CallOutcome::timeout);
  EXPECT_EQ(calls[1].duration, 800 * kMillisecond);
  EXPECT_EQ(calls[2].outcome, CallOutcome::refused);
  EXPECT_EQ(calls[2].start, 500 * kMillisecond);
  EXPECT_EQ(calls[3].outcome, CallOutcome::server_error);
  EXPECT_EQ(calls[4].outcome, CallOutcome::client_error);
  EXPECT_EQ(calls[4].start, 1250 * kMillisecond);
  EXPECT_EQ(calls[5].outcome, CallOutcome::success);
  EXPECT_EQ(calls[6].outcome, CallOutcome::success);
  EXPECT_EQ(calls[7].outcome, CallOutcome::client_error);
  EXPECT_EQ(calls[8].outcome, CallOutcome::server_error);
  EXPECT_EQ(calls[9].outcome, CallOutcome::pool_exhausted);
  EXPECT_EQ(calls[9].duration, 500 * kMillisecond);
}

TEST(CallsCsv, HeaderIsOptionalAndEmptyIsFine) {
  EXPECT_EQ(parseCallsCsv("1,1,success", "c.csv").size(), 1u);
  EXPECT_TRUE(parseCallsCsv("", "c.csv").empty());
  EXPECT_TRUE(parseCallsCsv("# nothing\n\n", "c.csv").empty());
}

TEST(CallsCsv, ErrorsHaveLineAndColumn) {
  const auto at = [](const std::string& text) {
    auto e = test::loadErrorOf([&] { parseCallsCsv(text, "c.csv"); });
    return e ? std::string(e->what()) : std::string();
  };
  EXPECT_EQ(at("0,0.1,success\n1,0.1,teapot\n"),
            "c.csv:2:7: outcome: expected one of success, failure, timeout, refused, server_error, "
            "client_error, pool_exhausted or an HTTP status 2xx, 4xx, 5xx, got \"teapot\"");
  EXPECT_EQ(at("0,0.1,302\n").substr(0, 12), "c.csv:1:7: o");
  EXPECT_EQ(at("0,x,success\n"),
            "c.csv:1:3: duration_s: expected a non-negative number of seconds, got \"x\"");
  EXPECT_EQ(at("0,-1,success\n").substr(0, 23), "c.csv:1:3: duration_s: ");
  EXPECT_EQ(at("# c\nstart,duration,outcome\nabc,1,success\n"),
            "c.csv:3:1: start_s: expected a number of seconds, got \"abc\"");
  EXPECT_EQ(at("0,0.1,success\n2,0.1,success\n1,0.1,success\n"),
            "c.csv:3:1: start_s: 1 is before the previous call's start (2.0); calls must be "
            "sorted by start");
  EXPECT_EQ(at("0,0.1\n"),
            "c.csv:1:6: expected 3 fields (start_s,duration_s,outcome) or 4 (and pod), got 2");
  EXPECT_EQ(at("0,0.1,success,key\n"),
            "c.csv:1:15: pod: expected a whole number from 0 to 9999, got \"key\"");
  EXPECT_EQ(at("0,0.1,success,1,2\n"),
            "c.csv:1:17: expected 3 fields (start_s,duration_s,outcome) or 4 (and pod), got 5");
  EXPECT_EQ(at("0,0.1,success,1\n0,0.1,success,1,2\n"),
            "c.csv:2:17: expected 4 fields (start_s,duration_s,outcome,pod), got 5");
  EXPECT_EQ(at("a,b\n"),
            "c.csv:1:1: the header must have 3 columns (start_s,duration_s,outcome) or 4 (and "
            "pod), got 2");
  // Every line has the columns of the first.
  EXPECT_EQ(at("start_s,duration_s,outcome,pod\n0,0.1,success\n"),
            "c.csv:2:14: expected 4 fields (start_s,duration_s,outcome,pod), got 3");
  EXPECT_EQ(at("0,0.1,success\n1,0.1,success,2\n"),
            "c.csv:2:15: expected 3 fields (start_s,duration_s,outcome), got 4");
  // The pod: a whole number from 0 to kMaxCallLogPod.
  EXPECT_EQ(at("0,0.1,success,-1\n").substr(0, 20), "c.csv:1:15: pod: exp");
  EXPECT_EQ(at("0,0.1,success,1.5\n").substr(0, 20), "c.csv:1:15: pod: exp");
  EXPECT_EQ(at("0,0.1,success,10000\n").substr(0, 20), "c.csv:1:15: pod: exp");
}

TEST(CallsCsv, APodColumnRoutesEachCall) {
  const std::vector<LoggedCall> calls = parseCallsCsv(
      "start_s,duration_s,outcome,pod\n0,0.1,success,3\n0.5,0.1,503,0\n"
      "1,0.1,timeout,9999\n",
      "c.csv");
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].pod, 3u);
  EXPECT_EQ(calls[1].pod, 0u);
  EXPECT_EQ(calls[2].pod, 9999u);
  EXPECT_EQ(parseCallsCsv("0,0.1,success\n", "c.csv").at(0).pod, 0u);
}

}  // namespace
}  // namespace breakerlab
