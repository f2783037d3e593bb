#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "breakerlab/core/inputs/lanes.h"

namespace breakerlab {
namespace {

Lane lane(std::initializer_list<std::tuple<const char*, double, double>> spans) {
  Lane l{"breaker", {}};
  for (auto [state, from, to] : spans) l.append(state, fromSeconds(from), fromSeconds(to));
  return l;
}

TEST(Lanes, AppendMergesEqualNeighbours) {
  Lane l = lane({{"closed", 0, 5}, {"closed", 5, 8}, {"open", 8, 9}});
  ASSERT_EQ(l.intervals.size(), 2u);
  EXPECT_EQ(l.intervals[0].to, 8 * kSecond);
  EXPECT_EQ(l.stateAt(7 * kSecond), "closed");
  EXPECT_EQ(l.stateAt(8 * kSecond), "open");
  EXPECT_TRUE(l.stateAt(9 * kSecond).empty());
}

TEST(Lanes, CompareWithinTolerance) {
  const Lane recorded = lane({{"closed", 0, 11}, {"open", 11, 31}, {"closed", 31, 60}});
  const Lane close = lane({{"closed", 0, 11.4}, {"open", 11.4, 31.4}, {"closed", 31.4, 60}});
  EXPECT_TRUE(compareLanes(recorded, close, 500 * kMillisecond).matches);
  const auto far = compareLanes(recorded, close, 300 * kMillisecond);
  EXPECT_FALSE(far.matches);
  EXPECT_EQ(far.worst_boundary_error, 400 * kMillisecond);
}

TEST(Lanes, CompareReportsDifferentStateSequences) {
  const Lane recorded = lane({{"closed", 0, 11}, {"open", 11, 60}});
  const Lane replayed = lane({{"closed", 0, 60}});
  const auto c = compareLanes(recorded, replayed, kSecond);
  EXPECT_FALSE(c.matches);
  EXPECT_NE(c.explanation.find("2 intervals"), std::string::npos) << c.explanation;
}

// laneAgreement on hand-made lanes: how long each recorded state was replayed as what, and where
// the replay put the record's edges (into the same state, the nearest; none: not replayed).
TEST(Lanes, AgreementSaysHowFarOffEachStateAndEdgeIs) {
  using Spans = std::initializer_list<std::tuple<const char*, double, double>>;
  using As = std::vector<std::pair<std::string, Micros>>;
  struct Row {
    const char* name;
    Lane recorded, replayed;
    double span, disagreed;
    std::vector<LaneStateAgreement> states;
    std::vector<LaneEdgeOffset> edges;
  };
  const auto s = [](double v) { return fromSeconds(v); };
  const auto edge = [&](double at, const char* from, const char* to, std::optional<double> off) {
    return LaneEdgeOffset{s(at), from, to,
                          off ? std::optional<Micros>(s(*off)) : std::optional<Micros>()};
  };
  const Spans record = {
      {"fresh", 0, 10}, {"slow", 10, 40}, {"failed", 40, 100}, {"fresh", 100, 120}};
  const Row rows[] = {
      {"the same lane",
       lane(record),
       lane(record),
       120,
       0,
       {{"fresh", s(30), s(30), {}}, {"slow", s(30), s(30), {}}, {"failed", s(60), s(60), {}}},
       {edge(10, "fresh", "slow", 0), edge(40, "slow", "failed", 0),
        edge(100, "failed", "fresh", 0)}},
      // The 14 Aug shape: the slow stretch replayed as failed, the recovery early.
      {"a state never replayed",
       lane(record),
       lane({{"fresh", 0, 10}, {"failed", 10, 90}, {"fresh", 90, 120}}),
       120,
       40,
       {{"fresh", s(30), s(30), {}},
        {"slow", s(30), 0, As{{"failed", s(30)}}},
        {"failed", s(60), s(50), As{{"fresh", s(10)}}}},
       {edge(10, "fresh", "slow", std::nullopt), edge(40, "slow", "failed", -30),
        edge(100, "failed", "fresh", -10)}},
      // Edges late, and a replayed flap: the nearest edge into the state counts.
      {"late edges and a flap",
       lane(record),
       lane({{"fresh", 0, 12},
             {"slow", 12, 45},
             {"failed", 45, 60},
             {"slow", 60, 61},
             {"failed", 61, 105},
             {"fresh", 105, 120}}),
       120,
       13,
       {{"fresh", s(30), s(25), As{{"failed", s(5)}}},
        {"slow", s(30), s(28), As{{"fresh", s(2)}}},
        {"failed", s(60), s(54), As{{"slow", s(6)}}}},
       {edge(10, "fresh", "slow", 2), edge(40, "slow", "failed", 5),
        edge(100, "failed", "fresh", 5)}},
      // Only the time both lanes cover counts.
      {"a shorter replay",
       lane(record),
       lane({{"fresh", 0, 10}, {"slow", 10, 50}}),
       50,
       10,
       {{"fresh", s(10), s(10), {}},
        {"slow", s(30), s(30), {}},
        {"failed", s(10), 0, As{{"slow", s(10)}}}},
       {edge(10, "fresh", "slow", 0), edge(40, "slow", "failed", std::nullopt),
        edge(100, "failed", "fresh", std::nullopt)}},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    const LaneAgreement want{s(row.span), s(row.disagreed), row.states, row.edges};
    const LaneAgreement got = laneAgreement(row.recorded, row.replayed);
    EXPECT_EQ(got, want) << got.summary();
    // Every second of the span is agreed or disagreed, state by state.
    Micros agreed = 0;
    for (const LaneStateAgreement& st : got.states) agreed += st.agreed;
    EXPECT_EQ(agreed + got.disagreed, got.span);
  }
}

TEST(Lanes, AgreementSummaryNamesTheStatesAndEdgesOff) {
  const Lane recorded = lane({{"fresh", 0, 180}, {"slow", 180, 840}, {"failed", 840, 2340}});
  const Lane replayed = lane({{"fresh", 0, 180}, {"failed", 180, 2340}});
  EXPECT_EQ(laneAgreement(recorded, replayed).summary(),
            "660 s of 2340 s disagree: slow (660 s recorded) replayed as failed 660 s. Edges: "
            "fresh→slow at 180 s not replayed; slow→failed at 840 s replayed 660 s early");
}

}  // namespace
}  // namespace breakerlab
