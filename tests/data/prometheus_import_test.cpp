// Prometheus range-query responses into incidents: the breaker-state series as the recorded
// lane, rates as traffic, error ratio and latency as segments, and errors that say where.
#include <gtest/gtest.h>

#include <string>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/prometheus_import.h"
#include "test_support.h"

namespace breakerlab {
namespace {

const std::string kPrometheusFixtures = std::string(BREAKERLAB_DATA_FIXTURES) + "/prometheus/";

ImportedIncident importFixture(const std::string& name) {
  return openIncidentFile(kPrometheusFixtures + name);
}

std::string prometheusErrorOf(std::string_view text) {
  const auto e = test::loadErrorOf([&] { importIncident(text, "q.json"); });
  return e ? std::string(e->what()) : std::string();
}

const char* kPrometheusHead = R"({"status":"success","data":{"resultType":"matrix","result":[)";

TEST(PrometheusImport, Resilience4jStateSeriesBecomeTheRecordedBreakerLane) {
  const ImportedIncident imported = importFixture("resilience4j-state-0908.json");
  EXPECT_EQ(imported.source, IncidentSource::prometheus_range);
  const Lane* lane = imported.incident.recorded.lane("breaker");
  ASSERT_NE(lane, nullptr);
  // One series per state, the current one at 1: closed, open at 11 s, half-open 31-33, open
  // again, half-open 53-55, closed.
  const std::vector<std::pair<std::string, double>> expected = {{"closed", 0},     {"open", 11},
                                                                {"half-open", 31}, {"open", 33},
                                                                {"half-open", 53}, {"closed", 55}};
  ASSERT_EQ(lane->intervals.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(lane->intervals[i].state, expected[i].first) << i;
    EXPECT_EQ(lane->intervals[i].from, static_cast<Micros>(expected[i].second * kSecond)) << i;
  }
  EXPECT_EQ(lane->intervals.back().to, 60 * kSecond);
  EXPECT_EQ(imported.incident.dependency.name, "pricing") << "the breaker's name label";
  // Nothing about traffic in a state-only file: said, not hidden.
  bool traffic_missing = false;
  for (const ImportFinding& f : imported.report.findings)
    traffic_missing |= f.kind == ImportFinding::Kind::missing && f.what == "traffic";
  EXPECT_TRUE(traffic_missing);
}

TEST(PrometheusImport, ARoleBundleGivesTrafficAndSegments) {
  const ImportedIncident imported = importFixture("pricing-0908-bundle.json");
  const Incident& inc = imported.incident;
  // Two pods at 20 requests a second each, summed.
  double requests = 0;
  for (const RatePiece& p : inc.traffic.rate)
    requests += p.rps_from * static_cast<double>(p.to - p.from) / kSecond;
  EXPECT_DOUBLE_EQ(requests, 2400);
  const auto& segs = inc.dependency.segments;
  ASSERT_GE(segs.size(), 3u);
  EXPECT_EQ(segs.front().state, "healthy");
  EXPECT_EQ(segs.front().to, 8 * kSecond);
  EXPECT_EQ(segs.back().state, "healthy");
  EXPECT_EQ(segs.back().from, 41 * kSecond);
  for (const DependencySegment& s : segs) {
    if (s.from >= 14 * kSecond && s.to <= 37 * kSecond) {
      EXPECT_DOUBLE_EQ(s.mix_start.server_error, 1.0) << s.from;
    }
    if (s.from >= 8 * kSecond && s.to <= 14 * kSecond) {
      EXPECT_GT(s.latency_start.p99, 500 * kMillisecond) << "p99 0.8 s while timing out";
    }
  }
  // Health is red exactly while not healthy.
  ASSERT_EQ(inc.dependency.health.size(), 3u);
  EXPECT_EQ(inc.dependency.health[1].from, 8 * kSecond);
  EXPECT_EQ(inc.dependency.health[1].to, 41 * kSecond);
  ASSERT_EQ(inc.expect.size(), 1u);
  EXPECT_EQ(inc.expect[0].within, kSecond) << "the lane is compared at the samples' step";
}

TEST(PrometheusImport, TheContentDecidesNotTheName) {
  const std::string text = readTextFile(kPrometheusFixtures + "resilience4j-state-0908.json");
  EXPECT_EQ(detectIncidentSource(text, "metrics.txt"), IncidentSource::prometheus_range);
  // On one line it would also read as one JSON Lines record: the response wins.
  EXPECT_EQ(text.find('\n'), std::string::npos);
}

TEST(PrometheusImport, ErrorsSayWhereAndWhatWasExpected) {
  const std::string series =
      R"({"metric":{"__name__":"resilience4j_circuitbreaker_state","state":"open"},)";
  EXPECT_NE(prometheusErrorOf(std::string(kPrometheusHead) + series + R"("value":[1,"1"]}]}})")
                .find("instant query; use /api/v1/query_range"),
            std::string::npos);
  const std::string bad = prometheusErrorOf(std::string(kPrometheusHead) + series +
                                            R"("values":[[1,"1"],[2,"1"],[3,"one"]]}]}})");
  EXPECT_NE(bad.find("/data/result/0/values/2"), std::string::npos) << bad;
  EXPECT_NE(bad.find("got \"one\""), std::string::npos) << bad;
  EXPECT_NE(
      prometheusErrorOf(std::string(kPrometheusHead) + series + R"("values":[[2,"1"],[1,"1"]]}]}})")
          .find("times must increase"),
      std::string::npos);
  EXPECT_NE(prometheusErrorOf(
                R"({"status":"error","errorType":"bad_data","error":"parse error at char 4"})")
                .find("did not succeed: parse error at char 4"),
            std::string::npos);
  EXPECT_NE(prometheusErrorOf(R"({"status":"success","data":{"resultType":"vector","result":[]}})")
                .find("expected \"matrix\""),
            std::string::npos);
  const std::string rate =
      prometheusErrorOf(std::string(kPrometheusHead) + R"({"metric":{},"values":[[1,"3"]]}]}})");
  EXPECT_NE(rate.find("put each query's response under its role"), std::string::npos) << rate;
  EXPECT_NE(prometheusErrorOf(std::string(R"({"breaker_state":)") + kPrometheusHead +
                              R"(]}}, "request_rates": {}})")
                .find("unknown role"),
            std::string::npos);
  // JSON syntax: line and column.
  const auto e = test::loadErrorOf([] {
    importIncident(
        "{\"status\":\"success\",\n\"data\": {\"resultType\": \"matrix\", \"result\": [\n  {,]}}",
        "q.json");
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->line(), 3);
  EXPECT_GT(e->column(), 0);
  EXPECT_NE(e->message().find("JSON:"), std::string::npos) << e->message();
}

TEST(PrometheusImport, NanSamplesAreGapsNotValues) {
  // An idle ratio is 0/0: NaN is skipped and the last value holds.
  const std::string text = std::string(R"({"error_ratio":)") + kPrometheusHead +
                           R"({"metric":{},"values":[[100,"0.5"],[101,"NaN"],[102,"0.5"]]}]}}})";
  const Incident inc = importIncident(text, "q.json").incident;
  ASSERT_FALSE(inc.dependency.segments.empty());
  EXPECT_EQ(inc.dependency.segments.size(), 1u);
  EXPECT_DOUBLE_EQ(inc.dependency.segments[0].mix_start.server_error, 0.5);
}

}  // namespace
}  // namespace breakerlab
