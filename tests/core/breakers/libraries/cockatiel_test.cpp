// cockatiel 4.0.0's SamplingBreaker, case by case from its source (src/breaker/SamplingBreaker.ts,
// as shipped in dist/breaker/SamplingBreaker.js; src/CircuitBreakerPolicy.ts for the policy
// around it). Each case cites the function whose rule it pins; the expected decisions and
// transitions are what the real cockatiel 4.0.0 gives on a fake clock that reads a production
// Date.now() at the log's t = 0 (tests/differential/driver.mjs, DEFAULT_EPOCH).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "breakerlab/core/replay/call_log_replay.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;

struct Policy {
  std::int64_t duration_ms = 1000;
  double threshold = 0.5;
  double minimum_rps = 0;  // 0: cockatiel's default, 5 / threshold failures a second
  std::int64_t half_open_after_ms = 10'000;
};

struct Row {
  std::int64_t start_ms;
  std::int64_t duration_ms;
  char outcome;  // 'S' success, 'F' failure
};

struct CockatielCase {
  const char* name;
  const char* source;
  const char* rule;
  Policy policy;
  std::vector<Row> calls;
  const char* permitted;  // one letter a call: Y permitted, n rejected (or held and rejected)
  std::vector<std::pair<std::int64_t, BreakerState>> transitions;  // ms, to
};

void PrintTo(const CockatielCase& c, std::ostream* os) {
  *os << c.name;
}

NativeBreakers sampling(const Policy& p) {
  NativeBreakers n;
  CockatielSettings& c = n.cockatiel;
  c.breaker.kind = CockatielBreakerSpec::Kind::sampling;
  c.breaker.duration = p.duration_ms * ms;
  c.breaker.threshold = p.threshold;
  c.breaker.minimum_rps = p.minimum_rps;
  c.half_open_after.kind = CockatielBackoff::Kind::constant;
  c.half_open_after.delay = p.half_open_after_ms * ms;
  return n;
}

BreakerConfig cockatiel() {
  BreakerConfig b;
  b.library = BreakerLibrary::cockatiel;
  return b;
}

const std::vector<CockatielCase>& cases() {
  using enum BreakerState;
  static const std::vector<CockatielCase> all = {
      {"FirstSampleRotatesOutOfTheEpochWindow",
       "src/breaker/SamplingBreaker.ts: constructor (windows with startedAt: 0), push",
       "startedAt 0 is the Unix epoch: the first sample rotates, window 0 stays empty and window 1 "
       "starts at 110; when the ring comes round at 1150 it empties window 0, so the failure at "
       "110 still counts (4 of 7 > 3.5). Windows anchored at t = 0 would drop it (3 of 6).",
       {.duration_ms = 1000, .minimum_rps = 2},
       {{50, 60, 'F'},
        {210, 0, 'S'},
        {370, 60, 'S'},
        {580, 60, 'S'},
        {750, 30, 'F'},
        {920, 0, 'F'},
        {1090, 60, 'F'}},
       "YYYYYYY",
       {{1150, open}}},
      {"RotatesWhenAWholeWindowHasPassed",
       "src/breaker/SamplingBreaker.ts: push (now - window.startedAt >= windowSize)",
       "200 ms windows; window 1 starts at 100 and the sample at 300 is exactly 200 ms later, so "
       "it rotates: at 1100 the ring has come round to window 1 and the failure at 100 is gone "
       "(1 of 5 is not above 0.3).",
       {.duration_ms = 1000, .threshold = 0.3, .minimum_rps = 3},
       {{100, 0, 'F'}, {300, 0, 'S'}, {500, 0, 'S'}, {700, 0, 'S'}, {900, 0, 'S'}, {1100, 0, 'F'}},
       "YYYYYY",
       {}},
      {"StaysInAWindowOneMillisecondShort",
       "src/breaker/SamplingBreaker.ts: push (now - window.startedAt >= windowSize)",
       "The same log with the second call at 299: it stays in window 1 with the failure at 100, "
       "every later rotation comes one sample later, and at 1100 the failure still counts: 2 of 6 "
       "> 1.8.",
       {.duration_ms = 1000, .threshold = 0.3, .minimum_rps = 3},
       {{100, 0, 'F'}, {299, 0, 'S'}, {500, 0, 'S'}, {700, 0, 'S'}, {900, 0, 'S'}, {1100, 0, 'F'}},
       "YYYYYY",
       {{1100, open}}},
      {"OneRotationASampleWhateverTheGap",
       "src/breaker/SamplingBreaker.ts: push, rotateWindow (one window a call)",
       "After a minute idle the failure at 60000 rotates one window only, which is empty: the two "
       "failures of a minute ago still count, 3 of 3 with 3 needed.",
       {.duration_ms = 1000, .minimum_rps = 3},
       {{0, 10, 'F'}, {20, 10, 'F'}, {60'000, 0, 'F'}},
       "YYY",
       {{60'000, open}}},
      {"MinimumCountUsesTheRoundedDuration",
       "src/breaker/SamplingBreaker.ts: constructor (duration = windowSize * windowCount), failure",
       "duration 2502: 5 windows of Math.round(500.4) = 500 ms, so the minimum is 2500 * 0.002 = 5 "
       "results, not 5.004 (6): the fifth failure opens it.",
       {.duration_ms = 2502, .minimum_rps = 2},
       {{0, 0, 'F'}, {10, 0, 'F'}, {20, 0, 'F'}, {30, 0, 'F'}, {40, 0, 'F'}, {50, 0, 'F'}},
       "YYYYYn",
       {{40, open}}},
      {"OneWindowASecondAboveFiveSeconds",
       "src/breaker/SamplingBreaker.ts: constructor (Math.max(5, Math.ceil(duration / 1000)))",
       "duration 12001: 13 windows of Math.round(923.15) = 923 ms, 11999 ms in all, so 11.999 "
       "results are needed, not 12.001: the twelfth failure opens it.",
       {.duration_ms = 12'001, .minimum_rps = 1},
       {{0, 0, 'F'},
        {10, 0, 'F'},
        {20, 0, 'F'},
        {30, 0, 'F'},
        {40, 0, 'F'},
        {50, 0, 'F'},
        {60, 0, 'F'},
        {70, 0, 'F'},
        {80, 0, 'F'},
        {90, 0, 'F'},
        {100, 0, 'F'},
        {110, 0, 'F'},
        {120, 0, 'F'}},
       "YYYYYYYYYYYYn",
       {{110, open}}},
      {"DefaultMinimumIsFiveFailuresASecondAtTheThreshold",
       "src/breaker/SamplingBreaker.ts: constructor (minimumRpms = 5 / (threshold * 1000))",
       "No minimumRps at threshold 0.5: 0.01 results a ms over 1000 ms, 10 results.",
       {.duration_ms = 1000},
       {{0, 0, 'F'},
        {10, 0, 'F'},
        {20, 0, 'F'},
        {30, 0, 'F'},
        {40, 0, 'F'},
        {50, 0, 'F'},
        {60, 0, 'F'},
        {70, 0, 'F'},
        {80, 0, 'F'},
        {90, 0, 'F'},
        {100, 0, 'F'}},
       "YYYYYYYYYYn",
       {{90, open}}},
      {"FailuresStrictlyAboveTheThreshold",
       "src/breaker/SamplingBreaker.ts: failure (currentFailures > threshold * total)",
       "2 of 4 is not above 0.5; 3 of 5 is.",
       {.duration_ms = 1000, .minimum_rps = 4},
       {{0, 0, 'S'}, {10, 0, 'F'}, {20, 0, 'S'}, {30, 0, 'F'}, {40, 0, 'F'}, {50, 0, 'S'}},
       "YYYYYn",
       {{40, open}}},
      {"OnlyAFailureCanOpenIt",
       "src/breaker/SamplingBreaker.ts: success (no check); src/CircuitBreakerPolicy.ts: execute",
       "3 failures are under the minimum of 4; the success at 30 makes 4 results, 3 failed, but "
       "success() checks nothing: the failure at 40 opens it.",
       {.duration_ms = 1000, .minimum_rps = 4},
       {{0, 0, 'F'}, {10, 0, 'F'}, {20, 0, 'F'}, {30, 0, 'S'}, {40, 0, 'F'}, {50, 0, 'S'}},
       "YYYYYn",
       {{40, open}}},
      {"AResultCountsWhenItComesBack",
       "src/breaker/SamplingBreaker.ts: push (Date.now() when the result is back); "
       "src/CircuitBreakerPolicy.ts: execute",
       "The failure started at 10 is pushed at 1200 into the current window; the window that was "
       "current when it started rotated out at 1050. 1 of 6 > 0.6 opens it.",
       {.duration_ms = 1000, .threshold = 0.1, .minimum_rps = 5},
       {{0, 0, 'S'},
        {10, 1190, 'F'},
        {250, 0, 'S'},
        {450, 0, 'S'},
        {650, 0, 'S'},
        {850, 0, 'S'},
        {1050, 0, 'S'},
        {1300, 0, 'S'}},
       "YYYYYYYn",
       {{1200, open}}},
      {"TheClosingSuccessStaysInTheResetWindows",
       "src/breaker/SamplingBreaker.ts: success(HalfOpen) -> resetWindows, push; "
       "src/CircuitBreakerPolicy.ts: close",
       "The trial's success at 610 resets the windows and is pushed: with the failure at 620 it is "
       "1 of 2 (not above 1), and the failure at 630 makes 2 of 3.",
       {.duration_ms = 1000, .minimum_rps = 2, .half_open_after_ms = 500},
       {{0, 0, 'F'},
        {10, 0, 'F'},
        {100, 0, 'S'},
        {600, 10, 'S'},
        {620, 0, 'F'},
        {630, 0, 'F'},
        {640, 0, 'S'}},
       "YYnYYYn",
       {{10, open}, {600, half_open}, {610, closed}, {630, open}}},
      {"AFailedTrialOpensWhateverTheCounts",
       "src/breaker/SamplingBreaker.ts: failure (state !== Closed returns true); "
       "src/CircuitBreakerPolicy.ts: recordHalfOpenFailure",
       "The call at 605 waits for the trial; the trial's failure at 610 reopens the breaker and "
       "the waiting call is rejected then.",
       {.duration_ms = 1000, .minimum_rps = 2, .half_open_after_ms = 500},
       {{0, 0, 'F'}, {10, 0, 'F'}, {100, 0, 'S'}, {600, 10, 'F'}, {605, 0, 'S'}, {700, 0, 'S'}},
       "YYnYnn",
       {{10, open}, {600, half_open}, {610, open}}},
  };
  return all;
}

std::vector<LoggedCall> toCalls(const std::vector<Row>& rows) {
  std::vector<LoggedCall> calls;
  for (const Row& r : rows)
    calls.push_back({r.start_ms * ms, r.duration_ms * ms,
                     r.outcome == 'F' ? CallOutcome::failure : CallOutcome::success});
  return calls;
}

std::string letters(const std::vector<bool>& permitted) {
  std::string s;
  for (bool p : permitted) s += p ? 'Y' : 'n';
  return s;
}

std::string lines(const std::vector<std::pair<std::int64_t, BreakerState>>& ts) {
  std::ostringstream out;
  for (const auto& [at, to] : ts) out << at << ' ' << toString(to) << '\n';
  return out.str();
}

class CockatielSampling : public testing::TestWithParam<CockatielCase> {};

TEST_P(CockatielSampling, MatchesTheLibrarysSource) {
  const CockatielCase& c = GetParam();
  SCOPED_TRACE(std::string(c.source) + ": " + c.rule);
  const BreakerReplay r = replayCallLog(cockatiel(), sampling(c.policy), toCalls(c.calls));
  EXPECT_EQ(letters(r.permitted), c.permitted);
  std::vector<std::pair<std::int64_t, BreakerState>> got;
  for (const BreakerTransition& t : r.transitions) got.emplace_back(t.at / ms, t.to);
  EXPECT_EQ(lines(got), lines(c.transitions));
}

INSTANTIATE_TEST_SUITE_P(Source, CockatielSampling, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<CockatielCase>& info) {
                           return info.param.name;
                         });

// /work/shared/reproducers/cockatiel-sampling-early-trip: 101 calls at about 8 a second against
// SamplingBreaker {threshold 0.3, duration 12 s, minimumRps 1}, halfOpenAfter 9 s. With windows
// anchored at t = 0 the breaker opened at 13.648 s (call 97's failure) and rejected call 99;
// cockatiel's first sample rotates out of the epoch window (src/breaker/SamplingBreaker.ts:
// push), so its windows start 66 ms later and it opens at 13.829 s, call 99's own failure.
constexpr const char* kReproducer = R"(
0.000,0.066,success 0.111,0.043,success 0.233,0.099,success 0.387,0.035,success
0.438,0.056,success 0.676,0.075,success 0.974,0.077,success 1.006,0.059,success
1.398,0.061,success 1.552,0.003,success 1.783,0.073,success 1.932,0.207,success
1.982,0.012,success 2.137,0.019,success 2.205,0.139,success 2.410,0.181,success
2.422,0.030,success 2.535,0.063,success 2.640,0.014,success 2.647,0.027,success
2.793,0.051,success 3.089,0.190,success 3.113,0.023,success 3.153,0.166,success
3.575,0.013,success 3.675,0.009,success 3.902,0.067,success 3.916,0.062,success
3.990,0.022,success 4.100,0.027,success 4.144,0.030,success 4.209,0.085,success
4.247,0.068,success 4.296,0.163,failure 4.301,0.062,success 4.346,0.045,success
4.463,0.136,success 4.889,0.220,success 5.216,0.134,success 5.434,0.041,success
5.590,0.079,success 6.016,0.045,success 6.039,0.040,success 6.172,0.097,success
6.252,0.040,failure 6.387,0.052,failure 6.407,0.013,failure 6.535,0.020,failure
6.769,0.074,success 6.773,0.053,failure 7.020,0.101,failure 7.213,0.027,failure
7.467,0.018,failure 7.743,0.078,failure 8.152,0.109,success 8.174,0.021,failure
8.431,0.099,failure 8.487,0.019,success 8.697,0.087,success 8.700,0.163,success
8.837,0.052,success 8.933,0.025,success 9.107,0.058,failure 9.342,0.092,success
9.470,0.041,success 9.738,0.040,failure 9.747,0.119,failure 9.842,0.144,success
10.130,0.105,success 10.163,0.023,failure 10.327,0.050,failure 10.358,0.037,success
10.377,0.095,success 10.398,0.028,success 10.455,0.023,failure 10.620,0.011,failure
10.888,0.095,success 10.893,0.052,success 11.015,0.028,failure 11.049,0.111,success
11.049,0.053,success 11.231,0.121,failure 11.242,0.017,success 11.323,0.071,success
11.383,0.027,success 11.699,0.013,failure 11.867,0.045,success 12.016,0.069,success
12.136,0.078,success 12.217,0.054,failure 12.341,0.075,success 12.362,0.056,success
12.503,0.125,failure 12.589,0.033,failure 12.696,0.048,failure 12.948,0.041,success
13.258,0.039,failure 13.608,0.040,failure 13.623,0.047,failure 13.809,0.020,failure
13.823,0.044,failure
)";

TEST(CockatielSampling, ReproducerOpensAtCall99sFailureAndPermitsIt) {
  std::vector<LoggedCall> calls;
  std::istringstream in(kReproducer);
  for (std::string row; in >> row;) {
    std::istringstream fields(row);
    std::string start, duration, outcome;
    std::getline(fields, start, ',');
    std::getline(fields, duration, ',');
    std::getline(fields, outcome);
    calls.push_back({std::llround(std::stod(start) * 1e6), std::llround(std::stod(duration) * 1e6),
                     outcome == "failure" ? CallOutcome::failure : CallOutcome::success});
  }
  ASSERT_EQ(calls.size(), 101u);
  const BreakerReplay r = replayCallLog(
      cockatiel(),
      sampling(
          {.duration_ms = 12'000, .threshold = 0.3, .minimum_rps = 1, .half_open_after_ms = 9'000}),
      calls);
  ASSERT_FALSE(r.transitions.empty());
  EXPECT_EQ(r.transitions[0].to, BreakerState::open);
  EXPECT_EQ(r.transitions[0].at, 13'829 * ms);
  EXPECT_TRUE(r.permitted[99]);   // starts at 13.809 s, while cockatiel is still closed
  EXPECT_TRUE(r.permitted[100]);  // 13.823 s, before call 99 completes
  EXPECT_EQ(r.transitions.size(), 1u);
}

}  // namespace
}  // namespace breakerlab
