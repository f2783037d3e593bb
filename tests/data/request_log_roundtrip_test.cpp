// The Done-when of issue 9: a request log exported from a replay of each bundled incident
// (replay --calls-out) re-imports and replays to the same breaker lane within 0.5 s and the same
// failed checkouts within 1%.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/calibrate.h"
#include "breakerlab/data/calls_out.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "fleet_replay.h"
#include "test_support.h"

namespace breakerlab {
namespace {

struct LogRoundTrip {
  Result original;
  Result reimported;
  LaneComparison breaker;
  std::size_t log_lines = 0;
};

std::filesystem::path tempFile(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("breakerlab-roundtrip-" + std::to_string(::getpid()) + "-" + name);
}

LogRoundTrip roundTrip(const std::string& incident_file, RequestLogFormat format, bool same_seed) {
  const Incident incident = loadIncident(test::resourcePath("incidents/" + incident_file));
  LogRoundTrip out;
  CallTrace trace;
  out.original = simulate(incident, incident.deployed, trace);
  const auto log = tempFile(incident_file + (format == RequestLogFormat::csv ? ".csv" : ".jsonl"));
  writeCallsOut(log, format, out.original, trace);

  ImportOptions options;
  options.request_log_config = incident.deployed;
  ImportedIncident imported = openIncidentFile(log, options);
  std::filesystem::remove(log);
  EXPECT_EQ(imported.source, format == RequestLogFormat::csv ? IncidentSource::request_log_csv
                                                             : IncidentSource::request_log_jsonl);
  Incident& again = imported.incident;
  EXPECT_EQ(again.start, incident.start);
  EXPECT_EQ(again.end, incident.end);
  // The seed draws the client's own randomness (backoff jitter), which a log cannot carry.
  if (same_seed) again.seed = incident.seed;
  // A log carries the calls, not what the operators changed (001's retry flag off at 10:11):
  // the same config has the same timed changes.
  again.changes = incident.changes;
  out.reimported = simulate(again, again.deployed);
  out.breaker = compareLanes(out.original.breaker, out.reimported.breaker, kSecond / 2);
  return out;
}

void expectSameReplay(const LogRoundTrip& r, const std::string& name) {
  EXPECT_TRUE(r.breaker.matches) << name << ": " << r.breaker.explanation;
  const double original = static_cast<double>(r.original.metrics.failed_checkouts);
  const double again = static_cast<double>(r.reimported.metrics.failed_checkouts);
  EXPECT_NEAR(again, original, 0.01 * original) << name;
  EXPECT_EQ(r.reimported.metrics.checkouts, r.original.metrics.checkouts) << name;
  std::printf("[ roundtrip ] %-40s breaker worst %.3f s, failed %g -> %g, calls %llu -> %llu\n",
              name.c_str(), toSeconds(r.breaker.worst_boundary_error), original, again,
              static_cast<unsigned long long>(r.original.metrics.dependency_calls),
              static_cast<unsigned long long>(r.reimported.metrics.dependency_calls));
}

class RequestLogRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(RequestLogRoundTrip, SameBreakerLaneAndFailedCheckoutsFromCsv) {
  expectSameReplay(roundTrip(GetParam(), RequestLogFormat::csv, true), GetParam());
}

TEST_P(RequestLogRoundTrip, SameWithTheLogsDefaultSeed) {
  expectSameReplay(roundTrip(GetParam(), RequestLogFormat::csv, false),
                   std::string(GetParam()) + " (seed 1)");
}

INSTANTIATE_TEST_SUITE_P(Bundled, RequestLogRoundTrip,
                         ::testing::Values("inc-2026-0908-pricing.yaml",
                                           "inc-2026-0814-orders.yaml",
                                           "inc-2026-0912-payment-timeout.yaml",
                                           "inc-payment-retry-amplification.yaml"));

TEST(RequestLogRoundTrip, JsonLinesToo) {
  expectSameReplay(roundTrip("inc-2026-0908-pricing.yaml", RequestLogFormat::jsonl, true),
                   "0908 (JSON Lines)");
}

// Issue 31, item 4: a request log with a pod column brings the recorded fleet in. The log a
// per-pod replay writes (12 Sep's breaker at 40 pods: each pod's own breaker, the rejected
// attempts on their pods' lines) reads back as 40 pod lanes, and these are the lanes of the
// breakers that wrote it: every trip, state for state, each boundary within the import's own
// tolerance (the gap 99.9% of a pod's requests are within), as a boundary is only seen at the
// pod's next request.
TEST(RequestLogRoundTrip, APerPodFleetsLogReadsBackAsItsPodsBreakers) {
  const test::FleetReplay fleet = test::perPodFleetOf0912();
  const auto log = tempFile("fleet-0912.csv");
  writeCallsOut(log, RequestLogFormat::csv, fleet.result, fleet.trace);
  ImportOptions options;
  options.request_log_config = fleet.config;
  ImportedIncident imported = openIncidentFile(log, options);
  std::filesystem::remove(log);
  const Incident& again = imported.incident;
  ASSERT_EQ(again.recorded.pod_breakers.size(), 40u);
  // Pods "0".."39" in the order of their numbers: recorded pod k is the replay's pod k+1.
  EXPECT_EQ(again.recorded.pod_breakers[2].name, "2");
  EXPECT_EQ(again.recorded.pod_breakers[10].name, "10");
  EXPECT_EQ(again.deployed.load_balancer.pods, fleet.config.load_balancer.pods);
  ASSERT_NE(again.recorded.lane("breaker"), nullptr);  // the fleet at a glance
  const PodLaneComparison c = test::comparedWithReplay(again, fleet.result);
  auto trips = [](const std::vector<Lane>& lanes) {
    std::size_t n = 0;
    for (const Lane& lane : lanes)
      for (std::size_t i = 1; i < lane.intervals.size(); ++i)
        n += lane.intervals[i - 1].state == "closed" && lane.intervals[i].state == "open";
    return n;
  };
  EXPECT_EQ(trips(again.recorded.pod_breakers), trips(fleet.result.pod_breakers));
  EXPECT_EQ(c.states_match, 40u);
  EXPECT_TRUE(c.allMatch()) << c.summary();
}

}  // namespace
}  // namespace breakerlab
