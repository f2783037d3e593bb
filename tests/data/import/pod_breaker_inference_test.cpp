// Each pod's breaker lane read from its rows alone (data/src/import/pod_breaker_inference.h):
// tables of hand-made rows and the lanes a reader of the log would draw from them.
#include "import/pod_breaker_inference.h"

#include <gtest/gtest.h>

#include <sstream>
#include "support/short_units.h"

namespace breakerlab::data_detail {
namespace {

using test_units::ms;
using test_units::s;

struct Row {
  std::uint32_t pod;
  Micros at;
  Micros end;  // == at: a rejection
  bool retry = false;
};

// "closed 0-2 | open 2-5 | ..." in seconds (fractions as needed).
std::string text(const Lane& lane) {
  std::ostringstream out;
  for (const LaneInterval& i : lane.intervals) {
    if (out.tellp() > 0) out << " | ";
    out << i.state << ' ' << toSeconds(i.from) << '-' << toSeconds(i.to);
  }
  return out.str();
}

std::vector<Lane> infer(std::vector<std::string> names, const std::vector<Row>& rows,
                        Micros window_end, std::uint32_t probes = 1) {
  PodBreakerInference inference(std::move(names), probes);
  for (const Row& r : rows)
    inference.add(r.pod, r.at, r.end,
                  r.end == r.at ? PodEvidence::rejected
                  : r.retry     ? PodEvidence::retry
                                : PodEvidence::let_through);
  return inference.lanes(0, window_end);
}

struct InferenceCase {
  const char* what;
  std::vector<Row> rows;  // one pod
  Micros window_end;
  const char* lane;
  std::uint32_t probes = 1;
};

TEST(PodBreakerInference, OnePodsRowsReadAsItsBreakersStates) {
  const InferenceCase cases[] = {
      {"only calls let through: closed all along",
       {{0, 1 * s, 1 * s + 50 * ms}, {0, 3 * s, 3 * s + 50 * ms}},
       5 * s,
       "closed 0-5"},
      {"a rejection after calls: open from the rejection (the trip fell between)",
       {{0, 1 * s, 2 * s}, {0, 3 * s, 3 * s}, {0, 4 * s, 4 * s}},
       6 * s,
       "closed 0-3 | open 3-6"},
      {"the first call let through after rejections is the probe: half-open until it ends, then "
       "closed when the next is let through",
       {{0, 0, 0}, {0, 2 * s, 2 * s + 100 * ms}, {0, 3 * s, 3 * s + 10 * ms}},
       5 * s,
       "open 0-2 | half-open 2-2.1 | closed 2.1-5"},
      {"a probe followed by a rejection failed: open again from its end",
       {{0, 0, 0}, {0, 2 * s, 2 * s + 500 * ms}, {0, 4 * s, 4 * s}},
       5 * s,
       "open 0-2 | half-open 2-2.5 | open 2.5-5"},
      {"with two probes, the second let through while the first is out is a permit: half-open "
       "until both end",
       {{0, 0, 0},
        {0, 1 * s, 1 * s + 200 * ms},
        {0, 1 * s + 100 * ms, 1 * s + 900 * ms},
        {0, 2 * s, 2 * s + 1 * ms}},
       3 * s,
       "open 0-1 | half-open 1-1.9 | closed 1.9-3",
       2},
      {"with one probe, a second request let through while it is out means the breaker closed",
       {{0, 0, 0}, {0, 1 * s, 1 * s + 500 * ms}, {0, 1 * s + 100 * ms, 1 * s + 900 * ms}},
       3 * s,
       "open 0-1 | half-open 1-1.1 | closed 1.1-3"},
      {"with three probes, the half-open breaker waits for all three even when they come one "
       "after another",
       {{0, 0, 0},
        {0, 1 * s, 1 * s + 100 * ms},
        {0, 2 * s, 2 * s + 100 * ms},
        {0, 3 * s, 3 * s + 100 * ms},
        {0, 4 * s, 4 * s + 10 * ms}},
       5 * s,
       "open 0-1 | half-open 1-3.1 | closed 3.1-5",
       3},
      {"a retry never opens a half-open spell (it may not have asked the breaker)",
       {{0, 0, 0}, {0, 1 * s, 1 * s + 100 * ms, true}, {0, 2 * s, 2 * s}},
       3 * s,
       "open 0-3"},
      {"a retry while half-open holds the decision until it ends (the probe's request goes on)",
       {{0, 0, 0},
        {0, 1 * s, 1 * s + 100 * ms},
        {0, 1 * s + 300 * ms, 2 * s, true},
        {0, 1 * s + 500 * ms, 1 * s + 500 * ms},
        {0, 3 * s, 3 * s}},
       4 * s,
       "open 0-1 | half-open 1-2 | open 2-4"},
      {"a retry while closed or as a pod's first row says closed",
       {{0, 1 * s, 2 * s, true}, {0, 3 * s, 3 * s + 1 * ms, true}},
       4 * s,
       "closed 0-4"},
      {"with permits left, a rejection after the probes so far have ended is the probes' "
       "spacing: still half-open, until the last probe",
       {{0, 0, 0},
        {0, 1 * s, 1 * s + 100 * ms},
        {0, 2 * s, 2 * s},
        {0, 3 * s, 3 * s + 100 * ms},
        {0, 4 * s, 4 * s}},
       5 * s,
       "open 0-1 | half-open 1-3.1 | open 3.1-5",
       2},
      {"a rejection while the probe is out is the permits used up, not a reopening",
       {{0, 0, 0},
        {0, 1 * s, 1 * s + 500 * ms},
        {0, 1 * s + 200 * ms, 1 * s + 200 * ms},
        {0, 2 * s, 2 * s + 1 * ms}},
       3 * s,
       "open 0-1 | half-open 1-1.5 | closed 1.5-3"},
      {"two trips and recoveries in order",
       {{0, 0, 100 * ms},
        {0, 1 * s, 1 * s},
        {0, 2 * s, 2 * s + 100 * ms},
        {0, 3 * s, 3 * s + 100 * ms},
        {0, 4 * s, 4 * s},
        {0, 5 * s, 5 * s + 100 * ms},
        {0, 6 * s, 6 * s + 100 * ms}},
       7 * s,
       "closed 0-1 | open 1-2 | half-open 2-2.1 | closed 2.1-4 | open 4-5 | half-open 5-5.1 | "
       "closed 5.1-7"},
      {"a pod first seen more than 10 s in joined later: no pod before its first row",
       {{0, 12 * s, 12 * s + 10 * ms}, {0, 14 * s, 14 * s + 10 * ms}},
       15 * s,
       "no pod 0-12 | closed 12-15"},
      {"a pod first seen 10 s in was there, idle: its first state from the start",
       {{0, 10 * s, 10 * s}, {0, 14 * s, 14 * s}},
       15 * s,
       "open 0-15"},
      {"a pod silent for more than 10 s at the end left: no pod after its last call's end",
       {{0, 0, 0}, {0, 1 * s, 1 * s + 500 * ms}, {0, 3 * s, 3 * s + 1 * ms}},
       20 * s,
       "open 0-1 | half-open 1-1.5 | closed 1.5-3.001 | no pod 3.001-20"},
      {"a call running past the window is cut at its end",
       {{0, 1 * s, 9 * s}},
       5 * s,
       "closed 0-5"},
  };
  for (const InferenceCase& c : cases) {
    SCOPED_TRACE(c.what);
    const std::vector<Lane> lanes = infer({"pod-a"}, c.rows, c.window_end, c.probes);
    ASSERT_EQ(lanes.size(), 1u);
    EXPECT_EQ(lanes[0].name, "pod-a");
    EXPECT_EQ(text(lanes[0]), c.lane);
  }
}

TEST(PodBreakerInference, PodsInterleavedAreReadApartAndRefusalsCounted) {
  PodBreakerInference inference({"a", "b", "c"}, 1);
  // Pod a trips at 2 s; pod b never does; pod c rejects from the start and recovers at 4 s.
  inference.add(2, 0, 0, PodEvidence::rejected);
  inference.add(0, 0, 100 * ms, PodEvidence::let_through);
  inference.add(1, 500 * ms, 600 * ms, PodEvidence::let_through);
  inference.add(0, 2 * s, 2 * s, PodEvidence::rejected);
  inference.add(1, 3 * s, 3 * s + 100 * ms, PodEvidence::let_through);
  inference.add(2, 4 * s, 4 * s + 200 * ms, PodEvidence::let_through);
  inference.add(0, 5 * s, 5 * s, PodEvidence::rejected);
  inference.add(2, 5 * s, 5 * s + 10 * ms, PodEvidence::let_through);
  EXPECT_EQ(inference.rejections(), 3u);
  const std::vector<Lane> lanes = inference.lanes(0, 6 * s);
  ASSERT_EQ(lanes.size(), 3u);
  EXPECT_EQ(text(lanes[0]), "closed 0-2 | open 2-6");
  EXPECT_EQ(text(lanes[1]), "closed 0-6");
  EXPECT_EQ(text(lanes[2]), "open 0-4 | half-open 4-4.2 | closed 4.2-6");
}

TEST(PodBreakerInference, TheGapsBetweenAPodsRequestsBoundItsBoundaries) {
  PodBreakerInference inference({"a", "b"}, 1);
  EXPECT_EQ(inference.requestGapQuantile(0.999), 0);
  // Pod a every second, pod b every 3 s; retries are not requests and leave the gaps alone.
  for (int i = 0; i <= 90; ++i) inference.add(0, i * s, i * s + 10 * ms, PodEvidence::let_through);
  for (int i = 0; i <= 30; ++i) inference.add(1, i * 3 * s, i * 3 * s, PodEvidence::rejected);
  inference.add(0, 90 * s + 500 * ms, 91 * s, PodEvidence::retry);
  // 90 gaps of 1 s and 30 of 3 s: three quarters are 1 s (to within 1/16 above), the rest 3 s.
  EXPECT_GE(inference.requestGapQuantile(0.75), 1 * s);
  EXPECT_LE(inference.requestGapQuantile(0.75), 1 * s + s / 16);
  EXPECT_GE(inference.requestGapQuantile(0.76), 3 * s);
  EXPECT_LE(inference.requestGapQuantile(0.999), 3 * s + 3 * s / 16);
}

TEST(PodBreakerInference, APodWithNoRowsIsOutOfServiceAndAnEmptyWindowHasNoIntervals) {
  PodBreakerInference inference({"a", "b"}, 1);
  inference.add(0, 1 * s, 2 * s, PodEvidence::let_through);
  const std::vector<Lane> lanes = inference.lanes(0, 3 * s);
  EXPECT_EQ(text(lanes[1]), "no pod 0-3");
  EXPECT_TRUE(inference.lanes(3 * s, 3 * s)[0].intervals.empty());
}

}  // namespace
}  // namespace breakerlab::data_detail
