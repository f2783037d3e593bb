// Postmortem documents into incidents: the four source documents as they are written, what the
// import recognises in words, the report's lines, calibration, and the YAML round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <ostream>
#include <set>
#include <string>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/calibrate.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/state_table.h"
#include "import/incident_id.h"
#include "import/markdown_blocks.h"
#include "import/phrases.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using data_detail::recognisePhrases;
using test::readResource;
using test::resourcePath;
using K = ImportFinding::Kind;

constexpr const char* k0908 = "postmortems/inc-2026-0908-pricing-postmortem.md";
constexpr const char* k0814 = "postmortems/inc-2026-0814-orders-postmortem.md";
constexpr const char* kRetry = "postmortems/payment-retry-amplification-postmortem.txt";
constexpr const char* kTimeout = "postmortems/payment-timeout-postmortem.txt";

ImportedIncident importResource(const char* name, const ImportOptions& options = {}) {
  return openIncidentFile(resourcePath(name), options);
}

const ImportFinding* finding(const ImportReport& r, K kind, std::string_view what) {
  for (const ImportFinding& f : r.findings)
    if (f.kind == kind && f.what == what) return &f;
  return nullptr;
}

std::string lineOf(const std::string& text, int line) {
  std::size_t pos = 0;
  for (int i = 1; i < line && pos != std::string::npos; ++i) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos) return {};
  return text.substr(pos, text.find('\n', pos) - pos);
}

// --- what a clause states ---------------------------------------------------------------------

struct PhraseCase {
  const char* clause;
  const char* context;
  const char* key;
  const char* value;  // nullptr: the key must not be recognised
};

// The case as its test's name shows it (ctest lists the value, not the index): the clause and
// its context, not the struct's bytes.
void PrintTo(const PhraseCase& c, std::ostream* out) {
  *out << '"' << c.clause << '"';
  if (*c.context != '\0') *out << " under " << c.context;
}

class Phrases : public ::testing::TestWithParam<PhraseCase> {};

TEST_P(Phrases, ReadAsTheSettingTheySay) {
  const PhraseCase& c = GetParam();
  const auto hints = recognisePhrases(c.clause, c.context);
  const auto it =
      std::find_if(hints.begin(), hints.end(), [&](const auto& h) { return h.key == c.key; });
  if (c.value == nullptr) {
    EXPECT_EQ(it, hints.end()) << c.clause << " read as " << c.key << "=" << it->value;
  } else {
    ASSERT_NE(it, hints.end()) << c.clause << ": no " << c.key;
    EXPECT_EQ(it->value, c.value) << c.clause;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Postmortems, Phrases,
    ::testing::Values(
        PhraseCase{"750 ms per call, no retries while the breaker is closed", "Call timeout",
                   "timeout.attempt", "750ms"},
        PhraseCase{"get price (sync, 5 s timeout)", "", "timeout.attempt", "5s"},
        PhraseCase{"Sliding window of the last 30 calls", "", "breaker.window.size", "30"},
        PhraseCase{"40% of the window failed", "Trip threshold", "breaker.failure_rate", "40%"},
        PhraseCase{"Fixed 25 s", "Open interval", "breaker.open.interval", "25s"},
        PhraseCase{"4 calls pass through", "Half-open", "breaker.half_open.probes", "4"},
        // A spec row "Half-open probes: 2 calls, 750 ms apart", split into its clauses.
        PhraseCase{"2 calls", "Half-open probes", "breaker.half_open.probes", "2"},
        PhraseCase{"750 ms apart", "Half-open probes", "breaker.half_open.spacing", "750ms"},
        PhraseCase{"one every 250 ms", "Probes", "breaker.half_open.spacing", "250ms"},
        PhraseCase{"spaced 1 s", "Half-open trial calls", "breaker.half_open.spacing", "1s"},
        PhraseCase{"Price cache, TTL 90 s", "", "fallback.cache.ttl", "90s"},
        PhraseCase{"retry ×2, no backoff", "", "retry.max_attempts", "3"},
        PhraseCase{"retry ×2, no backoff", "", "retry.backoff.kind", "none"},
        PhraseCase{"3 retries with no backoff and no jitter", "", "retry.jitter", "none"},
        PhraseCase{"Checkout traffic was about 55 requests per second", "", "traffic.rps", "55"},
        PhraseCase{"No circuit breaker between Orders and Pricing", "", "breaker.enabled", "false"},
        PhraseCase{"18.6% of purchase attempts failed", "", "expect:failed_pct", "18.6"},
        PhraseCase{"Failed checkouts are counted once per session", "",
                   "count_unit:failed_checkouts", "session"},
        PhraseCase{"Probe within 3 s of health green", "", "breaker.open.early_probe.poll", "3s"},
        // Observations are not settings: a failure rate that climbs is not a breaker's threshold,
        // and a pod that opens connections is not a breaker opening.
        PhraseCase{"Each opens connections against the same ceiling; the failure rate climbs "
                   "from 28% to 41%",
                   "", "breaker.failure_rate", nullptr},
        PhraseCase{"Pricing p95 crosses 2 s", "", "timeout.attempt", nullptr}));

// --- the source documents -----------------------------------------------------------------------

// A document's first paragraph as the summary: whole sentences within the limit, never a word
// cut ("stayed ope...", issue #33).
TEST(PostmortemImport, TheSummaryEndsAtASentenceOrAWordNeverInsideOne) {
  struct Case {
    std::string text;
    std::size_t limit;
    std::string summary;
  };
  const Case cases[] = {
      {"Short enough.", 40, "Short enough."},
      {"The breaker opened. It stayed open for 48 s. Checkout fell back.", 40,
       "The breaker opened."},
      {"The breaker opened. It stayed open for 48 s. Checkout fell back.", 48,
       "The breaker opened. It stayed open for 48 s."},
      {"The breaker opened and stayed open while Pricing recovered", 30,
       "The breaker opened and..."},
      {"  \"Quoted, with spaces.\"  ", 40, "Quoted, with spaces."},
      {"Averyveryveryverylongword without a space early", 12, "Averyvery..."},
  };
  for (const Case& c : cases)
    EXPECT_EQ(data_detail::summaryOf(c.text, c.limit), c.summary) << c.text;
}

TEST(PostmortemImport, BundledCopiesAreTheSourceDocumentsByteForByte) {
  // "Opened directly": the test data are the documents as they were written.
  const std::filesystem::path seeds = std::filesystem::path(BREAKERLAB_RESOURCES) / ".." / ".." /
                                      "shared" / "seeds" / "000_920d58d691c27eb2.txt";
  if (!std::filesystem::exists(seeds)) GTEST_SKIP() << "no seeds next to the checkout";
  EXPECT_EQ(readResource(k0908), readTextFile(seeds));
}

TEST(PostmortemImport, Pricing0908ReplaysItsRecordedBreakerLaneAndCacheHits) {
  const ImportedIncident imported = importResource(k0908);
  EXPECT_EQ(imported.source, IncidentSource::postmortem_markdown);
  const Incident& inc = imported.incident;
  EXPECT_EQ(inc.id, "INC-2026-0908");
  EXPECT_EQ(inc.dependency.name, "Pricing");
  // "t=0 is 14:02:00", without a year: the time of day for the time axis (issue #33), no date.
  EXPECT_EQ(inc.clock_of_day, (14 * 3600 + 2 * 60) * kSecond);
  EXPECT_FALSE(inc.clock_start.has_value());
  const Result r = simulate(inc, inc.deployed);
  const Lane* recorded = inc.recorded.lane("breaker");
  ASSERT_NE(recorded, nullptr);
  const LaneDistance d = laneDistance(*recorded, r.breaker);
  EXPECT_TRUE(d.states_match);
  EXPECT_LE(d.worst, 500 * kMillisecond);
  // The document: "Cache hits while open: 1,760 of 1,760 checkouts", "No checkout failed".
  EXPECT_NEAR(static_cast<double>(r.metrics.cached_window_checkouts), 1760.0, 17.6);
  EXPECT_EQ(r.metrics.failed_checkouts, 0u);
  // Every number the document states holds in the replay.
  ASSERT_GE(inc.expect.size(), 5u);
  for (const ExpectationResult& e : evaluate(inc.expect, inc, r))
    EXPECT_TRUE(e.passed) << e.expectation->text << ": " << e.actual;
}

TEST(PostmortemImport, Pricing0908ReportNamesTheLineEachSettingCameFrom) {
  const std::string text = readResource(k0908);
  const ImportedIncident imported = importResource(k0908);
  const Config& c = imported.incident.deployed;
  const struct {
    const char* key;
    const char* words;  // on the line the report names
  } cases[] = {{"timeout.attempt", "800 ms"},           {"breaker.window.size", "last 20 calls"},
               {"breaker.failure_rate", "50%"},         {"breaker.open.interval", "20 s"},
               {"breaker.half_open.probes", "3 calls"}, {"fallback.cache.ttl", "TTL 60 s"},
               {"traffic", "40 requests per second"}};
  for (const auto& k : cases) {
    const ImportFinding* f = finding(imported.report, K::recognised, k.key);
    ASSERT_NE(f, nullptr) << k.key;
    ASSERT_GT(f->line, 0) << k.key;
    EXPECT_NE(lineOf(text, f->line).find(k.words), std::string::npos)
        << k.key << " from line " << f->line << ": " << lineOf(text, f->line);
  }
  EXPECT_EQ(c.timeout.attempt, 800 * kMillisecond);
  EXPECT_EQ(c.breaker.window_type, WindowType::count);
  EXPECT_EQ(c.breaker.window_size, 20u);
  EXPECT_DOUBLE_EQ(c.breaker.failure_rate_pct, 50.0);
  EXPECT_EQ(c.breaker.probes, 3u);
  EXPECT_EQ(c.breaker.close_when, CloseRule::all_succeed);
  EXPECT_TRUE(c.cache.enabled);
  EXPECT_EQ(c.cache.ttl, 60 * kSecond);
  // What the document does not say is said to be assumed or missing, not silently filled in.
  EXPECT_NE(finding(imported.report, K::missing, "traffic.keys"), nullptr);
  EXPECT_NE(finding(imported.report, K::calibrated, "fit"), nullptr);
  // The fit follows the breaker lane; the report also says how far the fitted replay's checkout
  // lane is from the one the document records (issue 33, item 9), edge by recorded edge.
  if (const Lane* recorded = imported.incident.recorded.lane("checkout")) {
    const ImportFinding* lane = finding(imported.report, K::calibrated, "checkout lane");
    ASSERT_NE(lane, nullptr);
    const LaneAgreement a = laneAgreement(*recorded, simulate(imported.incident, c).checkout);
    EXPECT_NE(lane->detail.find(a.summary()), std::string::npos) << lane->detail;
    EXPECT_EQ(a.edges.size() + 1, recorded->intervals.size());
  }
  // The remediation becomes a what-if: an early probe on health green, within 2 s.
  ASSERT_FALSE(imported.incident.what_ifs.empty());
  const Config& fix = imported.incident.what_ifs.front().config;
  EXPECT_TRUE(fix.breaker.early_probe);
  EXPECT_EQ(fix.breaker.early_probe_poll, 2 * kSecond);
  const Result fixed = simulate(imported.incident, fix);
  EXPECT_LT(fixed.metrics.cached_while_healthy_s, 3.0);
}

TEST(PostmortemImport, WithoutCalibrationTheTimingOutRowIsTakenAsItIs) {
  ImportOptions options;
  options.calibrate = false;
  const ImportedIncident imported = importResource(k0908, options);
  EXPECT_EQ(finding(imported.report, K::calibrated, "fit"), nullptr);
  const ImportFinding* f = nullptr;
  for (const ImportFinding& x : imported.report.findings)
    if (x.kind == K::assumed && x.detail.find("calibration was turned off") != std::string::npos)
      f = &x;
  EXPECT_NE(f, nullptr);
}

// Issue 33, item 5: a spec row "Half-open probes: N calls, S apart" is read as it is written
// (the import once assumed 3 probes 500 ms apart over it), and a spec row the import cannot read
// is listed with its line rather than silently left to an assumption.
TEST(PostmortemImport, AProbeRowWithCountAndSpacingIsReadAndAnUnreadRowIsListed) {
  ImportOptions options;
  options.calibrate = false;
  const std::string probes = test::replaceFirst(
      readResource(k0908), "value: \"3 calls pass through; all 3 must return 200 to close.\"",
      "value: \"2 calls, 750 ms apart\"");
  const ImportedIncident read = importIncident(probes, "probes.md", options);
  EXPECT_EQ(read.incident.deployed.breaker.probes, 2u);
  EXPECT_EQ(read.incident.deployed.breaker.probe_spacing, 750 * kMillisecond);
  const ImportFinding* spacing = finding(read.report, K::recognised, "breaker.half_open.spacing");
  ASSERT_NE(spacing, nullptr);
  EXPECT_NE(lineOf(probes, spacing->line).find("750 ms apart"), std::string::npos);

  const std::string unread = test::replaceFirst(
      readResource(k0908), "value: \"3 calls pass through; all 3 must return 200 to close.\"",
      "value: \"as the platform team decides\"");
  const ImportedIncident listed = importIncident(unread, "unread.md", options);
  const ImportFinding* note = nullptr;
  for (const ImportFinding& f : listed.report.findings)
    if (f.kind == K::note && f.what == "spec row") note = &f;
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->detail.find("Half-open probes: as the platform team decides"), std::string::npos)
      << note->detail;
  EXPECT_NE(lineOf(unread, note->line).find("as the platform team decides"), std::string::npos);
}

TEST(PostmortemImport, CalibrationAboveItsWorkLimitIsSkippedAndSaysHowMuchItWouldBe) {
  // 8 Sep: 187 replays of 4,800 simulated requests (897,600). A limit just below skips it.
  ImportOptions options;
  options.max_calibration_requests = 8e5;
  bool progressed = false;
  options.progress = [&](double) { return progressed = true; };
  const ImportedIncident imported = importResource(k0908, options);
  EXPECT_FALSE(progressed);
  EXPECT_EQ(finding(imported.report, K::calibrated, "fit"), nullptr);
  bool said = false;
  for (const ImportFinding& x : imported.report.findings)
    said = said ||
           (x.kind == K::assumed &&
            x.detail.find("calibration was skipped, its 187 replays of 4800 simulated "
                          "requests each would be above the limit of 800000") != std::string::npos);
  EXPECT_TRUE(said);
  options.max_calibration_requests = 9e5;
  EXPECT_NE(finding(importResource(k0908, options).report, K::calibrated, "fit"), nullptr);
}

TEST(PostmortemImport, StoppingCalibrationKeepsTheBestSoFarAndSaysSo) {
  ImportOptions options;
  int calls = 0;
  options.progress = [&](double done) {
    EXPECT_GE(done, 0.0);
    EXPECT_LE(done, 1.0);
    return ++calls < 5;
  };
  const ImportedIncident imported = importResource(k0908, options);
  EXPECT_EQ(calls, 5);
  const ImportFinding* fit = finding(imported.report, K::calibrated, "fit");
  ASSERT_NE(fit, nullptr);
  EXPECT_NE(fit->detail.find("stopped before the search ended"), std::string::npos) << fit->detail;
}

TEST(PostmortemImport, AnEditedStateTableChangesWhatAStateDoes) {
  // A team whose "timing out" means refused at once: the replay trips earlier than with hangs.
  StateTable table = StateTable::defaults();
  for (StateBehaviour& row : table.rows)
    if (row.name == "timing out") {
      row.outcomes = {};
      row.outcomes.refused = 1;
      row.fitted = StateBehaviour::Fitted::none;
    }
  ImportOptions options;
  options.states = parseStateTable(stateTableToYaml(table), "table.yaml");
  const Incident edited = importResource(k0908, options).incident;
  const Incident normal = importResource(k0908).incident;
  const Result a = simulate(edited, edited.deployed);
  const Result b = simulate(normal, normal.deployed);
  EXPECT_LT(*a.metrics.time_to_trip_s, *b.metrics.time_to_trip_s);
}

TEST(PostmortemImport, StateTableErrorsNameTheirPosition) {
  const auto error = test::loadErrorOf([] {
    parseStateTable("format: breakerlab-states/1\nstates:\n  - state: slow\n    health: amber\n",
                    "t.yaml");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line(), 4);
  EXPECT_NE(error->message().find("green"), std::string::npos) << error->message();
}

TEST(PostmortemImport, Orders0814ImportsTimelineConfigAndAmplificationAndSaysWhatItLacks) {
  const ImportedIncident imported = importResource(k0814);
  const Incident& inc = imported.incident;
  const Config& c = inc.deployed;
  // 09:41 to 10:28: the timeline's first and last clock times.
  EXPECT_EQ(inc.end - inc.start, 47 * 60 * kSecond);
  EXPECT_EQ(c.timeout.attempt, 5 * kSecond);
  EXPECT_EQ(c.retry.max_attempts, 4u);
  EXPECT_EQ(c.retry.backoff, BackoffKind::none);
  EXPECT_EQ(c.load_balancer.pods, 8u);
  EXPECT_TRUE(c.load_balancer.health_check.enabled);
  EXPECT_EQ(c.load_balancer.health_check.pool, HealthCheckPool::shared);
  EXPECT_FALSE(c.breaker.enabled);
  EXPECT_FALSE(c.cache.enabled);
  EXPECT_NE(finding(imported.report, K::recognised, "amplification"), nullptr);
  // The Pricing pool of 20 per pod is the dependency's, not the client's.
  EXPECT_EQ(inc.dependency.capacity.concurrency, 20u);
  EXPECT_EQ(c.pool.size, Config{}.pool.size);
  // Pricing is slow from 09:46 and healthy again after the flag went to 0% at 10:14.
  EXPECT_EQ(inc.dependency.segments.at(1).state, "slow");
  EXPECT_EQ(inc.dependency.segments.at(1).from, 5 * 60 * kSecond);
  EXPECT_EQ(inc.dependency.segments.at(2).state, "healthy");
  EXPECT_EQ(inc.dependency.segments.at(2).from, 33 * 60 * kSecond);
  // What it lacks.
  EXPECT_NE(finding(imported.report, K::missing, "traffic"), nullptr);
  EXPECT_NE(finding(imported.report, K::missing, "dependency segments"), nullptr);
  EXPECT_NE(finding(imported.report, K::missing, "dependency pods"), nullptr);
  // 6,130 failed sessions are not failed checkout requests: a note, not an expectation.
  EXPECT_NE(finding(imported.report, K::note, "failed checkouts"), nullptr);
  for (const Expectation& e : inc.expect) EXPECT_EQ(e.text.find("6130"), std::string::npos);
  // The remediation steps are what-ifs with the settings they name.
  const WhatIf* step2 = inc.whatIf("step-2");
  ASSERT_NE(step2, nullptr);
  EXPECT_TRUE(step2->config.breaker.enabled);
  EXPECT_EQ(step2->config.retry.backoff, BackoffKind::exponential);
  EXPECT_EQ(step2->config.retry.base, 200 * kMillisecond);
  // The replay shows the outage: most checkouts fail while Pricing is slow.
  const Result r = simulate(inc, c);
  EXPECT_GT(r.metrics.failed_pct, 30.0);
}

TEST(PostmortemImport, RetryAmplificationTextDerivesTheRateFromItsCounts) {
  const ImportedIncident imported = importResource(kRetry);
  EXPECT_EQ(imported.source, IncidentSource::postmortem_text);
  const Incident& inc = imported.incident;
  // 09:46-10:17, "1,284" failed attempts that were "18.6% of purchase attempts": 3.71 a second.
  EXPECT_EQ(inc.end - inc.start, 31 * 60 * kSecond);
  ASSERT_EQ(inc.traffic.rate.size(), 1u);
  EXPECT_NEAR(inc.traffic.rate[0].rps_from, 1284 / 0.186 / 1860, 0.01);
  EXPECT_EQ(inc.deployed.retry.max_attempts, 4u);
  EXPECT_EQ(inc.dependency.name, "Provider");
  EXPECT_EQ(inc.dependency.segments.front().state, "slow");
}

TEST(PostmortemImport, TimeoutTextReadsTheTimeoutChangeAndThePods) {
  const ImportedIncident imported = importResource(kTimeout);
  const Incident& inc = imported.incident;
  EXPECT_EQ(inc.deployed.timeout.attempt, 30 * kSecond);
  EXPECT_EQ(inc.deployed.load_balancer.pods, 12u);
  EXPECT_FALSE(inc.deployed.breaker.enabled);
  const WhatIf* before = inc.whatIf("as-before");
  ASSERT_NE(before, nullptr);
  EXPECT_EQ(before->config.timeout.attempt, 2 * kSecond);
  // "scales pods from 12 to 40" is an operator action, and "Scaling up" is not a recovery.
  for (const DependencySegment& s : inc.dependency.segments) EXPECT_NE(s.state, "healthy");
}

TEST(PostmortemImport, AStepsCodeTooDeepForYamlKeepsItsProseHints) {
  // The code of a step is YAML inside YAML: 10,000 brackets would overflow yaml-cpp's stack.
  const std::string doc =
      "```steps\nitems:\n  - title: Add a circuit breaker to the client\n"
      "    code: \"" +
      std::string(10000, '[') +
      "\"\n```\n"
      "```timeline\nitems:\n  - \"[done] 09:41 · Deploy\"\n"
      "  - \"[done] 09:50 · Pricing p95 crosses 2 s\"\n```\n";
  const ImportedIncident imported = importIncident(doc, "deep.md");
  ASSERT_FALSE(imported.incident.what_ifs.empty());
  EXPECT_TRUE(imported.incident.what_ifs.front().config.breaker.enabled);
}

// --- the incident's id -------------------------------------------------------------------------

// A document's lines as the readers give them to statedIncidentId.
std::vector<data_detail::DocumentLine> documentLines(std::string_view text) {
  std::vector<data_detail::DocumentLine> out;
  int number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t nl = text.find('\n', at);
    out.push_back({text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at),
                   ++number});
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return out;
}

// Each way a postmortem states its id (issue #33: seed 004's definition list, "- Incident" then
// "- INC-SYNTHETIC-...", was read as no id and its id taken for the title).
TEST(PostmortemImport, TheIncidentIdIsReadInEachPhrasingDocumentsUse) {
  struct Case {
    const char* text;
    const char* id;  // nullptr: no id
    int line;
  };
  const Case cases[] = {
      {"- Incident\n- INC-SYNTHETIC-OPERATIONS-REGION-REVIEW-EXTENDED-IDENTIFIER\n- Status\n",
       "INC-SYNTHETIC-OPERATIONS-REGION-REVIEW-EXTENDED-IDENTIFIER", 2},
      {"Incident\n\nINC-2026-0912\n", "INC-2026-0912", 3},
      {"Incident: INC-2026-0912\n", "INC-2026-0912", 1},
      {"Title\n**Incident ID:** INC-2026-0912 (SEV-1)\n", "INC-2026-0912", 2},
      {"Incident number: 4211\n", "4211", 1},
      {"| Incident | INC-2026-0912 |\n|---|---|\n", "INC-2026-0912", 1},
      {"| **Incident ID** | `PAY-311` |\n", "PAY-311", 1},
      {"Incident INC-2026-0912\n", "INC-2026-0912", 1},
      {"* Incident #4211\n", "4211", 1},
      {"\xE2\x80\xA2 Incident: INC-7\n", "INC-7", 1},
      {"ID: INC-2026-0814\n", "INC-2026-0814", 1},
      // Not an id: a word, a sentence, a time, another label's value, an id far down.
      {"- Incident\n- Resolved\n", nullptr, 0},
      {"Incident\nThe provider slowed down at 09:14\n", nullptr, 0},
      {"Incident: Pricing failover\n", nullptr, 0},
      {"Incident: 09:14 UTC\n", nullptr, 0},
      {"| 09:51 | On-call confirms | Incident declared SEV-2 |\n", nullptr, 0},
      {"| Incident window | 09:46-10:17 UTC |\n", nullptr, 0},
      {"Incident declared SEV-2\n", nullptr, 0},
      {"Incident: "
       "INC-2026-0912-AN-ID-FAR-LONGER-THAN-ANY-REAL-ONE-AND-LONGER-THAN-EIGHTY-CHARACTERS-IN-"
       "ALL\n",
       nullptr, 0},
  };
  for (const Case& c : cases) {
    const auto stated = data_detail::statedIncidentId(documentLines(c.text));
    if (c.id == nullptr) {
      EXPECT_FALSE(stated) << c.text << " read as " << stated->id;
      continue;
    }
    ASSERT_TRUE(stated) << c.text;
    EXPECT_EQ(stated->id, c.id) << c.text;
    EXPECT_EQ(stated->line, c.line) << c.text;
  }
  std::string far(static_cast<std::size_t>(data_detail::kIncidentIdHeaderLines), '\n');
  EXPECT_FALSE(data_detail::statedIncidentId(documentLines(far + "Incident: INC-1\n")));
}

TEST(PostmortemImport, TimeoutTextReadsItsIdFromItsHeaderAndItsTitleAfterIt) {
  const ImportedIncident imported = importResource(kTimeout);
  EXPECT_EQ(imported.incident.id, "INC-SYNTHETIC-OPERATIONS-REGION-REVIEW-EXTENDED-IDENTIFIER");
  const ImportFinding* id = finding(imported.report, K::recognised, "id");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->line, 2);
  // The header's labels and values ("Authors", "D. Kaur, R. Idowu") are not the title; the line
  // after them is, whole.
  EXPECT_EQ(imported.incident.title.rfind("Synthetic extended title for an unusually complex", 0),
            0u)
      << imported.incident.title;
  EXPECT_NE(imported.incident.title.find("without any ellipsis"), std::string::npos)
      << imported.incident.title;
}

// --- a document that is not an incident says what it is ------------------------------------------

// A lesson whose breaker is a Go file (seed 003), and the Go file itself, are not incidents: the
// error says what the file looks like, what the importer needs, and where the file goes instead,
// at the line that told it (issue #33).
TEST(PostmortemImport, ALessonWithGobreakerCodeSaysWhatItIsAndWhereItGoes) {
  const std::string lesson =
      "Circuit breakers\n\nRetries fix a blip. A breaker remembers.\n\n"
      "go get github.com/sony/gobreaker/v2\n\npackage resilience\n\n"
      "  cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{\n    MaxRequests: 1,\n";
  const auto error = test::loadErrorOf([&] { importIncident(lesson, "lesson.txt"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->line(), 9);
  EXPECT_EQ(error->column(), 42);  // gobreaker.Settings
  for (const char* says :
       {"write-up about a sony/gobreaker breaker", "no timeline", "```timing/```spec",
        "UTC timeline", "save its Go code as a .go file", "resources/configs/lesson-gobreaker.go",
        "File > Load Config", "--policy"})
    EXPECT_NE(error->message().find(says), std::string::npos) << says << ": " << error->message();

  const auto go =
      test::loadErrorOf([] { openIncidentFile(resourcePath("configs/lesson-gobreaker.go")); });
  ASSERT_TRUE(go);
  EXPECT_EQ(go->line(), 24);  // gobreaker.Settings{
  EXPECT_NE(go->message().find("a Go file with a sony/gobreaker breaker"), std::string::npos)
      << go->message();
  EXPECT_NE(go->message().find("File > Load Config"), std::string::npos) << go->message();
  EXPECT_NE(std::string(go->what()).find("lesson-gobreaker.go:24:"), std::string::npos)
      << go->what();

  // Anything else still lists what BreakerLab opens.
  const auto other = test::loadErrorOf([] { importIncident("just some words\n", "notes.txt"); });
  ASSERT_TRUE(other);
  EXPECT_NE(other->message().find("expected a breakerlab/1 incident"), std::string::npos);
}

TEST(PostmortemImport, TheLessonSeedItselfIsToldForWhatItIs) {
  const std::filesystem::path seed = std::filesystem::path(BREAKERLAB_RESOURCES) / ".." / ".." /
                                     "shared" / "seeds" / "003_f9f9432bd068fb12.txt";
  if (!std::filesystem::exists(seed)) GTEST_SKIP() << "no seeds next to the checkout";
  const auto error = test::loadErrorOf([&] { openIncidentFile(seed); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("write-up about a sony/gobreaker breaker"), std::string::npos)
      << error->message();
  EXPECT_GT(error->line(), 0);
}

// --- what the format is ----------------------------------------------------------------------

TEST(PostmortemImport, TheContentDecidesTheFormat) {
  EXPECT_EQ(detectIncidentSource(readResource(k0908), "x.txt"),
            IncidentSource::postmortem_markdown);
  EXPECT_EQ(detectIncidentSource(readResource(kRetry), "x.md"), IncidentSource::postmortem_text);
  EXPECT_EQ(detectIncidentSource(test::pricingText(), "x.txt"), IncidentSource::incident);
  EXPECT_EQ(detectIncidentSource("format: breakerlab-config/1\n", "x.yaml"),
            IncidentSource::config);
  const auto error = test::loadErrorOf([] { importIncident("just some words\n", "notes.txt"); });
  ASSERT_TRUE(error);
  EXPECT_NE(error->message().find("not a document BreakerLab can open"), std::string::npos);
  const auto config = test::loadErrorOf(
      [] { importIncident("format: breakerlab-config/1\nbreaker: {enabled: false}\n", "c.yaml"); });
  ASSERT_TRUE(config);
  EXPECT_NE(config->message().find("Load Config"), std::string::npos);
}

// --- the YAML the import writes reads back as the same incident --------------------------------

class RoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(RoundTrip, WritesYamlThatReplaysBitIdentically) {
  const std::string name = GetParam();
  const Incident original = name.rfind("postmortems/", 0) == 0
                                ? importResource(name.c_str()).incident
                                : parseIncident(readResource(name), name);
  const std::string yaml = incidentToYaml(original, {"a header line"});
  EXPECT_EQ(yaml.rfind("# a header line\n", 0), 0u);
  const Incident back = parseIncident(yaml, "roundtrip.yaml");
  EXPECT_EQ(incidentToYaml(back, {"a header line"}), yaml);
  EXPECT_EQ(back.deployed, original.deployed);
  ASSERT_EQ(back.what_ifs.size(), original.what_ifs.size());
  for (std::size_t i = 0; i < back.what_ifs.size(); ++i)
    EXPECT_EQ(back.what_ifs[i].config, original.what_ifs[i].config) << back.what_ifs[i].name;
  const Result a = simulate(original, original.deployed);
  const Result b = simulate(back, back.deployed);
  EXPECT_EQ(a.metrics.failed_checkouts, b.metrics.failed_checkouts);
  EXPECT_EQ(a.metrics.cached_checkouts, b.metrics.cached_checkouts);
  EXPECT_EQ(a.metrics.checkouts, b.metrics.checkouts);
  EXPECT_EQ(a.simulated_requests, b.simulated_requests);
  EXPECT_EQ(a.breaker, b.breaker);
  EXPECT_EQ(a.checkout, b.checkout);
}

INSTANTIATE_TEST_SUITE_P(Incidents, RoundTrip,
                         ::testing::Values("incidents/inc-2026-0908-pricing.yaml",
                                           "incidents/inc-2026-0814-orders.yaml",
                                           "incidents/inc-2026-0912-payment-timeout.yaml",
                                           "incidents/inc-payment-retry-amplification.yaml", k0908,
                                           k0814, kRetry, kTimeout));

}  // namespace
}  // namespace breakerlab

namespace breakerlab {
namespace {

// Each source has a stable key (what a workspace stores) and a display name, one row each: the
// key reads back as its source, and no two sources share either name.
TEST(IncidentSourceNames, EachKeyReadsBackAndNoNameIsShared) {
  const IncidentSource sources[] = {IncidentSource::incident,
                                    IncidentSource::config,
                                    IncidentSource::postmortem_markdown,
                                    IncidentSource::postmortem_text,
                                    IncidentSource::request_log_csv,
                                    IncidentSource::request_log_jsonl,
                                    IncidentSource::prometheus_range,
                                    IncidentSource::otlp_traces,
                                    IncidentSource::unknown};
  std::set<std::string_view> keys, names;
  for (const IncidentSource s : sources) {
    EXPECT_EQ(incidentSourceFromKey(sourceKey(s)), s) << sourceKey(s);
    EXPECT_TRUE(keys.insert(sourceKey(s)).second) << sourceKey(s);
    EXPECT_TRUE(names.insert(toString(s)).second) << toString(s);
  }
  // Stored in workspaces: these keys never change (docs/workspace.md).
  EXPECT_EQ(sourceKey(IncidentSource::postmortem_markdown), "postmortem_markdown");
  EXPECT_EQ(sourceKey(IncidentSource::otlp_traces), "otlp_traces");
  EXPECT_EQ(incidentSourceFromKey("no_such_source"), std::nullopt);
}

}  // namespace
}  // namespace breakerlab
