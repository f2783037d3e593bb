// Every bundled incident, its timeouts and retry policy tuned: a replay that resumes from the
// deployed run's lead-in (when no lead-in call failed or came near either timeout) is
// bit-identical to a full one, timed changes and what-ifs included.
#include <gtest/gtest.h>

#include <string>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "same_result.h"

namespace breakerlab {
namespace {

struct Tuning {
  const char* what;
  void (*apply)(Config&);
};
constexpr Tuning kTunings[] = {
    {"timeout x1.5", [](Config& c) { c.timeout.attempt = c.timeout.attempt * 3 / 2; }},
    {"one more attempt, a deadline",
     [](Config& c) {
       c.retry.max_attempts += 1;
       c.timeout.total = 10 * c.timeout.attempt;
     }},
};

TEST(IncidentReplayCache, TunedTimeoutsAndRetriesReplayBitIdenticallyFromTheLeadIn) {
  const char* files[] = {"inc-2026-0908-pricing.yaml", "inc-payment-retry-amplification.yaml",
                         "inc-2026-0814-orders.yaml", "inc-2026-0912-payment-timeout.yaml",
                         "teach-metastable-retries.yaml"};
  std::uint64_t reused = 0;
  for (const char* file : files) {
    const Incident inc = loadIncident(std::string(BREAKERLAB_RESOURCES) + "/incidents/" + file);
    for (const Tuning& tuning : kTunings) {
      SCOPED_TRACE(std::string(file) + ": " + tuning.what);
      ReplayCache cache;
      (void)simulate(inc, inc.deployed, cache);
      Config tuned = inc.deployed;
      tuning.apply(tuned);
      const std::uint64_t hits = cache.hits();
      const Result cached = simulate(inc, tuned, cache);
      reused += cache.hits() - hits;
      test::expectSameRun(simulate(inc, tuned), cached, "resumed from the lead-in");
    }
  }
  // All but the teaching incident, whose lead-in already times calls out (8 of 10).
  EXPECT_GE(reused, 8u);
}

}  // namespace
}  // namespace breakerlab
