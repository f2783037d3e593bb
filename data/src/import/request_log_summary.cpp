// Request logs: the dependency over time as a change-point summary of the calls (bins merged
// while their failure share and latency stay alike), and the incident a log replays as.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/data/values.h"
#include "request_log_rows.h"

namespace breakerlab {

namespace {

// Latency buckets a quarter of a power of two wide: 1 us to about 70 minutes.
constexpr int kLatencyBuckets = 4 * 33;
int latencyBucket(std::uint32_t us) {
  return std::min(kLatencyBuckets - 1,
                  static_cast<int>(4.0 * std::log2(static_cast<double>(us) + 1.0)));
}
Micros bucketValue(int b) {
  return static_cast<Micros>(std::llround(std::exp2((b + 0.5) / 4.0) - 1.0));
}

// Most bins a summary looks at: a week in 1-second bins would be 604,800, but segments shorter
// than a few hundredths of the log are noise on a lane anyway.
constexpr Micros kMaxBins = 2000;

struct Stats {
  std::uint64_t calls = 0;
  std::uint64_t by_outcome[5] = {};  // success, timeout, refused, server_error, client_error
  std::uint64_t refused_us = 0;
  std::array<std::uint32_t, kLatencyBuckets> latency{};  // of successes and errors answered
  std::uint64_t answered = 0;

  void add(const Stats& o) {
    calls += o.calls;
    for (int i = 0; i < 5; ++i) by_outcome[i] += o.by_outcome[i];
    refused_us += o.refused_us;
    for (int i = 0; i < kLatencyBuckets; ++i) latency[i] += o.latency[i];
    answered += o.answered;
  }
  double share(CallOutcome o) const {
    return calls ? static_cast<double>(by_outcome[static_cast<int>(o)]) / static_cast<double>(calls)
                 : 0.0;
  }
  double failureShare() const {
    return share(CallOutcome::timeout) + share(CallOutcome::refused) +
           share(CallOutcome::server_error);
  }
  Micros quantile(double q) const {
    if (answered == 0) return 0;
    const auto target = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(answered)));
    std::uint64_t seen = 0;
    for (int b = 0; b < kLatencyBuckets; ++b) {
      seen += latency[b];
      if (seen >= std::max<std::uint64_t>(target, 1)) return bucketValue(b);
    }
    return bucketValue(kLatencyBuckets - 1);
  }
};

enum class State : std::uint8_t {
  healthy,
  slow,
  degraded,
  timing_out,
  refused,
  server_errors,
  no_calls
};

std::string_view stateName(State s) {
  switch (s) {
    case State::healthy:
      return "healthy";
    case State::slow:
      return "slow";
    case State::degraded:
      return "degraded";
    case State::timing_out:
      return "timing out";
    case State::refused:
      return "connection refused";
    case State::server_errors:
      return "server errors";
    case State::no_calls:
      return "no calls";
  }
  return "healthy";
}

// What dominates a bin: failures at half or more by their largest class, a share from 5% as
// degraded, a median three times the log's typical one as slow.
State classify(const Stats& s, Micros typical_p50) {
  const double failing = s.failureShare();
  if (failing >= 0.5) {
    const double t = s.share(CallOutcome::timeout), r = s.share(CallOutcome::refused),
                 e = s.share(CallOutcome::server_error);
    if (t >= r && t >= e) return State::timing_out;
    return r >= e ? State::refused : State::server_errors;
  }
  if (failing >= 0.05) return State::degraded;
  if (s.answered > 0 && typical_p50 > 0 && s.quantile(0.5) > 3 * typical_p50) return State::slow;
  return State::healthy;
}

}  // namespace

DependencySummary summarizeDependency(const RecordedCalls& calls, Micros from, Micros to) {
  DependencySummary out;
  const Micros span = std::max<Micros>(to - from, kSecond);
  out.bin =
      std::max<Micros>(kSecond, (span + kMaxBins * kSecond - 1) / (kMaxBins * kSecond) * kSecond);
  const auto bins = static_cast<std::size_t>((span + out.bin - 1) / out.bin);
  std::vector<Stats> stats(bins);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const Micros t = std::clamp(calls.start[i], from, to - 1);
    Stats& s = stats[static_cast<std::size_t>((t - from) / out.bin)];
    const auto o = static_cast<int>(calls.outcome[i]);
    ++s.calls;
    if (o < 5) ++s.by_outcome[o];
    if (calls.outcome[i] == CallOutcome::refused) {
      s.refused_us += calls.duration[i];
    } else if (calls.outcome[i] != CallOutcome::timeout) {
      ++s.latency[static_cast<std::size_t>(latencyBucket(calls.duration[i]))];
      ++s.answered;
    }
  }
  // The typical median: the lower quartile of the medians of the bins that are not failing
  // (a failing bin's fast errors would make every healthy bin look slow; a log that is slow
  // most of the time has no "slow" to tell apart).
  std::vector<Micros> medians;
  for (const Stats& s : stats)
    if (s.answered > 0 && s.failureShare() < 0.05) medians.push_back(s.quantile(0.5));
  Micros typical = 0;
  if (!medians.empty()) {
    std::nth_element(medians.begin(),
                     medians.begin() + static_cast<std::ptrdiff_t>(medians.size() / 4),
                     medians.end());
    typical = medians[medians.size() / 4];
  }
  // A bin without calls says nothing about the dependency (the breaker was open, or there was
  // no traffic): the lane says so instead of guessing.
  std::vector<State> state(bins, State::no_calls);
  for (std::size_t b = 0; b < bins; ++b)
    if (stats[b].calls > 0) state[b] = classify(stats[b], typical);
  // A bin that breaks a run of one state alone is noise (one odd second).
  for (std::size_t b = 1; b + 1 < bins; ++b)
    if (state[b] != state[b - 1] && state[b - 1] == state[b + 1] && state[b] != State::no_calls)
      state[b] = state[b - 1];

  std::size_t begin = 0;
  while (begin < bins) {
    std::size_t end = begin + 1;
    while (end < bins && state[end] == state[begin]) ++end;
    Stats total;
    for (std::size_t b = begin; b < end; ++b) total.add(stats[b]);
    DependencySegment seg;
    seg.state = std::string(stateName(state[begin]));
    seg.from = from + static_cast<Micros>(begin) * out.bin;
    seg.to = end == bins ? to : from + static_cast<Micros>(end) * out.bin;
    seg.health = state[begin] == State::healthy ? Health::green : Health::red;
    if (state[begin] == State::no_calls) {
      // Nothing to go by: the health and behaviour last seen (green at the start).
      if (!out.segments.empty()) {
        const DependencySegment& last = out.segments.back();
        seg.health = last.health;
        seg.mix_start = seg.mix_end = last.mix_end;
        seg.latency_start = seg.latency_end = last.latency_end;
        seg.refused_latency = last.refused_latency;
      } else {
        seg.health = Health::green;
      }
      out.segments.push_back(std::move(seg));
      begin = end;
      continue;
    }
    OutcomeMix mix;
    mix.timeout = total.share(CallOutcome::timeout);
    mix.refused = total.share(CallOutcome::refused);
    mix.server_error = total.share(CallOutcome::server_error);
    mix.client_error = total.share(CallOutcome::client_error);
    const double sum = mix.total();
    if (sum > 1) {  // rounding
      mix.timeout /= sum, mix.refused /= sum, mix.server_error /= sum, mix.client_error /= sum;
    }
    seg.mix_start = seg.mix_end = mix;
    LatencyModel latency;
    if (total.answered > 0) {
      latency.kind = LatencyModel::Kind::lognormal;
      latency.p50 = std::max<Micros>(1, total.quantile(0.5));
      latency.p99 = std::max(latency.p50, total.quantile(0.99));
    }
    seg.latency_start = seg.latency_end = latency;
    const std::uint64_t refused = total.by_outcome[static_cast<int>(CallOutcome::refused)];
    if (refused > 0) seg.refused_latency = static_cast<Micros>(total.refused_us / refused);
    out.segments.push_back(std::move(seg));
    begin = end;
  }
  for (const DependencySegment& s : out.segments) {
    if (!out.health.empty() && out.health.back().health == s.health)
      out.health.back().to = s.to;
    else
      out.health.push_back({s.from, s.to, s.health});
  }
  return out;
}

namespace {

// The pod column: as many client pods as the log names, and each pod's breaker as its rejections
// show it, compared with the replay's pods by a lane check.
void recordedFleet(RequestLog& log, Incident& incident, ImportReport& report) {
  using K = ImportFinding::Kind;
  if (log.pods.empty()) return;
  std::string names;
  for (const std::string& p : log.pods) {
    if (names.size() >= 60) {
      names += ", ...";
      break;
    }
    names += (names.empty() ? "" : ", ") + clipText(p, 40);
  }
  report.add(K::recognised, 0, "pods",
             std::to_string(log.pods.size()) + " in the pod column (" + names +
                 "), sorted by name: recorded pod k stands beside the replay's pod k");
  if (log.rows_without_pod > 0)
    report.add(K::note, 0, "pods",
               std::to_string(log.rows_without_pod) +
                   " lines have no pod: they count for the fleet, not for a pod's lane");
  LoadBalancerConfig& lb = incident.deployed.load_balancer;
  if (lb.pods == 1 && log.pods.size() > 1) {
    lb.pods = static_cast<std::uint32_t>(log.pods.size());
    report.add(K::assumed, 0, "load_balancer.pods",
               std::to_string(log.pods.size()) + ": one client pod per pod in the log");
  } else if (lb.pods != log.pods.size()) {
    report.add(K::note, 0, "load_balancer.pods",
               "the config has " + std::to_string(lb.pods) + " pods, the log " +
                   std::to_string(log.pods.size()) +
                   ": pods pair by position, the rest are not compared");
  }
  if (log.pod_breakers.empty()) {
    report.add(K::note, 0, "pod lanes",
               "no request was rejected by a breaker (rejected, short_circuited, "
               "call_not_permitted...): the log cannot tell a closed breaker from one it does not "
               "record, so no pod's breaker lane is drawn");
    return;
  }
  std::size_t trips = 0;
  for (const Lane& lane : log.pod_breakers)
    for (std::size_t i = 1; i < lane.intervals.size(); ++i)
      trips += lane.intervals[i - 1].state == "closed" && lane.intervals[i].state == "open";
  // A boundary is read at the pod's first request after it: as precise as the pod's gaps
  // between requests.
  const Micros gap = log.pod_request_gap_p999;
  report.add(K::assumed, 0, "pod lanes",
             std::to_string(log.pod_breakers.size()) + " pods' breakers from their " +
                 std::to_string(log.rejected) + " rejected requests and the calls let through (" +
                 std::to_string(trips) +
                 " trips): open from a rejection, half-open during the probes that follow, each "
                 "boundary seen at the pod's next request (99.9% of a pod's requests are at most " +
                 formatDuration(gap) + " apart)");
  incident.recorded.pod_breakers = std::move(log.pod_breakers);
  Lane fleet = fleetLaneOfPods(incident.recorded.pod_breakers, "breaker");
  report.add(K::assumed, 0, "breaker lane",
             "the fleet at a glance: open while any pod is open, half-open while none is and one "
             "is half-open (" +
                 std::to_string(fleet.intervals.size()) + " spells)");
  incident.recorded.lanes.push_back(std::move(fleet));
  if (incident.deployed.breaker.scope != StateScope::per_pod)
    report.add(K::note, 0, "breaker.scope",
               "the config's breaker is shared by the fleet, though each pod logged its own "
               "rejections: set breaker.scope: per_pod to replay them");
  Expectation e;
  e.kind = Expectation::Kind::lane;
  e.lane = std::string(kEveryPodLane);
  e.within = std::max<Micros>(500 * kMillisecond, gap);
  e.text = e.lane + " lane matches recorded within " + formatDuration(e.within);
  incident.expect.push_back(e);
  report.add(K::recognised, 0, "expect",
             e.text +
                 " (the gap 99.9% of a pod's consecutive requests are within, at least "
                 "500 ms)");
}

}  // namespace

Incident incidentFromRequestLog(RequestLog&& log, const Config& config, ImportReport& report) {
  using K = ImportFinding::Kind;
  Incident incident;
  const std::filesystem::path path(log.file);
  const std::string stem = path.stem().string();
  incident.id = clipText(stem.empty() ? std::string("request-log") : stem);
  incident.title = "Request log " + clipText(path.filename().string());
  incident.source = clipText(path.filename().string());
  incident.start = 0;
  const Micros last = log.arrivals.back();
  incident.end = requestLogWindowEnd(last);
  if (incident.end - incident.start > 7 * 24 * 3600 * kSecond)
    throw LoadError(log.file, 0, 0,
                    "the log's requests span more than 7 days (" + formatSeconds(incident.end) +
                        " s): replay a part of it");
  incident.summary = "Replayed from the " + std::to_string(log.rows) +
                     " lines of a request log: each recorded call answers as it did.";
  incident.traffic.arrivals = ArrivalProcess::recorded;
  incident.traffic.keys.count = log.key_count;
  incident.traffic.recorded = std::move(log.arrivals);
  if (log.had_keys) incident.traffic.recorded_keys = std::move(log.arrival_keys);

  const DependencySummary summary = summarizeDependency(log.calls, incident.start, incident.end);
  incident.dependency.name = "dependency";
  incident.dependency.segments = summary.segments;
  incident.dependency.health = summary.health;
  incident.deployed = config;

  report.source = log.file;
  report.format = std::string("request log (") +
                  (log.format == RequestLogFormat::csv ? "CSV" : "JSON Lines") + ")";
  std::string columns;
  for (int f = 0; f < kRequestLogFieldCount; ++f) {
    if (log.columns[f].empty()) continue;
    columns += (columns.empty() ? "" : ", ") +
               std::string(toString(static_cast<RequestLogField>(f))) + " = " +
               clipText(log.columns[f], 40);
  }
  report.add(K::recognised, 1, "columns", columns);
  report.add(K::recognised, 0, "calls",
             std::to_string(log.calls.size()) + " answers of the dependency, " +
                 std::to_string(incident.traffic.recorded.size()) + " requests over " +
                 formatSeconds(incident.end) + " s");
  if (log.not_sent > 0)
    report.add(K::recognised, 0, "requests without a call",
               std::to_string(log.not_sent) + " (rejected, no worker, or from the cache; " +
                   std::to_string(log.rejected) + " of them rejected by a breaker): arrivals only");
  if (log.pool_exhausted > 0)
    report.add(K::recognised, 0, "attempts without a connection",
               std::to_string(log.pool_exhausted) + " (pool_exhausted): not answers");
  if (log.columns[static_cast<int>(RequestLogField::duration)].size() > 0 &&
      data_detail::unitSuffix(log.columns[static_cast<int>(RequestLogField::duration)]).empty())
    report.add(K::assumed, 0, "duration unit",
               log.duration_unit + " (the column's name has no unit)");
  if (!log.had_request_ids)
    report.add(K::assumed, 0, "requests",
               log.had_attempts ? "no request id: each first attempt is a request, retries answer "
                                  "only by time"
                                : "no request id or attempt: each line is a request");
  if (log.unlinked > 0)
    report.add(K::note, 0, "retries without their request",
               std::to_string(log.unlinked) +
                   " lines are retries whose first call is not in the log, or repeat an attempt "
                   "number of their request: they answer by time only");
  if (!log.had_keys) report.add(K::assumed, 0, "keys", "no key column: one key for every request");
  recordedFleet(log, incident, report);
  if (!log.sorted) report.add(K::note, 0, "order", "lines were not in start order; sorted");
  report.add(K::assumed, 0, "window",
             "0 s = " + std::to_string(log.origin / kSecond) +
                 " s since the epoch (the first request's second), to the last request's");
  report.add(K::assumed, 0, "dependency",
             std::to_string(summary.segments.size()) + " segments from " +
                 formatDuration(summary.bin) +
                 " bins (for the lanes and health; the replay answers from the calls)");
  report.add(K::assumed, 0, "config",
             "the deployed config is the defaults unless --config gives one");
  incident.dependency.calls = std::make_shared<const RecordedCalls>(std::move(log.calls));
  incident.dependency.calls_source = {log.file, std::string(toString(log.format)), log.mapping};
  return incident;
}

}  // namespace breakerlab
