// Request logs: the packed rows of a log, then its requests (arrivals) linked to their attempts
// and compacted into what the replay consults.
#include <algorithm>
#include <bit>
#include <numeric>

#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/values.h"
#include "pod_breaker_inference.h"
#include "request_log_rows.h"

namespace breakerlab::data_detail {

namespace {

constexpr std::uint32_t kNone = RecordedCalls::kNone;
constexpr std::uint64_t kNoRequest = 0;       // the hash of a row without a request id
constexpr std::uint32_t kNoPod = UINT32_MAX;  // a row whose pod cell is empty
// Kubernetes' longest name (a DNS subdomain): a longer pod cell is not a pod's name.
constexpr std::size_t kMaxPodName = 253;
// Durations and waits are packed into 32 bits of microseconds (about 71 minutes).
constexpr Micros kMaxPackedMicros = UINT32_MAX;
constexpr const char* kMaxPackedText = "4294.967295s (about 71 minutes)";

std::uint64_t requestHash(std::string_view id) {
  std::uint64_t h = StringHash{}(id);
  h = (h ^ (h >> 31)) * 0x9e3779b97f4a7c15ULL;
  return h == kNoRequest ? 1 : h;
}

bool isAnswer(std::uint8_t outcome) {
  return outcome != kNotSent && outcome != kRejected &&
         outcome != static_cast<std::uint8_t>(CallOutcome::pool_exhausted);
}

template <typename T>
std::uint64_t capacityBytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

RowCollector::RowCollector(std::string file, const RequestLogOptions& options)
    : file_(std::move(file)), options_(options) {}

void RowCollector::fail(int line, int column, const std::string& message) const {
  throw LoadError(file_, line, column, message);
}

std::uint64_t RowCollector::bytesNow() const {
  return capacityBytes(ts_) + capacityBytes(duration_) + capacityBytes(outcome_) +
         capacityBytes(attempt_) + capacityBytes(key_) + capacityBytes(request_) +
         capacityBytes(waited_) + capacityBytes(pod_) + (keys_.size() + pods_.size()) * 48;
}

void RowCollector::reserve(std::uint64_t rows, bool request_ids, bool attempts, bool request_starts,
                           bool pods) {
  rows = std::min<std::uint64_t>(rows, options_.max_calls);
  ts_.reserve(rows);
  duration_.reserve(rows);
  outcome_.reserve(rows);
  key_.reserve(rows);
  if (request_ids) request_.reserve(rows);
  if (attempts) attempt_.reserve(rows);
  if (request_starts) waited_.reserve(rows);
  if (pods) pod_.reserve(rows);
}

void RowCollector::add(const RowFields& f, int line) {
  auto present = [&](RequestLogField field) { return f.present[static_cast<int>(field)]; };
  auto value = [&](RequestLogField field) { return f.value[static_cast<int>(field)]; };
  auto column = [&](RequestLogField field) { return f.columnOf(static_cast<int>(field)); };
  auto quote = [](std::string_view text) { return "\"" + clipText(text) + "\""; };
  if (ts_.size() >= options_.max_calls)
    fail(line, 1,
         "more than " + std::to_string(options_.max_calls) +
             " calls: the log is too long to replay (split it by time)");

  using F = RequestLogField;
  if (!present(F::timestamp) || value(F::timestamp).empty())
    fail(line, present(F::timestamp) ? column(F::timestamp) : 1,
         "timestamp: missing (expected epoch seconds/milliseconds or ISO 8601)");
  const auto ts = parseLogTimestamp(value(F::timestamp), timestamp_unit);
  if (!ts)
    fail(line, column(F::timestamp),
         "timestamp: expected epoch seconds, milliseconds, microseconds or an ISO 8601 time "
         "(2026-09-08T14:02:11.250Z), got " +
             quote(value(F::timestamp)));

  if (!present(F::duration) || value(F::duration).empty())
    fail(line, present(F::duration) ? column(F::duration) : 1, "duration: missing");
  const auto duration = parseLogDuration(value(F::duration), duration_unit);
  if (!duration)
    fail(line, column(F::duration),
         "duration: expected a non-negative number (" + duration_unit +
             ", or with a unit: 12.5ms, 0.8s), got " + quote(value(F::duration)));
  // Stored in 32 bits of microseconds: a longer call is an error, not a call of 71 minutes.
  if (*duration > kMaxPackedMicros)
    fail(line, column(F::duration),
         "duration: " + quote(value(F::duration)) + " (" + formatDuration(*duration) +
             ") is above the limit of " + kMaxPackedText +
             " per call (is the unit right? the column is read in " + duration_unit + ")");

  std::optional<std::uint8_t> outcome;
  if (present(F::outcome) && !value(F::outcome).empty()) {
    outcome = parseLogOutcome(value(F::outcome));
    if (!outcome)
      fail(line, column(F::outcome),
           "outcome: expected success, timeout, refused, server_error, client_error, "
           "pool_exhausted, not_sent (or rejected, short_circuited) or an HTTP status, got " +
               quote(value(F::outcome)));
  } else if (present(F::status) && !value(F::status).empty()) {
    outcome = parseLogStatus(value(F::status));
    if (!outcome)
      fail(line, column(F::status),
           "status: expected an HTTP status from 100 to 599 (0: no response), got " +
               quote(value(F::status)));
  } else {
    fail(line,
         present(F::status)    ? column(F::status)
         : present(F::outcome) ? column(F::outcome)
                               : 1,
         "status or outcome: missing");
  }

  std::uint8_t attempt = kNoAttempt;
  if (present(F::attempt) && !value(F::attempt).empty()) {
    const auto a = parseNumber(value(F::attempt));
    if (!a || *a < 0 || *a > 250 || *a != static_cast<double>(static_cast<int>(*a)))
      fail(line, column(F::attempt),
           "attempt: expected a whole number from 0 to 250, got " + quote(value(F::attempt)));
    attempt = static_cast<std::uint8_t>(*a);
  }

  std::uint32_t waited = 0;
  if (present(F::request_start) && !value(F::request_start).empty()) {
    const auto start = parseLogTimestamp(value(F::request_start), timestamp_unit);
    if (!start)
      fail(line, column(F::request_start),
           "request_start: expected a time like the timestamp's, got " +
               quote(value(F::request_start)));
    if (*start > *ts)
      fail(line, column(F::request_start),
           "request_start: after the call's timestamp (a request starts before its calls)");
    // Stored in 32 bits of microseconds: a longer wait is an error, not 71 minutes.
    if (*ts - *start > kMaxPackedMicros)
      fail(line, column(F::request_start),
           "request_start: " + formatDuration(*ts - *start) +
               " before the call's timestamp, more than the limit of " + kMaxPackedText +
               " a request may wait for its call");
    waited = static_cast<std::uint32_t>(*ts - *start);
  }

  std::uint32_t key = 0;
  if (present(F::key) && !value(F::key).empty()) {
    const std::string_view k = value(F::key);
    if (has_last_key_ && k == last_key_) {
      key = last_key_id_;
    } else {
      auto it = keys_.find(k);
      if (it == keys_.end()) {
        if (keys_.size() >= kMaxRequestLogKeys)
          fail(line, column(F::key),
               "key: more than " + std::to_string(kMaxRequestLogKeys) + " distinct keys");
        it = keys_.emplace(std::string(k), static_cast<std::uint32_t>(keys_.size())).first;
      }
      key = it->second;
      last_key_.assign(k);
      last_key_id_ = key;
      has_last_key_ = true;
    }
  }

  std::uint32_t pod = kNoPod;
  if (present(F::pod) && !value(F::pod).empty()) {
    const std::string_view name = value(F::pod);
    if (has_last_pod_ && name == last_pod_) {
      pod = last_pod_id_;
    } else {
      if (name.size() > kMaxPodName)
        fail(line, column(F::pod),
             "pod: " + std::to_string(name.size()) + " characters, more than the " +
                 std::to_string(kMaxPodName) + " of a pod's or host's name");
      if (std::any_of(name.begin(), name.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        fail(line, column(F::pod),
             "pod: " + quote(name) + " has a control character (a pod's name is one line)");
      auto it = pods_.find(name);
      if (it == pods_.end()) {
        if (pods_.size() >= kMaxRecordedPods)
          fail(line, column(F::pod),
               "pod: more than " + std::to_string(kMaxRecordedPods) + " distinct pods");
        it = pods_.emplace(std::string(name), static_cast<std::uint32_t>(pods_.size())).first;
      }
      pod = it->second;
      last_pod_.assign(name);
      last_pod_id_ = pod;
      has_last_pod_ = true;
    }
  }

  if (!ts_.empty() && *ts < ts_.back()) sorted_ = false;
  // A column first seen on a later line (JSON Lines) is filled in for the lines before it.
  auto ensure = [&](auto& column_vector, bool needed, auto fill) {
    if (needed && column_vector.size() < ts_.size()) {
      column_vector.reserve(ts_.capacity());
      column_vector.resize(ts_.size(), fill);
    }
  };
  const bool has_request = present(F::request_id) && !value(F::request_id).empty();
  ensure(request_, has_request, kNoRequest);
  ensure(attempt_, attempt != kNoAttempt, kNoAttempt);
  ensure(waited_, waited != 0, std::uint32_t{0});
  ensure(pod_, pod != kNoPod, kNoPod);

  ts_.push_back(*ts);
  duration_.push_back(static_cast<std::uint32_t>(*duration));
  outcome_.push_back(*outcome);
  key_.push_back(key);
  if (!request_.empty() || has_request)
    request_.push_back(has_request ? requestHash(value(F::request_id)) : kNoRequest);
  if (!attempt_.empty() || attempt != kNoAttempt) attempt_.push_back(attempt);
  if (!waited_.empty() || waited != 0) waited_.push_back(waited);
  if (!pod_.empty() || pod != kNoPod) pod_.push_back(pod);
  if (ts_.size() == 1 || (ts_.size() & 0xffff) == 0)
    peak_ = std::max<std::uint64_t>(peak_, bytesNow());
}

// Each pod's breaker lane from its rows (pod_breaker_inference.h), over the incident's window:
// the pods sorted by name, so recorded pod k stands beside the replay's pod k.
void RowCollector::inferPodBreakers(RequestLog& log, const std::vector<std::uint32_t>& next_row) {
  if (pod_.empty()) return;
  std::vector<std::pair<std::string, std::uint32_t>> by_name(pods_.begin(), pods_.end());
  std::sort(by_name.begin(), by_name.end(),
            [](const auto& a, const auto& b) { return podNameLess(a.first, b.first); });
  std::vector<std::uint32_t> rank(by_name.size());
  for (std::size_t k = 0; k < by_name.size(); ++k) {
    rank[by_name[k].second] = static_cast<std::uint32_t>(k);
    log.pods.push_back(by_name[k].first);
  }
  PodBreakerInference inference(log.pods, options_.half_open_probes);
  for (std::size_t r = 0; r < ts_.size(); ++r) {
    if (pod_[r] == kNoPod) {
      ++log.rows_without_pod;
      continue;
    }
    if (outcome_[r] == kNotSent) continue;  // from the cache, no worker: says nothing of it
    const Micros at = ts_[r] - log.origin;
    if (outcome_[r] == kRejected) {
      inference.add(rank[pod_[r]], at, at, PodEvidence::rejected);
    } else if (attempt_[r] == 0) {
      // A request's first call: its breaker let it through. The request may go on in retries
      // inside the breaker's call (a breaker outside the retries records the whole request), so
      // it is held until its last attempt ends.
      Micros end = ts_[r] + duration_[r];
      for (std::uint32_t k = next_row[r]; k != kNone; k = next_row[k])
        end = std::max<Micros>(end, ts_[k] + (outcome_[k] == kRejected ? 0 : duration_[k]));
      const Micros asked = at - (waited_.empty() ? 0 : waited_[r]);
      inference.add(rank[pod_[r]], at, end - log.origin, PodEvidence::let_through, asked);
    } else {
      inference.add(rank[pod_[r]], at, at + duration_[r], PodEvidence::retry);
    }
  }
  // Without a rejection the log cannot tell a closed breaker from one it does not record.
  log.pod_request_gap_p999 = inference.requestGapQuantile(0.999);
  if (inference.rejections() > 0)
    log.pod_breakers = inference.lanes(0, requestLogWindowEnd(log.arrivals.back() - log.origin));
  std::vector<std::uint32_t>().swap(pod_);
}

void RowCollector::checkpoint(std::uint64_t total_bytes) const {
  if (options_.progress && !options_.progress(total_bytes, total_bytes))
    throw ImportCancelled(file_);
}

RequestLog RowCollector::finish(RequestLogFormat format, std::uint64_t lines,
                                std::uint64_t total_bytes) {
  RequestLog log;
  log.file = file_;
  log.format = format;
  log.lines = lines;
  const std::size_t n = ts_.size();
  log.rows = n;
  if (n == 0) throw LoadError(file_, 0, 0, "no calls: the log has a header but no lines of calls");
  for (int i = 0; i < kRequestLogFieldCount; ++i) log.columns[i] = columns[i];
  log.duration_unit = duration_unit;
  log.mapping = options_.mapping.toText();
  log.had_request_ids = !request_.empty();
  log.had_attempts = !attempt_.empty();
  log.had_keys = !keys_.empty();
  log.sorted = sorted_;
  // Columns first seen after the last line that needed them are filled to the end.
  if (!request_.empty()) request_.resize(n, kNoRequest);
  if (!attempt_.empty()) attempt_.resize(n, kNoAttempt);
  if (!waited_.empty()) waited_.resize(n, 0);
  if (!pod_.empty()) pod_.resize(n, kNoPod);
  peak_ = std::max<std::uint64_t>(peak_, bytesNow());

  // 1. Start order, ties in log order. The permutation is applied to every column at once by
  //    following its cycles, so no column is copied.
  if (!sorted_) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return ts_[a] < ts_[b]; });
    peak_ = std::max<std::uint64_t>(peak_, bytesNow() + n * 4 + n * 2);  // stable_sort's buffer
    std::vector<bool> placed(n, false);
    for (std::size_t s = 0; s < n; ++s) {
      if (placed[s]) continue;
      const std::int64_t ts = ts_[s];
      const std::uint32_t dur = duration_[s], key = key_[s];
      const std::uint8_t out = outcome_[s];
      const std::uint64_t req = request_.empty() ? 0 : request_[s];
      const std::uint8_t att = attempt_.empty() ? 0 : attempt_[s];
      const std::uint32_t wait = waited_.empty() ? 0 : waited_[s];
      const std::uint32_t pod = pod_.empty() ? kNoPod : pod_[s];
      std::size_t k = s;
      for (;;) {
        placed[k] = true;
        const std::size_t from = order[k];
        if (from == s) {
          ts_[k] = ts, duration_[k] = dur, key_[k] = key, outcome_[k] = out;
          if (!request_.empty()) request_[k] = req;
          if (!attempt_.empty()) attempt_[k] = att;
          if (!waited_.empty()) waited_[k] = wait;
          if (!pod_.empty()) pod_[k] = pod;
          break;
        }
        ts_[k] = ts_[from], duration_[k] = duration_[from], key_[k] = key_[from];
        outcome_[k] = outcome_[from];
        if (!request_.empty()) request_[k] = request_[from];
        if (!attempt_.empty()) attempt_[k] = attempt_[from];
        if (!waited_.empty()) waited_[k] = waited_[from];
        if (!pod_.empty()) pod_[k] = pod_[from];
        k = from;
      }
    }
  }

  checkpoint(total_bytes);

  // 2. Attempts counted from 1 are counted from 0.
  if (!attempt_.empty()) {
    std::uint8_t lowest = kNoAttempt;
    for (std::uint8_t a : attempt_) lowest = std::min(lowest, a);
    if (lowest == 1)
      for (std::uint8_t& a : attempt_)
        if (a != kNoAttempt) --a;
  }
  auto attemptOf = [&](std::size_t r) -> std::uint8_t {
    return attempt_.empty() ? kNoAttempt : attempt_[r];
  };

  // 3. Requests: a row that starts one (attempt 0, or the first of its request id) is an
  //    arrival; the request's later rows are linked to it in attempt order (start order
  //    without attempt numbers).
  std::vector<bool> arrival(n, false);
  std::vector<std::uint32_t> next_row(n, kNone);
  std::vector<std::uint8_t> ordinal;  // attempt numbers for logs without them
  auto standalone = [&](std::size_t r) {
    const std::uint8_t a = attemptOf(r);
    if (a == 0 || a == kNoAttempt) {
      arrival[r] = true;
    } else {
      ++log.unlinked;
    }
  };
  if (!request_.empty()) {
    // Rows grouped by request: sorted as 64-bit keys, the hash's high bits above the row's
    // number (a plain sort; an index sort comparing request_[a] with request_[b] misses the
    // cache on every comparison). Rows whose high bits agree but whose hashes differ are told
    // apart below.
    const int index_bits = std::max(1, static_cast<int>(std::bit_width(n - 1)));
    const std::uint64_t index_mask = index_bits >= 64 ? ~0ull : (1ull << index_bits) - 1;
    std::vector<std::uint64_t> by_request(n);
    for (std::size_t r = 0; r < n; ++r) by_request[r] = (request_[r] & ~index_mask) | r;
    std::sort(by_request.begin(), by_request.end());
    peak_ = std::max<std::uint64_t>(peak_, bytesNow() + n * 12 + n / 8);
    if (attempt_.empty()) attempt_.assign(n, kNoAttempt);
    auto rowOf = [&](std::uint64_t k) { return static_cast<std::uint32_t>(k & index_mask); };
    auto link = [&](std::size_t g, std::size_t e) {  // by_request[g, e): one request's rows
      const auto begin = by_request.begin() + static_cast<std::ptrdiff_t>(g);
      const auto end = by_request.begin() + static_cast<std::ptrdiff_t>(e);
      if (request_[rowOf(*begin)] == kNoRequest) {
        for (auto it = begin; it != end; ++it) standalone(rowOf(*it));
        return;
      }
      // With attempt numbers, the calls are linked in attempt order (a retry logged by
      // another pod may carry an earlier timestamp than its first call); without, in time.
      if (e - g > 1 && std::none_of(begin, end, [&](std::uint64_t k) {
            return attempt_[rowOf(k)] == kNoAttempt;
          }))
        std::sort(begin, end, [&](std::uint64_t a, std::uint64_t b) {
          const std::uint8_t x = attempt_[rowOf(a)], y = attempt_[rowOf(b)];
          return x != y ? x < y : a < b;
        });
      std::uint32_t last = kNone;
      int last_attempt = -1;
      for (auto it = begin; it != end; ++it) {
        const std::uint32_t r = rowOf(*it);
        const std::uint8_t given = attempt_[r];
        if (given == 0 || (given == kNoAttempt && last == kNone)) {
          arrival[r] = true;
          attempt_[r] = 0;
          last = r;
          last_attempt = 0;
        } else if (last != kNone && (given == kNoAttempt || given > last_attempt)) {
          // Numbered in time order; past 250 the number would not fit (a silent 250 would
          // make later calls look like repeats of one attempt).
          if (given == kNoAttempt && last_attempt >= 250)
            throw LoadError(file_, 0, 0,
                            "a request id has more than 251 calls (attempts are numbered 0 to "
                            "250): is the request_id column unique per request?");
          const int a = given == kNoAttempt ? last_attempt + 1 : given;
          attempt_[r] = static_cast<std::uint8_t>(a);
          next_row[last] = r;
          last = r;
          last_attempt = a;
        } else {
          ++log.unlinked;  // a retry whose first call is not in the log
        }
      }
    };
    std::size_t g = 0;
    while (g < n) {
      const std::uint64_t high = by_request[g] & ~index_mask;
      std::size_t e = g + 1;
      while (e < n && (by_request[e] & ~index_mask) == high) ++e;
      const std::uint64_t id = request_[rowOf(by_request[g])];
      if (std::all_of(by_request.begin() + static_cast<std::ptrdiff_t>(g + 1),
                      by_request.begin() + static_cast<std::ptrdiff_t>(e),
                      [&](std::uint64_t k) { return request_[rowOf(k)] == id; })) {
        link(g, e);
      } else {
        // Different requests share the high bits: by full hash, rows in order within each.
        std::sort(by_request.begin() + static_cast<std::ptrdiff_t>(g),
                  by_request.begin() + static_cast<std::ptrdiff_t>(e),
                  [&](std::uint64_t a, std::uint64_t b) {
                    const std::uint64_t x = request_[rowOf(a)], y = request_[rowOf(b)];
                    return x != y ? x < y : a < b;
                  });
        for (std::size_t s = g; s < e;) {
          std::size_t t = s + 1;
          while (t < e && request_[rowOf(by_request[t])] == request_[rowOf(by_request[s])]) ++t;
          link(s, t);
          s = t;
        }
      }
      g = e;
    }
    std::vector<std::uint64_t>().swap(by_request);
    checkpoint(total_bytes);
    std::vector<std::uint64_t>().swap(request_);
  } else {
    for (std::size_t r = 0; r < n; ++r) standalone(r);
    if (attempt_.empty()) attempt_.assign(n, 0);
  }
  for (std::uint8_t& a : attempt_)
    if (a == kNoAttempt) a = 0;

  // 4. Answers (calls that reached the dependency) get their own numbers.
  std::vector<std::uint32_t> answer_index(n, kNone);
  std::uint32_t answers = 0;
  for (std::size_t r = 0; r < n; ++r) {
    if (outcome_[r] == kNotSent || outcome_[r] == kRejected) ++log.not_sent;
    if (outcome_[r] == kRejected) ++log.rejected;
    if (outcome_[r] == static_cast<std::uint8_t>(CallOutcome::pool_exhausted)) ++log.pool_exhausted;
    if (isAnswer(outcome_[r])) answer_index[r] = answers++;
  }
  peak_ = std::max<std::uint64_t>(peak_, bytesNow() + n * 8 + n / 4);
  auto firstAnswerFrom = [&](std::uint32_t r) {
    while (r != kNone && answer_index[r] == kNone) r = next_row[r];
    return r == kNone ? kNone : answer_index[r];
  };

  // 5. Arrivals: when the request arrived (before its first call when it waited for a worker or
  //    a connection), its key, its first answer.
  std::size_t arrival_count = 0;
  for (std::size_t r = 0; r < n; ++r) arrival_count += arrival[r] ? 1 : 0;
  log.arrivals.reserve(arrival_count);
  log.arrival_keys.reserve(arrival_count);
  log.calls.first_of_request.reserve(arrival_count);
  for (std::size_t r = 0; r < n; ++r) {
    if (!arrival[r]) continue;
    log.arrivals.push_back(ts_[r] - (waited_.empty() ? 0 : waited_[r]));
    log.arrival_keys.push_back(key_[r]);
    log.calls.first_of_request.push_back(firstAnswerFrom(static_cast<std::uint32_t>(r)));
  }
  if (log.arrivals.empty())
    throw LoadError(file_, 0, 0,
                    "no requests: every line is a retry (attempt above 0) of a request whose "
                    "first call is not in the log");
  if (!std::is_sorted(log.arrivals.begin(), log.arrivals.end())) {
    std::vector<std::uint32_t> order(log.arrivals.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return log.arrivals[a] < log.arrivals[b];
    });
    std::vector<Micros> times(order.size());
    std::vector<std::uint32_t> keys(order.size()), firsts(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      times[i] = log.arrivals[order[i]];
      keys[i] = log.arrival_keys[order[i]];
      firsts[i] = log.calls.first_of_request[order[i]];
    }
    log.arrivals = std::move(times);
    log.arrival_keys = std::move(keys);
    log.calls.first_of_request = std::move(firsts);
  }
  // t = 0 is the first arrival's whole second.
  const std::int64_t first = log.arrivals.front();
  log.origin = (first >= 0 ? first : first - (kSecond - 1)) / kSecond * kSecond;
  inferPodBreakers(log, next_row);

  std::vector<std::uint32_t>().swap(waited_);
  std::vector<std::uint32_t>().swap(key_);
  std::vector<bool>().swap(arrival);

  // 6. Each answer's next answer of the same request.
  log.calls.next_of_request.reserve(answers);
  for (std::size_t r = 0; r < n; ++r)
    if (answer_index[r] != kNone) log.calls.next_of_request.push_back(firstAnswerFrom(next_row[r]));
  peak_ =
      std::max<std::uint64_t>(peak_, bytesNow() + n * 8 + answers * 4ull + arrival_count * 16ull);
  std::vector<std::uint32_t>().swap(next_row);
  std::vector<std::uint32_t>().swap(answer_index);

  // 7. Times from t = 0; the answers are compacted in place.
  for (Micros& t : log.arrivals) t -= log.origin;
  std::size_t w = 0;
  for (std::size_t r = 0; r < n; ++r) {
    if (!isAnswer(outcome_[r])) continue;
    ts_[w] = ts_[r] - log.origin;
    duration_[w] = duration_[r];
    outcome_[w] = outcome_[r];
    attempt_[w] = attempt_[r];
    ++w;
  }
  ts_.resize(w);
  duration_.resize(w);
  outcome_.resize(w);
  attempt_.resize(w);
  log.calls.start = std::move(ts_);
  log.calls.duration = std::move(duration_);
  log.calls.attempt = std::move(attempt_);
  log.calls.outcome.resize(w);
  for (std::size_t i = 0; i < w; ++i) log.calls.outcome[i] = static_cast<CallOutcome>(outcome_[i]);
  std::vector<std::uint8_t>().swap(outcome_);
  log.key_count = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(keys_.size()));
  keys_.clear();
  log.peak_bytes = std::max<std::uint64_t>(peak_, log.calls.bytes() + log.arrivals.capacity() * 12);
  return log;
}

}  // namespace breakerlab::data_detail
