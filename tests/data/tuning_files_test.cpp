// The text of tune and sweep: `--knob` ranges, `--shard`, and the partial files `merge` reads
// (numbers back bit for bit; bad files refused with what is wrong).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <string_view>

#include "breakerlab/data/tune_partial.h"
#include "breakerlab/data/tuning_text.h"

namespace breakerlab {
namespace {

TEST(KnobRangeText, ReadsUnitsLogAndTheWholeRange) {
  struct Case {
    const char* text;
    double low, high;
    bool log;
  };
  const Case cases[] = {
      {"breaker.open.interval=1..60:log", 1, 60, true},
      {"timeout.attempt=200ms..5s", 200, 5000, false},  // a duration knob in ms
      {"breaker.open.interval=500ms..2s", 0.5, 2, false},
      {"breaker.open.early_probe.enabled", 0, 1, false},
      {"retry.max_attempts=1..3", 1, 3, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const KnobRange r = parseKnobRange(c.text, "--knob");
    EXPECT_DOUBLE_EQ(r.low, c.low);
    EXPECT_DOUBLE_EQ(r.high, c.high);
    EXPECT_EQ(r.log, c.log);
  }
}

// A command-line value has no line: the error names the option and quotes what is wrong.
TEST(KnobRangeText, SaysWhatIsWrong) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"breaker.open.intervall=1..3", "unknown knob \"breaker.open.intervall\""},
      {"breaker.open.interval=30..1", "the low end is above the high end"},
      {"timeout.attempt=fast..5s",
       "expected a duration such as 800ms or 2s (or a number of ms) "
       "for timeout.attempt, got \"fast\""},
      {"pool.size=0..10:log", "a log range must start above 0"},
      // Beyond the knob table's bounds a duration would overflow its microseconds (a fuzzer's
      // find: 5..6.8e65 s).
      {"breaker.open.interval=5..1e70", "the range must lie within the knob's own, 0.5 to 120 s"},
      {"breaker.open.interval=1..10:square", ":log"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      (void)parseKnobRange(c.text, "--knob");
      ADD_FAILURE() << "parsed";
    } catch (const LoadError& e) {
      EXPECT_EQ(e.file(), "--knob");
      EXPECT_NE(e.message().find(c.says), std::string::npos) << e.what();
    }
  }
}

TEST(ShardText, IsIOfNWithIBelowN) {
  const Shard s = parseShard("3/16", "--shard");
  EXPECT_EQ(s.index, 3u);
  EXPECT_EQ(s.count, 16u);
  EXPECT_EQ(parseShard("1048575/1048576", "--shard").count, kMaxShards);
  // More shards than a partial file may say: refused here, not by `merge` after the work.
  for (const char* bad : {"2/2", "0/0", "-1/3", "1", "1/", "a/b", "1/3/4", "", "1/2000000"})
    EXPECT_THROW((void)parseShard(bad, "--shard"), LoadError) << bad;
}

Evaluation evaluation(std::vector<double> objectives, std::vector<bool> goals_met) {
  Evaluation e;
  e.feasible = std::all_of(goals_met.begin(), goals_met.end(), [](bool b) { return b; });
  e.objectives = std::move(objectives);
  e.goals_met = std::move(goals_met);
  e.shortfall = e.feasible ? 0 : 0.1 + 0.2;
  e.replays = 3;
  return e;
}

void expectSameBits(double a, double b) {
  if (std::isnan(a)) {
    EXPECT_TRUE(std::isnan(b));
  } else {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b)) << a << " " << b;
  }
}

void expectSame(const Evaluation& a, const Evaluation& b) {
  EXPECT_EQ(a.feasible, b.feasible);
  EXPECT_EQ(a.stopped_early, b.stopped_early);
  EXPECT_EQ(a.invalid, b.invalid);
  expectSameBits(a.shortfall, b.shortfall);
  ASSERT_EQ(a.objectives.size(), b.objectives.size());
  for (std::size_t i = 0; i < a.objectives.size(); ++i)
    expectSameBits(a.objectives[i], b.objectives[i]);
  EXPECT_EQ(a.goals_met, b.goals_met);
  EXPECT_EQ(a.replays, b.replays);
}

TEST(TunePartialFile, ReadsBackBitForBit) {
  const double inf = std::numeric_limits<double>::infinity();
  TunePartial p;
  p.search = R"({"budget":1000,"knobs":["breaker.open.interval=1..60:log"]})";
  p.shard = 2;
  p.shards = 3;
  p.result.restarts = 4;
  p.result.stats = {17, 34, 5, 1};
  p.result.front.push_back({{28.5, 1.0 / 3}, evaluation({0.1 + 0.2, 1e-300}, {true, true}), 2, 9});
  p.result.closest.push_back({{1e9, 0}, evaluation({inf, -0.0}, {false, true}), 2, 0});
  p.result.closest.back().evaluation.stopped_early = true;
  const std::string text = tunePartialToJson(p);
  EXPECT_EQ(partialFormatOf(text, "p.json"), kTunePartialFormat);
  const TunePartial q = parseTunePartial(text, "p.json");
  EXPECT_EQ(q.search, p.search);
  EXPECT_EQ(q.shard, 2u);
  EXPECT_EQ(q.shards, 3u);
  EXPECT_EQ(q.result.restarts, 4u);
  EXPECT_EQ(q.result.stats.gave_up, 5u);
  ASSERT_EQ(q.result.front.size(), 1u);
  ASSERT_EQ(q.result.closest.size(), 1u);
  for (std::size_t i = 0; i < 2; ++i) {
    expectSameBits(q.result.front[0].values[i], p.result.front[0].values[i]);
    expectSameBits(q.result.closest[0].values[i], p.result.closest[0].values[i]);
  }
  EXPECT_EQ(q.result.front[0].step, 9u);
  expectSame(q.result.front[0].evaluation, p.result.front[0].evaluation);
  expectSame(q.result.closest[0].evaluation, p.result.closest[0].evaluation);
  EXPECT_EQ(tunePartialToJson(q), text);
}

TEST(SweepPartialFile, ReadsBackWithEachGoalsVerdictAndTheCellsKnobValues) {
  SweepPartial p;
  p.search = R"({"points":"3,2"})";
  p.shard = 1;
  p.shards = 2;
  p.result.axes = {{5, 12.5, 20}, {0.5, 2}};
  for (std::size_t index : {1u, 3u, 5u}) {
    SweepCell c;
    c.index = index;
    c.evaluation = evaluation({0.1 * static_cast<double>(index)}, {index != 3, true});
    p.result.cells.push_back(c);
  }
  const SweepPartial q = parseSweepPartial(sweepPartialToJson(p), "p.json");
  ASSERT_EQ(q.result.cells.size(), 3u);
  EXPECT_EQ(q.result.axes, p.result.axes);
  // The last knob runs fastest: cell 3 is 12.5 s x 2.
  EXPECT_EQ(q.result.cells[1].values, (std::vector<double>{12.5, 2}));
  for (std::size_t i = 0; i < 3; ++i)
    expectSame(q.result.cells[i].evaluation, p.result.cells[i].evaluation);
}

std::string expectRefused(const std::string& text) {
  try {
    (void)parseSweepPartial(text, "part.json");
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "part.json");
    return e.what();
  }
  ADD_FAILURE() << "read: " << text;
  return {};
}

TEST(SweepPartialFile, RefusesWhatMergeCouldNotTrust) {
  const std::string head =
      R"({"format":"breakerlab-sweep-partial/1","search":{},"shard":0,"shards":1,"cancelled":false,)";
  const std::string ok_cell = R"({"index":0,"evaluation":{"feasible":true,"stopped_early":false,)"
                              R"("invalid":false,"shortfall":0,"objectives":[1],"goals_met":[],)"
                              R"("replays":1}})";
  // The cell list itself reads.
  EXPECT_NO_THROW(
      (void)parseSweepPartial(head + R"("axes":[[1,2]],"cells":[)" + ok_cell + "]}", "part.json"));
  // Not JSON: the line and column.
  EXPECT_NE(expectRefused("{\n  \"format\": ]").find("part.json:2:"), std::string::npos);
  // A number no double holds (a fuzzer's find: it ended the process).
  EXPECT_NE(expectRefused(R"({"format": 5e9185})").find("out of range"), std::string::npos);
  EXPECT_NE(expectRefused(R"({"format":"breakerlab-tune-partial/1"})").find("expected \"format\""),
            std::string::npos);
  EXPECT_NE(expectRefused(R"({"format":"breakerlab-sweep-partial/1","search":{},"shard":2,)"
                          R"("shards":2})")
                .find("0 <= shard < shards"),
            std::string::npos);
  EXPECT_NE(expectRefused(head + R"("axes":[[1,2]],"cells":[)" + ok_cell + "," + ok_cell + "," +
                          ok_cell + "]}")
                .find("at most one cell per grid point"),
            std::string::npos);
  std::string beyond = ok_cell;
  beyond.replace(beyond.find("\"index\":0"), 9, "\"index\":2");
  EXPECT_NE(expectRefused(head + R"("axes":[[1,2]],"cells":[)" + beyond + "]}").find("index"),
            std::string::npos);
  EXPECT_NE(expectRefused(head + R"("axes":[[1],[2],[3]],"cells":[]})").find("one or two axes"),
            std::string::npos);
  // A grid larger than any map `sweep` makes, refused before anything is allocated for it.
  std::string axis = "[";
  for (int i = 0; i < 1001; ++i) axis += (i == 0 ? "" : ",") + std::to_string(i);
  axis += "]";
  EXPECT_NE(expectRefused(head + "\"axes\":[" + axis + "," + axis + "],\"cells\":[]}")
                .find("at most 1000000 cells"),
            std::string::npos);
}

// The fuzz target's seeds: the files the CLI wrote read, the broken ones are refused with
// LoadError (number_overflow ended the process before).
TEST(TunePartialFile, TheFuzzSeedsReadOrAreRefused) {
  for (const char* name : {"tune_front", "sweep", "truncated", "bad_shard", "number_overflow"}) {
    const bool written =
        std::string_view(name) == "tune_front" || std::string_view(name) == "sweep";
    std::ifstream in(std::string(BREAKERLAB_FUZZ_CORPUS) + "/tune_partial/" + name,
                     std::ios::binary);
    ASSERT_TRUE(in) << name;
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    bool read = false;
    try {
      if (partialFormatOf(text, name) == kTunePartialFormat)
        (void)parseTunePartial(text, name);
      else
        (void)parseSweepPartial(text, name);
      read = true;
    } catch (const LoadError& e) {
      EXPECT_FALSE(written) << e.what();
    }
    EXPECT_EQ(read, written) << name;
  }
}

}  // namespace
}  // namespace breakerlab
