// What a postmortem states, made into an incident BreakerLab can replay: the window, the lanes
// it recorded, the dependency's behaviour from the state-name table, the deployed config from
// the settings it names, what it reports as expectations, its remediation as what-ifs; then the
// shares it cannot state fitted to its breaker lane. Every value is in the report with the line
// it came from, or the reason it was assumed.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <unordered_set>

#include "../expectation_reader.h"
#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/calibrate.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"
#include "phrases.h"
#include "postmortem_import.h"

namespace breakerlab::data_detail {

namespace {

using K = ImportFinding::Kind;

bool has(std::string_view text, std::string_view part) {
  return lowerCopy(text).find(part) != std::string::npos;
}

std::string seconds(Micros t) {
  return formatSeconds(t) + " s";
}

enum class Role { breaker, dependency, checkout, other };

Role roleOf(const std::string& label, const std::vector<LaneInterval>& intervals,
            const StateTable& table) {
  if (has(label, "breaker")) return Role::breaker;
  if (has(label, "checkout") || has(label, "order") || has(label, "request") ||
      has(label, "client") || has(label, "user") || has(label, "customer"))
    return Role::checkout;
  for (const LaneInterval& i : intervals)
    if (table.match(i.state) != nullptr) return Role::dependency;
  return Role::other;
}

std::string_view laneKey(Role r) {
  switch (r) {
    case Role::breaker:
      return "breaker";
    case Role::dependency:
      return "dependency";
    case Role::checkout:
      return "checkout";
    case Role::other:
      return "";
  }
  return "";
}

// The breaker's states as the replay names them.
std::string breakerState(const std::string& state) {
  const std::string s = lowerCopy(state);
  if (s.find("half") != std::string::npos) return "half-open";
  if (s.find("open") != std::string::npos) return "open";
  return "closed";
}

// A checkout lane state as the replay's checkout lane names them.
std::string checkoutState(const std::string& state) {
  const std::string s = lowerCopy(state);
  if (s.find("fail") != std::string::npos || s.find("error") != std::string::npos ||
      s.find("503") != std::string::npos || s.find("5xx") != std::string::npos)
    return "failed";
  if (s.find("cache") != std::string::npos || s.find("stale") != std::string::npos) return "cached";
  if (s.find("slow") != std::string::npos || s.find("wait") != std::string::npos) return "slow";
  return "fresh";
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The first whole number in a text: "1,760 of 1,760 checkouts" -> 1760.
std::optional<double> firstNumber(std::string_view text) {
  for (const PhraseToken& t : tokenizePhrase(text))
    if (t.kind == PhraseToken::Kind::number || t.kind == PhraseToken::Kind::percent ||
        t.kind == PhraseToken::Kind::duration)
      return t.kind == PhraseToken::Kind::duration ? t.value : t.value;
  return std::nullopt;
}

class Builder {
 public:
  Builder(const PostmortemFacts& facts, std::string file_name, const ImportOptions& options)
      : f_(facts), file_name_(std::move(file_name)), options_(options) {
    out_.report.source = file_name_;
    out_.report.format = facts.format;
    for (const ImportFinding& n : facts.notes) out_.report.findings.push_back(n);
  }

  ImportedIncident build() {
    Incident& inc = out_.incident;
    identity();
    lanes();
    window();
    inc.deployed = config(f_.hints, true);
    traffic();
    dependency();
    recorded();
    halfOpenFromLane();
    expectations();
    whatIfs();
    calibrate();
    return std::move(out_);
  }

 private:
  ImportReport& report() { return out_.report; }

  void identity() {
    Incident& inc = out_.incident;
    inc.id = f_.id;
    if (inc.id.empty()) {
      std::string stem = file_name_;
      if (const auto slash = stem.find_last_of('/'); slash != std::string::npos)
        stem = stem.substr(slash + 1);
      if (const auto dot = stem.find('.'); dot != std::string::npos) stem = stem.substr(0, dot);
      inc.id = stem.empty() ? "imported" : stem;
      report().add(K::assumed, 0, "id", inc.id + ": the document names no incident id");
    } else {
      report().add(K::recognised, f_.id_line, "id", inc.id);
    }
    inc.title = f_.title;
    inc.summary = f_.summary;
    inc.source = file_name_;
    inc.seed = fnv1a(inc.id) | 1;
    report().add(K::assumed, 0, "seed",
                 std::to_string(inc.seed) +
                     ": from the incident id, so that every import of this "
                     "document replays the same sample path");
  }

  void lanes() {
    for (const FactLane& l : f_.lanes) {
      const Role r = roleOf(l.label, l.intervals, options_.states);
      if (r == Role::other) {
        report().add(K::note, l.line, "lane " + l.label,
                     "none of its states is in the state table: shown as recorded, not replayed");
      }
      if (r != Role::other && roles_.count(r)) {
        report().add(K::note, l.line, "lane " + l.label,
                     "a second " + std::string(laneKey(r)) + " lane: BreakerLab uses the first");
        continue;
      }
      roles_[r] = &l;
      if (r == Role::dependency) dependency_name_ = l.label;
      report().add(K::recognised, l.line, "lane " + l.label,
                   r == Role::other ? "recorded lane" : "the " + std::string(laneKey(r)) + " lane");
    }
  }

  void window() {
    Incident& inc = out_.incident;
    Micros from = kNever, to = -kNever;
    for (const FactLane& l : f_.lanes)
      for (const LaneInterval& i : l.intervals) {
        from = std::min(from, i.from);
        to = std::max(to, i.to);
      }
    if (from == kNever && f_.window_start && f_.window_end && *f_.window_end > *f_.window_start) {
      from = *f_.window_start;
      to = *f_.window_end;
      report().add(
          K::recognised, f_.events.empty() ? 0 : f_.events.front().line, "window",
          "the timeline: " + seconds(from) + " to " + seconds(to) + " (t=0 is its first time)");
    } else if (from != kNever) {
      report().add(K::recognised, f_.lanes.front().line, "window",
                   seconds(from) + " to " + seconds(to) + ", the span of the recorded lanes");
    }
    // A ```timing block that could not be read is the likelier reason than that there is none.
    if ((from == kNever || to <= from) && f_.timing_problem)
      throw LoadError(file_name_, f_.timing_problem->line, f_.timing_problem->column,
                      f_.timing_problem->message +
                          ": BreakerLab cannot place the incident in time without its lanes");
    if (from == kNever || to <= from)
      throw LoadError(file_name_, 0, 0,
                      "the document has no ```timing lanes and no timeline with clock times: "
                      "BreakerLab cannot place the incident in time");
    if (to - from > 7 * 86400 * kSecond)
      throw LoadError(file_name_, 0, 0, "the document spans more than 7 days");
    inc.start = from;
    inc.end = to;
    if (f_.t0_clock) {
      const auto c = static_cast<long long>(*f_.t0_clock);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", c / 3600, c / 60 % 60, c % 60);
      report().add(K::recognised, 0, "t=0", std::string(buf) + " UTC");
      inc.clock_of_day = static_cast<Micros>(std::llround(*f_.t0_clock * kSecond));
    }
  }

  // The highest-priority hint of each key (the first of equal ones), in the document's order.
  static std::vector<FactHint> chosen(const std::vector<FactHint>& hints) {
    std::map<std::string, const FactHint*> best;
    for (const FactHint& h : hints) {
      auto [it, added] = best.try_emplace(h.key, &h);
      if (!added && h.priority > it->second->priority) it->second = &h;
    }
    std::vector<FactHint> out;
    for (const FactHint& h : hints)
      if (best[h.key] == &h) out.push_back(h);
    return out;
  }

  const FactHint* find(const std::vector<FactHint>& hints, std::string_view key) const {
    for (const FactHint& h : hints)
      if (h.key == key) return &h;
    return nullptr;
  }

  Config config(const std::vector<FactHint>& all, bool deployed, const Config& base = {}) {
    const std::vector<FactHint> hints = chosen(all);
    Config c = base;
    const std::string kind = deployed ? "config" : "what-if";
    bool breaker_evidence = roles_.count(Role::breaker) > 0;
    for (const FactHint& h : hints) {
      // "20 connections per pod" next to "20 connections per Pricing pod": the same pool, the
      // dependency's, not the client's.
      if (h.key == "pool.size") {
        const auto same = std::find_if(hints.begin(), hints.end(), [&](const FactHint& o) {
          return o.key.rfind("dependency.pool_per_pod:", 0) == 0 && o.value == h.value;
        });
        if (same != hints.end()) {
          report().add(K::assumed, h.line, "pool.size",
                       "\"" + h.quote + "\" is read as the dependency's pool of line " +
                           std::to_string(same->line) + " (the same size), not the client's");
          continue;
        }
      }
      if (h.key.rfind("traffic.", 0) == 0 || h.key.rfind("what_if:", 0) == 0 ||
          h.key.rfind("expect:", 0) == 0 || h.key.rfind("count_unit:", 0) == 0 ||
          h.key.rfind("dependency.", 0) == 0 || h.key == "amplification")
        continue;
      if (h.key.rfind("breaker.", 0) == 0 && h.key != "breaker.enabled") breaker_evidence = true;
      try {
        c = applyOverrides(c, {h.key + "=" + h.value});
        report().add(K::recognised, h.line, h.key,
                     h.value + (deployed ? "" : " (" + kind + ")") + ", from \"" + h.quote + "\"");
      } catch (const LoadError& e) {
        report().add(K::note, h.line, h.key,
                     "\"" + h.quote + "\" reads as " + h.value + ", which BreakerLab cannot use (" +
                         shortQuote(e.message(), 100) + ")");
      }
    }
    const FactHint* amplification = find(hints, "amplification");
    if (amplification != nullptr) {
      const auto n = static_cast<std::uint32_t>(std::stoul(amplification->value));
      if (find(hints, "retry.max_attempts") == nullptr) {
        c = applyOverrides(c, {"retry.max_attempts=" + amplification->value});
        report().add(
            K::recognised, amplification->line, "retry.max_attempts",
            amplification->value + " attempts per request, from \"" + amplification->quote + "\"");
      } else if (c.retry.max_attempts != n) {
        report().add(K::note, amplification->line, "amplification",
                     "\"" + amplification->quote + "\" says " + amplification->value +
                         " calls per request, but the retries stated make " +
                         std::to_string(c.retry.max_attempts));
      } else {
        report().add(K::recognised, amplification->line, "amplification",
                     amplification->value + " calls per request, as the retries stated make");
      }
    }
    if (!deployed) return c;
    // A cache only where the document names one (BreakerLab's default config has one).
    const bool cache_evidence = std::any_of(hints.begin(), hints.end(), [](const FactHint& h) {
      return h.key.rfind("fallback.cache.", 0) == 0 || h.key == "pricing.mode";
    });
    if (!cache_evidence && c.cache.enabled) {
      c.cache.enabled = false;
      report().add(K::assumed, 0, "fallback.cache.enabled",
                   "false: the document names no cache in the deployed client");
    }
    // A breaker only where the document shows one.
    if (find(hints, "breaker.enabled") == nullptr && !breaker_evidence) {
      c.breaker.enabled = false;
      report().add(K::assumed, 0, "breaker.enabled",
                   "false: the document shows no breaker lane and states no breaker setting");
    }
    if (c.breaker.enabled && c.breaker.window_type == WindowType::count &&
        find(hints, "breaker.window.size") != nullptr &&
        find(hints, "breaker.min_calls") == nullptr &&
        c.breaker.min_calls != c.breaker.window_size) {
      c.breaker.min_calls = c.breaker.window_size;
      report().add(K::assumed, 0, "breaker.min_calls",
                   std::to_string(c.breaker.min_calls) +
                       ": the window's size (the document names no minimum of calls)");
    }
    for (const char* key : {"timeout.attempt"})
      if (find(hints, key) == nullptr)
        report().add(K::missing, 0, key,
                     "the document states no call timeout; BreakerLab's default " +
                         formatDuration(c.timeout.attempt) + " is used");
    if (std::string problem = validate(c); !problem.empty())
      throw LoadError(file_name_, 0, 0,
                      "the settings the document states do not make a valid "
                      "config: " +
                          problem);
    return c;
  }

  // "1,284 failed attempts" and "18.6% of purchase attempts failed" over a 31-minute window:
  // 6,903 checkouts, 3.7 a second. With the line of the count.
  std::optional<std::pair<double, int>> rateFromFailures(const std::vector<FactHint>& hints) const {
    const Incident& inc = out_.incident;
    const FactHint* pct = find(hints, "expect:failed_pct");
    if (pct == nullptr || find(hints, "count_unit:failed_checkouts") != nullptr) return {};
    const auto share = parseNumber(pct->value);
    const double window_s = static_cast<double>(inc.end - inc.start) / kSecond;
    if (!share || *share <= 0 || window_s <= 0) return {};
    for (const FactStat& st : f_.stats) {
      if (!isFailedCount(st.label)) continue;
      const auto n = firstNumber(st.value);
      if (!n || *n <= 0) continue;
      const double rps = *n / (*share / 100.0) / window_s;
      if (rps > 0 && rps <= 1e6) return std::make_pair(rps, st.line);
    }
    return {};
  }

  static bool isFailedCount(const std::string& label) {
    const std::string l = lowerCopy(label);
    return l.find("failed") != std::string::npos &&
           (l.find("checkout") != std::string::npos || l.find("attempt") != std::string::npos ||
            l.find("purchase") != std::string::npos || l.find("order") != std::string::npos);
  }

  void traffic() {
    Incident& inc = out_.incident;
    const std::vector<FactHint> hints = chosen(f_.hints);
    double rps = 40;
    if (const FactHint* h = find(hints, "traffic.rps")) {
      rps = parseNumber(h->value).value_or(40);
      // The incident's own limit, said at the sentence rather than as an invalid incident.
      if (!(rps >= 0 && rps <= 1e8))
        throw LoadError(file_name_, h->line, 0,
                        "traffic: " + h->value + " requests per second, from \"" + h->quote +
                            "\": above the limit of 100000000 (100 M requests per second)");
      report().add(K::recognised, h->line, "traffic",
                   h->value + " requests per second, from \"" + h->quote + "\"");
    } else if (const auto derived = rateFromFailures(hints)) {
      rps = derived->first;
      report().add(K::assumed, derived->second, "traffic",
                   formatNumber(std::round(rps * 100) / 100) +
                       " requests per second: the failed checkouts the document counts over the "
                       "share of checkouts it says failed, across the window");
    } else {
      report().add(K::missing, 0, "traffic",
                   "the document states no request rate; 40 requests per second assumed: set "
                   "traffic.rate");
    }
    inc.traffic.arrivals = ArrivalProcess::uniform;
    inc.traffic.rate = {{inc.start, inc.end, rps, rps}};
    report().add(K::assumed, 0, "traffic.arrivals",
                 "uniform: the document gives a rate, not the arrivals");
    inc.traffic.keys = {50, 0.2};
    report().add(K::missing, 0, "traffic.keys",
                 "the document does not say how many distinct keys (SKUs) were requested; 50 "
                 "with Zipf 0.2 assumed, which decides the cache's misses");
    inc.traffic.lead_in =
        inc.deployed.cache.enabled ? std::max(inc.deployed.cache.ttl, kSecond) : 60 * kSecond;
    report().add(K::assumed, 0, "traffic.lead_in",
                 formatDuration(inc.traffic.lead_in) +
                     (inc.deployed.cache.enabled ? ": the cache TTL, so the cache is as full as it "
                                                   "can be at t=0"
                                                 : ": a minute of normal traffic before t=0"));
  }

  DependencySegment segmentFor(const std::string& state, Micros from, Micros to, int line) {
    const StateBehaviour* row = options_.states.match(state);
    DependencySegment s;
    s.state = state;
    s.from = from;
    s.to = to;
    if (row == nullptr) {
      for (const StateBehaviour& r : options_.states.rows)
        if (r.name == "degraded") row = &r;
      report().add(K::assumed, line, "dependency state \"" + state + "\"",
                   std::string("not in the state table: replayed as ") +
                       (row ? "\"" + row->name + "\"" : "healthy") +
                       "; add it to the table and import again");
    } else {
      report().add(K::recognised, line, "dependency state \"" + state + "\"",
                   seconds(from) + " to " + seconds(to) + ": behaves as \"" + row->name + "\"");
    }
    if (row != nullptr) {
      s.health = row->health;
      s.latency_start = s.latency_end = row->latency;
      s.mix_start = s.mix_end = row->outcomes;
      s.refused_latency = row->refused_latency;
      if (row->fitted != StateBehaviour::Fitted::none)
        fitted_.push_back({out_.incident.dependency.segments.size(), row});
    } else {
      s.health = Health::green;
      s.latency_start =
          s.latency_end = {LatencyModel::Kind::lognormal, 25 * kMillisecond, 120 * kMillisecond};
    }
    return s;
  }

  void dependency() {
    Incident& inc = out_.incident;
    Dependency& d = inc.dependency;
    d.name = !dependency_name_.empty()     ? dependency_name_
             : !f_.dependency_name.empty() ? f_.dependency_name
                                           : "dependency";
    if (dependency_name_.empty() && f_.dependency_name.empty() &&
        roles_.count(Role::dependency) == 0) {
      if (auto named = nameFromTimeline()) {
        d.name = named->first;
        report().add(K::assumed, named->second, "dependency.name",
                     d.name +
                         ": the subject of the first timeline item about latency, timeouts "
                         "or errors");
      } else {
        report().add(K::missing, 0, "dependency.name",
                     "the document does not name the service called");
      }
    } else if (dependency_name_.empty())
      report().add(f_.dependency_name.empty() ? K::missing : K::recognised, 0, "dependency.name",
                   f_.dependency_name.empty() ? "the document does not name the service called"
                                              : d.name + ": where the calls with a timeout go");
    if (auto it = roles_.find(Role::dependency); it != roles_.end()) {
      const FactLane& lane = *it->second;
      Micros at = inc.start;
      for (const LaneInterval& i : lane.intervals) {
        if (i.from > at) {
          // A gap: the state before it goes on.
          if (!d.segments.empty()) {
            d.segments.back().to = i.from;
          } else {
            d.segments.push_back(segmentFor("healthy", at, i.from, lane.line));
          }
        }
        d.segments.push_back(segmentFor(i.state, std::max(i.from, at), i.to, lane.line));
        at = i.to;
      }
      if (d.segments.back().to < inc.end) d.segments.back().to = inc.end;
    } else {
      fromTimeline();
    }
    // The health check: red while the dependency is in a red state, until an event says it
    // turned green.
    d.health.clear();
    for (const DependencySegment& s : d.segments) {
      if (!d.health.empty() && d.health.back().health == s.health && d.health.back().to == s.from)
        d.health.back().to = s.to;
      else
        d.health.push_back({s.from, s.to, s.health});
    }
    for (const FactEvent& e : f_.events) {
      if (!(has(e.label, "health") && has(e.label, "green"))) continue;
      for (std::size_t k = 0; k < d.health.size(); ++k) {
        HealthSpan& span = d.health[k];
        if (span.health != Health::red || e.at <= span.from || e.at >= span.to) continue;
        const HealthSpan green{e.at, span.to, Health::green};
        span.to = e.at;
        d.health.insert(d.health.begin() + static_cast<std::ptrdiff_t>(k) + 1, green);
        report().add(K::recognised, e.line, "dependency.health",
                     "green from " + seconds(e.at) + ", from the event \"" + e.label + "\"");
        break;
      }
    }
    for (const FactHint& h : chosen(f_.hints)) {
      if (h.key.rfind("dependency.pool_per_pod:", 0) != 0) continue;
      const auto n = static_cast<std::uint32_t>(std::stoul(h.value));
      d.capacity.concurrency = n;
      d.capacity.queue_timeout = 10 * kSecond;
      report().add(K::recognised, h.line, "dependency.capacity.concurrency",
                   h.value + ", from \"" + h.quote + "\"");
      report().add(K::missing, h.line, "dependency pods",
                   "the pool is per pod and the document does not say how many pods " + d.name +
                       " runs: one assumed; waiters get 503 after 10 s (assumed)");
    }
  }

  // A timeline item is "what happened · what was decided" (or "title · detail"): the state is
  // read from the first part that names one, so "Alert fires after error rate exceeds 5%" does
  // not turn a slow provider into an erroring one. With the part it was read from.
  std::pair<const StateBehaviour*, std::string> stateOfItem(const std::string& label) const {
    std::size_t from = 0;
    while (from <= label.size()) {
      std::size_t sep = label.find(" · ", from);
      if (sep == std::string::npos) sep = label.size();
      const std::string part = label.substr(from, sep - from);
      if (const StateBehaviour* row = options_.states.match(part)) return {row, part};
      from = sep + std::string_view(" · ").size();
    }
    return {nullptr, {}};
  }

  // "Provider latency crosses 4 seconds", "Pricing p95 crosses 2 s": the word before what is
  // measured names what is measured.
  std::optional<std::pair<std::string, int>> nameFromTimeline() const {
    static const std::vector<std::string_view> measures = {
        "latency", "p50", "p95", "p99", "timeouts", "timeout", "errors", "error", "5xx"};
    for (const FactEvent& e : f_.events) {
      const auto [row, l] = stateOfItem(e.label);
      if (row == nullptr || row->health != Health::red) continue;
      std::size_t end = 0;
      while (end < l.size() && (std::isalnum(static_cast<unsigned char>(l[end])) || l[end] == '-'))
        ++end;
      if (end < 3 || !std::isupper(static_cast<unsigned char>(l[0]))) continue;
      const std::string first = l.substr(0, end);
      const std::string lower = lowerCopy(first);
      if (lower == "the" || lower == "our" || lower == "all" || lower == "checkout") continue;
      std::size_t next = end;
      while (next < l.size() && l[next] == ' ') ++next;
      std::size_t next_end = next;
      while (next_end < l.size() && std::isalnum(static_cast<unsigned char>(l[next_end])))
        ++next_end;
      const std::string second = lowerCopy(l.substr(next, next_end - next));
      if (std::find(measures.begin(), measures.end(), second) != measures.end())
        return std::make_pair(first, e.line);
    }
    return {};
  }

  // Without a lane of the dependency's states: its state follows the timeline's items that
  // name it ("Pricing p95 crosses 2 s" -> slow; "... recover" -> healthy).
  void fromTimeline() {
    Incident& inc = out_.incident;
    Dependency& d = inc.dependency;
    std::string state = "healthy";
    Micros from = inc.start;
    int line = 0;
    for (const FactEvent& e : f_.events) {
      const auto [row, part] = stateOfItem(e.label);
      if (row == nullptr || row->name == state) continue;
      const bool names_it = d.name != "dependency" && has(part, lowerCopy(d.name));
      if (!names_it && row->health == Health::red) continue;
      if (e.at <= from) {
        state = row->name;
        continue;
      }
      d.segments.push_back(segmentFor(state, from, e.at, line));
      state = row->name;
      from = e.at;
      line = e.line;
      report().add(K::assumed, e.line, "dependency state",
                   "\"" + row->name + "\" from " + seconds(e.at) + ", from the timeline item \"" +
                       shortQuote(e.label, 60) + "\"");
    }
    if (from < inc.end) d.segments.push_back(segmentFor(state, from, inc.end, line));
    report().add(K::missing, 0, "dependency segments",
                 "no lane of " + d.name +
                     "'s states: its behaviour is read from the timeline alone; add a ```timing "
                     "lane or edit dependency.segments");
  }

  void recorded() {
    Incident& inc = out_.incident;
    for (const auto& [role, lane] : roles_) {
      if (role == Role::other) continue;
      Lane l;
      l.name = std::string(laneKey(role));
      for (const LaneInterval& i : lane->intervals) {
        LaneInterval x = i;
        if (role == Role::breaker) x.state = breakerState(i.state);
        if (role == Role::checkout) x.state = checkoutState(i.state);
        if (x.state != i.state) x.label = i.state;
        l.intervals.push_back(std::move(x));
      }
      inc.recorded.lanes.push_back(std::move(l));
    }
    std::sort(inc.recorded.lanes.begin(), inc.recorded.lanes.end(),
              [](const Lane& a, const Lane& b) { return a.name < b.name; });
    for (const FactEvent& e : f_.events) {
      RecordedEvent r{e.at, e.label, {}};
      for (const auto& [role, lane] : roles_)
        if (lane->label == e.lane_label) r.lane = std::string(laneKey(role));
      if (e.at >= inc.start && e.at <= inc.end) inc.recorded.events.push_back(std::move(r));
    }
    inc.recorded.brackets = f_.brackets;
  }

  // A half-open that lasted as long each time, with several probes: they were spaced.
  void halfOpenFromLane() {
    Incident& inc = out_.incident;
    BreakerConfig& b = inc.deployed.breaker;
    const Lane* lane = inc.recorded.lane("breaker");
    if (lane == nullptr || !b.enabled || b.probes < 2) return;
    // A spacing the document states is what ran: the lane never overrides it.
    const std::vector<FactHint> hints = chosen(f_.hints);
    if (std::any_of(hints.begin(), hints.end(),
                    [](const FactHint& h) { return h.key == "breaker.half_open.spacing"; }))
      return;
    std::vector<Micros> lengths;
    for (const LaneInterval& i : lane->intervals)
      if (i.state == "half-open" && i.to < inc.end) lengths.push_back(i.to - i.from);
    if (lengths.empty()) return;
    const Micros shortest = *std::min_element(lengths.begin(), lengths.end());
    const Micros longest = *std::max_element(lengths.begin(), lengths.end());
    if (shortest < 200 * kMillisecond || longest - shortest > shortest / 10) return;
    const Micros spacing = (shortest / (b.probes - 1) + 50 * kMillisecond) / (100 * kMillisecond) *
                           (100 * kMillisecond);
    if (spacing == b.probe_spacing && !b.reopen_on_first_failure) {
      report().add(K::recognised, 0, "breaker.half_open.spacing",
                   formatDuration(spacing) + ": the recorded half-open lasted " +
                       formatDuration(shortest) + " each time, " + std::to_string(b.probes) +
                       " probes apart");
      return;
    }
    b.probe_spacing = spacing;
    b.reopen_on_first_failure = false;
    report().add(K::assumed, 0, "breaker.half_open.spacing",
                 formatDuration(spacing) +
                     ", deciding after the last probe: the recorded "
                     "half-open lasted " +
                     formatDuration(shortest) + " each time with " + std::to_string(b.probes) +
                     " probes");
  }

  void expect(std::string text, int line, std::vector<Expectation>& into) {
    Expectation e;
    if (parseExpectationText(text, e)) return;
    if (into.size() >= kMaxPostmortemExpectations)
      throw LoadError(file_name_, line, 0,
                      "more than " + std::to_string(kMaxPostmortemExpectations) +
                          " expectations (the document's numbers BreakerLab checks a replay "
                          "against)");
    e.text = text;
    e.line = line;
    into.push_back(e);
    report().add(K::recognised, line, "expect", text);
  }

  void expectations() {
    Incident& inc = out_.incident;
    const std::vector<FactHint> hints = chosen(f_.hints);
    for (const char* name : {"breaker", "checkout"}) {
      if (inc.recorded.lane(name) == nullptr) continue;
      Expectation e;
      e.kind = Expectation::Kind::lane;
      e.lane = name;
      e.within = std::string(name) == "breaker" ? 500 * kMillisecond : kSecond;
      e.text = std::string(name) + " lane matches recorded within " + formatDuration(e.within);
      inc.expect.push_back(e);
      report().add(K::recognised, 0, "expect", e.text);
    }
    for (std::size_t i = 0; i < f_.brackets.size(); ++i) {
      const Bracket& b = f_.brackets[i];
      const int line = i < f_.bracket_lines.size() ? f_.bracket_lines[i] : 0;
      const std::string label = lowerCopy(b.label);
      const double length = static_cast<double>(b.to - b.from) / kSecond;
      if (label.find("to trip") != std::string::npos)
        expect("time_to_trip_s == " + formatNumber(length) + " ± 0.5", line, inc.expect);
      if (label.find("cached while") != std::string::npos &&
          label.find("healthy") != std::string::npos)
        expect("cached_while_healthy_s == " + formatNumber(length) + " ± 1", line, inc.expect);
    }
    for (const FactStat& s : f_.stats) {
      const std::string label = lowerCopy(s.label);
      const auto n = firstNumber(s.value);
      if (!n) continue;
      if (label.find("cache hit") != std::string::npos)
        expect("cached_window_checkouts == " + formatNumber(*n) + " ± 1%", s.line, inc.expect);
      else if (isFailedCount(s.label)) {
        if (const FactHint* unit = find(hints, "count_unit:failed_checkouts"))
          report().add(K::note, s.line, "failed checkouts",
                       formatNumber(*n) + " is not an expectation: \"" + unit->quote +
                           "\" (BreakerLab counts checkout requests, not " + unit->value + "s)");
        else
          expect("failed_checkouts == " + formatNumber(*n) + " ± 10%", s.line, inc.expect);
      }
    }
    if (const FactHint* h = find(hints, "expect:failed_pct"))
      expect("failed_pct == " + h->value + " ± 3", h->line, inc.expect);
    for (const FactHint& h : hints)
      if (h.key == "expect:failed_checkouts")
        expect("failed_checkouts == " + h.value, h.line, inc.expect);
  }

  void whatIfs() {
    Incident& inc = out_.incident;
    // A set: a look through the names so far was quadratic in the what-ifs.
    std::unordered_set<std::string> names;
    auto add = [&](std::string name, std::string description, const Config& c, int line) {
      if (c == inc.deployed) return;
      std::string unique = name;
      for (int k = 2; names.count(unique) != 0; ++k) unique = name + "-" + std::to_string(k);
      names.insert(unique);
      WhatIf w;
      w.name = unique;
      w.description = shortQuote(description, 300);
      w.config = c;
      inc.what_ifs.push_back(std::move(w));
      report().add(K::recognised, line, "what-if " + unique, shortQuote(description, 100));
    };
    // Before any is built (each is a config read from its hints, and then a replay).
    if (f_.what_ifs.size() > kMaxPostmortemWhatIfs)
      throw LoadError(file_name_, f_.what_ifs[kMaxPostmortemWhatIfs].line, 0,
                      "more than " + std::to_string(kMaxPostmortemWhatIfs) +
                          " what-ifs (remediation rows, steps and changes)");
    for (const FactWhatIf& f : f_.what_ifs) {
      Config c = config(f.hints, false, inc.deployed);
      bool breaker_settings = false;
      for (const FactHint& h : f.hints)
        breaker_settings =
            breaker_settings || (h.key.rfind("breaker.", 0) == 0 && h.key != "breaker.enabled");
      if (breaker_settings && !c.breaker.enabled && find(f.hints, "breaker.enabled") == nullptr) {
        c.breaker.enabled = true;
        report().add(K::assumed, f.line, "what-if breaker.enabled",
                     "true: the remediation sets the breaker's rules");
      }
      add(f.name, f.description, c, f.line);
    }
    // "raised the timeout from 2 s to 30 s": the value before, as a what-if.
    std::vector<FactHint> before;
    for (const FactHint& h : chosen(f_.hints))
      if (h.key.rfind("what_if:", 0) == 0) {
        FactHint x = h;
        x.key = h.key.substr(8);
        before.push_back(x);
      }
    if (!before.empty())
      add("as-before", "the values the document says were changed, as they were before",
          config(before, false, inc.deployed), before.front().line);
  }

  void calibrate() {
    Incident& inc = out_.incident;
    const Lane* target = inc.recorded.lane("breaker");
    if (fitted_.empty()) return;
    if (target == nullptr || !inc.deployed.breaker.enabled || !options_.calibrate) {
      const std::string why = !options_.calibrate ? "calibration was turned off"
                              : target == nullptr
                                  ? "there is no recorded breaker lane to fit them to"
                                  : "the deployed config has no breaker whose lane "
                                    "could be fitted";
      for (const auto& [index, row] : fitted_)
        report().add(K::assumed, 0,
                     "dependency state \"" + inc.dependency.segments[index].state + "\"",
                     "the row's shares as they are (" + row->name + "): " + why);
      return;
    }
    std::vector<FittedShare> shares;
    for (const auto& [index, row] : fitted_) {
      FittedShare s;
      s.segment = index;
      s.outcome = row->fitted == StateBehaviour::Fitted::timeout ? FittedShare::Outcome::timeout
                  : row->fitted == StateBehaviour::Fitted::refused
                      ? FittedShare::Outcome::refused
                      : FittedShare::Outcome::server_error;
      shares.push_back(s);
    }
    if (std::string problem = validate(inc); !problem.empty())
      throw LoadError(file_name_, 0, 0,
                      "the incident built from the document is not valid: " + problem);
    const double one_replay = estimateWork(inc, inc.deployed).simulated_requests;
    const std::size_t planned = plannedCalibrationRuns(shares.size());
    if (one_replay * static_cast<double>(planned) > options_.max_calibration_requests) {
      for (const auto& [index, row] : fitted_)
        report().add(
            K::assumed, 0, "dependency state \"" + inc.dependency.segments[index].state + "\"",
            "the row's shares as they are (" + row->name + "): calibration was skipped, its " +
                std::to_string(planned) + " replays of " + formatNumber(one_replay) +
                " simulated requests each would be above the limit of " +
                formatNumber(options_.max_calibration_requests));
      return;
    }
    const CalibrationResult fit =
        calibrateShares(inc, inc.deployed, shares, *target, inc.expect, options_.progress);
    for (const FittedShare& s : fit.shares) {
      const DependencySegment& seg = inc.dependency.segments[s.segment];
      const char* what = s.outcome == FittedShare::Outcome::timeout   ? "timeout"
                         : s.outcome == FittedShare::Outcome::refused ? "refused"
                                                                      : "server_error";
      report().add(
          K::calibrated, 0,
          "dependency state \"" + seg.state + "\" " + seconds(seg.from) + " to " + seconds(seg.to),
          std::string(what) + " share " + formatPercent(std::round(s.start * 1000) / 10) +
              (s.end != s.start ? " rising to " + formatPercent(std::round(s.end * 1000) / 10)
                                : "") +
              ", fitted to the recorded breaker lane");
    }
    std::string fit_text;
    if (fit.lane_matches) {
      fit_text =
          "the replayed breaker lane goes through the recorded states; its boundaries are "
          "at most " +
          formatSeconds(fit.worst_boundary_error) + " s off (" +
          formatSeconds(fit.total_boundary_error) + " s in all)";
    } else {
      fit_text = fit.explanation;
    }
    if (!inc.expect.empty())
      fit_text += "; " + std::to_string(inc.expect.size() - fit.expectations_failed) + " of " +
                  std::to_string(inc.expect.size()) + " of the document's numbers met";
    fit_text += "; " + std::to_string(fit.runs) + " replays";
    if (fit.stopped) fit_text += "; stopped before the search ended, the best so far is kept";
    report().add(K::calibrated, 0, "fit", fit_text);
    // The fit follows the breaker lane and the document's numbers, which can all agree while
    // the checkout lane the workbench draws beside the record does not (14 Aug): the same
    // check calibration makes when the incident is opened, on the fitted incident.
    if (inc.recorded.lane("checkout") != nullptr) {
      const std::vector<ExpectationResult> lane =
          evaluateCalibration({}, inc, simulate(inc, inc.deployed));
      if (!lane.empty())
        report().add(K::calibrated, 0, "checkout lane",
                     std::string(lane.back().passed ? "" : "does not match the record: ") +
                         lane.back().actual);
    }
  }

  const PostmortemFacts& f_;
  std::string file_name_;
  const ImportOptions& options_;
  ImportedIncident out_;
  std::map<Role, const FactLane*> roles_;
  std::string dependency_name_;
  std::vector<std::pair<std::size_t, const StateBehaviour*>> fitted_;
};

}  // namespace

ImportedIncident buildIncident(const PostmortemFacts& facts, const std::string& file_name,
                               const ImportOptions& options) {
  return Builder(facts, file_name, options).build();
}

}  // namespace breakerlab::data_detail
