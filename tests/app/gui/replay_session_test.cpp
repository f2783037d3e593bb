// The session's guards on big incidents: the work estimate before the first replay, Stop during
// it, and a slider's stale replays superseded on the worker.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "replay_session.h"
#include "test_incident.h"

namespace breakerlab::app {
namespace {

QString writeIncident(const QTemporaryDir& dir, const Incident& incident, const char* name) {
  const QString path = dir.filePath(QString::fromLatin1(name));
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(QByteArray::fromStdString(incidentToYaml(incident)));
  return path;
}

// 8 Sep at `rps` checkouts per second.
Incident at(double rps) {
  Incident incident = test::incident0908();
  for (RatePiece& piece : incident.traffic.rate) piece.rps_from = piece.rps_to = rps;
  return incident;
}

TEST(ReplaySession, AnIncidentAboveTheWorkLimitIsRefusedNamingTheKeysAndTheOpenOneStays) {
  QTemporaryDir dir;
  ReplaySession session;
  ASSERT_TRUE(session.load(QString::fromStdString(test::incidentPath()), nullptr));
  const Result before = session.result();
  const QString big = writeIncident(dir, at(1e8), "big.yaml");

  QString error;
  EXPECT_FALSE(session.load(big, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("above the limit"))) << error.toStdString();
  EXPECT_TRUE(error.contains(QStringLiteral("traffic.rate[0].rps"))) << error.toStdString();
  EXPECT_EQ(session.incident().id, "INC-2026-0908");
  EXPECT_EQ(session.result().breaker, before.breaker);

  // Asked, and declined: the same. The question names which config is the big one.
  ReplaySession::LoadOptions options;
  std::string asked;
  options.allow_large = [&asked](const std::string& problem) {
    asked = problem;
    return false;
  };
  EXPECT_FALSE(session.load(big, &error, options));
  // (the early-probe what-if's polls make it the largest)
  EXPECT_EQ(asked.rfind("what-if 'early-probe': the replay would simulate", 0), 0u) << asked;
  EXPECT_EQ(session.incident().id, "INC-2026-0908");
}

TEST(ReplaySession, StopDuringTheFirstReplayKeepsTheOpenIncident) {
  QTemporaryDir dir;
  ReplaySession session;
  ASSERT_TRUE(session.load(QString::fromStdString(test::incidentPath()), nullptr));
  const Result before = session.result();
  // Within the default limit, but a few million requests: long enough for progress calls.
  const QString big = writeIncident(dir, at(2e4), "long.yaml");

  ReplaySession::LoadOptions options;
  int calls = 0;
  double last_done = -1;
  bool increasing = true;
  options.progress = [&](const ReplayProgress& p) {
    increasing = increasing && p.done >= last_done;
    last_done = p.done;
    return ++calls < 3;  // the user presses Stop at the third report
  };
  QString error;
  EXPECT_FALSE(session.load(big, &error, options));
  EXPECT_EQ(calls, 3);
  EXPECT_TRUE(increasing);
  EXPECT_TRUE(error.endsWith(QStringLiteral("replay cancelled"))) << error.toStdString();
  EXPECT_EQ(session.incident().id, "INC-2026-0908");
  EXPECT_EQ(session.result().breaker, before.breaker);
  // And the cache of the open incident still serves its next replay.
  Config tuned = session.config();
  tuned.breaker.open_interval = 10 * kSecond;
  session.setConfig(tuned);
  EXPECT_EQ(session.result().breaker, simulate(session.incident(), tuned).breaker);
}

TEST(ReplaySession, ADragOnABigIncidentEndsOnTheLastConfigsResultAndSkipsStaleReplays) {
  QTemporaryDir dir;
  ReplaySession session;
  // Above the synchronous limit: every knob change replays on the worker.
  const Incident incident = at(5000);
  ASSERT_TRUE(session.load(writeIncident(dir, incident, "worker.yaml"), nullptr));
  ASSERT_GT(session.baseline().simulated_requests, ReplaySession::kSynchronousRequests);
  int results = 0;
  QObject::connect(&session, &ReplaySession::resultChanged, [&session, &results] {
    if (!session.partialUntil()) ++results;  // previews answer every step at once
  });

  Config config = session.config();
  constexpr int kSteps = 20;
  for (int i = 1; i <= kSteps; ++i) {
    config.breaker.open_interval = i * kSecond;
    session.setConfig(config);
  }
  QElapsedTimer clock;
  clock.start();
  while ((session.busy() || results == 0) && clock.elapsed() < 60'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  ASSERT_FALSE(session.busy());
  // The first replay is superseded at once and the 18 in between never start: at most two
  // results (the first, if it finished before the next arrived, and the last) are shown.
  EXPECT_GE(results, 1);
  EXPECT_LE(results, 2);
  EXPECT_EQ(session.result().breaker, simulate(session.incident(), config).breaker);
}

// 8 Sep at 2,000 checkouts a second over four minutes (Pricing stays as it ends) with a
// 1-second lead-in: a worker replay with room for a preview of its first 14 seconds, where the
// breaker trips.
Incident previewed() {
  Incident incident = at(2000);
  incident.traffic.lead_in = kSecond;
  incident.end = 240 * kSecond;
  incident.traffic.rate.back().to = incident.end;
  incident.dependency.segments.back().to = incident.end;
  return incident;
}

TEST(ReplaySession, AKnobChangeOnABigIncidentAnswersAtOnceWithTheExactBeginningOfTheWindow) {
  QTemporaryDir dir;
  ReplaySession session;
  ASSERT_TRUE(session.load(writeIncident(dir, previewed(), "preview.yaml"), nullptr));
  EXPECT_TRUE(session.resultIsCurrent()) << "the deployed config's whole replay";
  std::vector<std::optional<Micros>> answers;
  QObject::connect(&session, &ReplaySession::resultChanged,
                   [&] { answers.push_back(session.partialUntil()); });
  Config tuned = session.config();
  tuned.breaker.open_interval = 5 * kSecond;
  session.setConfig(tuned);
  // Answered before setConfig returns, while the worker replays the whole window.
  ASSERT_EQ(answers.size(), 1u);
  ASSERT_TRUE(answers[0].has_value());
  EXPECT_TRUE(session.busy());
  EXPECT_FALSE(session.resultIsCurrent()) << "a preview is not the whole replay";
  const Micros until = *session.partialUntil();
  EXPECT_GT(until, session.incident().start);
  EXPECT_LT(until, session.incident().end);
  const Result preview = session.result();

  QElapsedTimer clock;
  clock.start();
  while (session.busy() && clock.elapsed() < 60'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  ASSERT_FALSE(session.busy());
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_FALSE(answers[1].has_value());
  EXPECT_TRUE(session.resultIsCurrent());
  const Result whole = simulate(session.incident(), tuned);
  EXPECT_EQ(session.result().metrics.failed_checkouts, whole.metrics.failed_checkouts);
  // The preview is the whole replay's beginning, second by second; it stops before the first
  // request still under way at its cut (which met no later traffic).
  const auto seconds = static_cast<std::size_t>((until - session.incident().start) / kSecond);
  ASSERT_EQ(preview.per_second.checkouts.size(), seconds);
  EXPECT_GE(seconds, 10u);
  ASSERT_FALSE(preview.breaker.intervals.empty());
  EXPECT_EQ(preview.breaker.intervals.front(), whole.breaker.intervals.front());
  for (std::size_t s = 0; s < seconds; ++s) {
    EXPECT_EQ(preview.per_second.checkouts[s], whole.per_second.checkouts[s]) << s;
    EXPECT_EQ(preview.per_second.failed[s], whole.per_second.failed[s]) << s;
    EXPECT_EQ(preview.per_second.cached[s], whole.per_second.cached[s]) << s;
  }
}

// A one-minute lead-in at 8,000 a second is 480,000 requests: the preview has it only from the
// cache, for knobs the lead-in never reads (the open interval of a breaker that stayed closed),
// and gives no preview for those it does (the timeout).
TEST(ReplaySession, APreviewTakesALongLeadInFromTheCacheOrIsNotMade) {
  QTemporaryDir dir;
  ReplaySession session;
  ASSERT_TRUE(session.load(writeIncident(dir, at(8000), "lead-in.yaml"), nullptr));
  const auto settle = [&session] {
    while (session.busy()) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  };
  Config tuned = session.config();
  tuned.breaker.open_interval = 5 * kSecond;
  session.setConfig(tuned);
  EXPECT_TRUE(session.partialUntil().has_value()) << "lead-in from the cache";
  EXPECT_TRUE(session.busy());
  settle();
  tuned.timeout.attempt = 2 * kSecond;  // longer than every call of the healthy lead-in
  session.setConfig(tuned);
  EXPECT_TRUE(session.partialUntil().has_value()) << "no lead-in call came near either timeout";
  settle();
  tuned.breaker.failure_rate_pct = 30;  // the closed breaker's rule, which the lead-in read
  session.setConfig(tuned);
  EXPECT_FALSE(session.partialUntil().has_value()) << "the lead-in would replay";
  EXPECT_TRUE(session.busy());
  settle();
  // Once the whole replay has run that lead-in, the next preview takes it from the cache.
  tuned.breaker.open_interval = 6 * kSecond;
  session.setConfig(tuned);
  EXPECT_TRUE(session.partialUntil().has_value());
  settle();
  EXPECT_EQ(session.result().metrics.failed_checkouts,
            simulate(session.incident(), tuned).metrics.failed_checkouts);
}

}  // namespace
}  // namespace breakerlab::app
