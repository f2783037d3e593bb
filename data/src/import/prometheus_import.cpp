// Prometheus range-query responses into an incident (see prometheus_import.h).
#include "breakerlab/data/prometheus_import.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_set>
#include <vector>

#include "breakerlab/core/outcome/fleet.h"
#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/prometheus_metrics.h"
#include "breakerlab/data/values.h"
#include "json_document.h"
#include "utf8.h"

namespace breakerlab {

namespace {

using nlohmann::json;
using K = ImportFinding::Kind;

// Far above a day of 1 s samples of a few hundred series; past them the file is refused.
constexpr std::size_t kMaxSeries = 10'000;
constexpr std::size_t kMaxSamplesPerSeries = 1'000'000;
constexpr std::size_t kMaxSamples = 10'000'000;
// Timestamps are epoch seconds: a range wider than this is not one incident.
constexpr double kMaxRangeSeconds = 366.0 * 86400.0;
// The largest request rate replayed: a simulated second of 1e6 requests already takes seconds.
constexpr double kMaxRequestRate = 1e6;
// Latency quantiles are in seconds; past an hour a call is not a latency but an outage.
constexpr double kMaxLatencySeconds = 3600;

enum class PrometheusRole {
  breaker_state,
  request_rate,
  error_ratio,
  latency_p50,
  latency_p95,
  latency_p99
};

struct RoleName {
  PrometheusRole role;
  std::string_view key;
};
constexpr RoleName kRoles[] = {{PrometheusRole::breaker_state, "breaker_state"},
                               {PrometheusRole::request_rate, "request_rate"},
                               {PrometheusRole::error_ratio, "error_ratio"},
                               {PrometheusRole::latency_p50, "latency_p50"},
                               {PrometheusRole::latency_p95, "latency_p95"},
                               {PrometheusRole::latency_p99, "latency_p99"}};

std::string roleKeys() {
  std::string out;
  for (const RoleName& r : kRoles) out += (out.empty() ? "" : ", ") + std::string(r.key);
  return out;
}

struct Sample {
  double t = 0;  // epoch seconds
  double v = 0;
};

struct Series {
  std::string path;  // its JSON pointer: "/request_rate/data/result/0"
  std::map<std::string, std::string> labels;
  std::vector<Sample> samples;
  std::string label(const std::string& key) const {
    auto it = labels.find(key);
    return it == labels.end() ? std::string() : it->second;
  }
};

class PrometheusReader {
 public:
  explicit PrometheusReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& message) const {
    throw LoadError(file_, 0, 0, (where.empty() ? "" : where + ": ") + message);
  }

  // `node` is a query_range response, its `data`, or its `data.result`.
  std::vector<Series> response(const json& node, const std::string& where) {
    const json* result = &node;
    std::string path = where;
    if (node.is_object() && node.contains("status")) {
      const json& status = node["status"];
      if (!status.is_string() || status.get<std::string>() != "success") {
        std::string error = node.contains("error") && node["error"].is_string()
                                ? node["error"].get<std::string>()
                                : std::string("no error given");
        fail(path, "the query did not succeed: " + clipText(error));
      }
    }
    if (result->is_object() && result->contains("data")) {
      result = &(*result)["data"];
      path += "/data";
    }
    if (result->is_object()) {
      if (result->contains("resultType")) {
        const json& type = (*result)["resultType"];
        if (!type.is_string() || type.get<std::string>() != "matrix")
          fail(path + "/resultType",
               "expected \"matrix\" (a range query, /api/v1/query_range), got " +
                   clipText(type.dump()));
      }
      if (!result->contains("result")) fail(path, "expected a \"result\" list of series");
      result = &(*result)["result"];
      path += "/result";
    }
    if (!result->is_array()) fail(path, "expected a list of series");
    std::vector<Series> out;
    for (std::size_t i = 0; i < result->size(); ++i) {
      if (++series_ > kMaxSeries)
        fail(path, "more than " + std::to_string(kMaxSeries) + " series; query fewer");
      out.push_back(series((*result)[i], path + "/" + std::to_string(i)));
    }
    return out;
  }

 private:
  Series series(const json& node, const std::string& path) {
    if (!node.is_object()) fail(path, "expected a series {\"metric\": {...}, \"values\": [...]}");
    Series s;
    s.path = path;
    if (node.contains("metric")) {
      const json& metric = node["metric"];
      if (!metric.is_object()) fail(path + "/metric", "expected a map of labels");
      for (auto it = metric.begin(); it != metric.end(); ++it) {
        if (!it.value().is_string()) fail(path + "/metric/" + clipText(it.key()), "expected text");
        s.labels[it.key()] = it.value().get<std::string>();
      }
    }
    if (!node.contains("values")) {
      if (node.contains("value"))
        fail(path, "a single \"value\": this is an instant query; use /api/v1/query_range");
      fail(path, "expected \"values\": [[time, \"value\"], ...]");
    }
    const json& values = node["values"];
    if (!values.is_array()) fail(path + "/values", "expected a list of [time, \"value\"]");
    if (values.size() > kMaxSamplesPerSeries)
      fail(path + "/values", std::to_string(values.size()) + " samples, more than the limit of " +
                                 std::to_string(kMaxSamplesPerSeries) + " per series");
    s.samples.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const json& pair = values[i];
      const std::string at = path + "/values/" + std::to_string(i);
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_string())
        fail(at, "expected [time, \"value\"] (epoch seconds and the value as text), got " +
                     clipText(pair.dump()));
      const double t = pair[0].get<double>();
      const std::string text = pair[1].get<std::string>();
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size())
        fail(at, "expected a number as text (\"0.25\", \"NaN\"), got \"" + clipText(text) + "\"");
      if (!std::isfinite(t) || t < 0 || t > 1e11)
        fail(at, "the time " + clipText(pair[0].dump()) +
                     " is not epoch seconds (milliseconds? divide by 1000)");
      if (!s.samples.empty()) {
        // formatNumber prints the shortest text that reads back as the same double: two times
        // that differ print differently. Times the double cannot tell apart (1 ns steps at
        // today's epoch) are equal and said to be.
        const double previous = s.samples.back().t;
        if (t == previous)
          fail(at, "the same time as the previous sample (" + formatNumber(t) +
                       "): times must increase, and samples closer than 1 µs cannot be told "
                       "apart");
        if (t < previous)
          fail(at, "times must increase (" + formatNumber(t) + " after " + formatNumber(previous) +
                       ")");
        if (t - previous < 1e-6)
          fail(at, formatNumber(t) + " is less than 1 µs after the previous sample (" +
                       formatNumber(previous) + "): samples closer than 1 µs cannot be told apart");
      }
      if (++samples_ > kMaxSamples)
        fail(at, "more than " + std::to_string(kMaxSamples) + " samples in all");
      s.samples.push_back({t, v});
    }
    return s;
  }

  std::string file_;
  std::size_t series_ = 0;
  std::size_t samples_ = 0;
};

std::uint64_t prometheusFnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

Micros since(double t, double t0) {
  return static_cast<Micros>(std::llround((t - t0) * 1e6));
}

// The value of `series` (several are summed, or averaged) at each of `times`: the last sample at
// or before the time; nullopt before the first.
std::vector<std::optional<double>> valuesAt(const std::vector<Series>& series,
                                            const std::vector<double>& times, bool sum) {
  std::vector<std::optional<double>> out(times.size());
  std::vector<std::size_t> count(times.size(), 0);
  for (const Series& s : series) {
    std::size_t next = 0;
    std::optional<double> last;  // the last finite sample: NaN (0/0 of an idle ratio) is a gap
    for (std::size_t i = 0; i < times.size(); ++i) {
      for (; next < s.samples.size() && s.samples[next].t <= times[i] + 1e-9; ++next)
        if (std::isfinite(s.samples[next].v)) last = s.samples[next].v;
      if (!last) continue;
      out[i] = out[i].value_or(0) + *last;
      ++count[i];
    }
  }
  if (!sum)
    for (std::size_t i = 0; i < times.size(); ++i)
      if (out[i] && count[i] > 0) *out[i] /= static_cast<double>(count[i]);
  return out;
}

std::string seriesName(const Series& s) {
  std::string out = s.label("__name__");
  std::string labels;
  for (const auto& [k, v] : s.labels)
    if (k != "__name__") labels += (labels.empty() ? "" : ",") + k + "=\"" + v + "\"";
  return clipText(out + "{" + labels + "}", 120);
}

class PrometheusBuilder {
 public:
  PrometheusBuilder(std::map<PrometheusRole, std::vector<Series>> roles, std::string file,
                    const Config& deployed, const PrometheusOrigin* origin,
                    const PrometheusMetricTable& table)
      : roles_(std::move(roles)), file_(std::move(file)), origin_(origin), table_(table) {
    out_.report.source = file_;
    out_.report.format = "Prometheus range query (query_range matrix)";
    out_.source = IncidentSource::prometheus_range;
    out_.incident.deployed = deployed;
  }

  ImportedIncident build() {
    times();
    identity();
    breakerLane();
    traffic();
    dependency();
    const auto laneCheck = [&](std::string lane) {
      Expectation e;
      e.kind = Expectation::Kind::lane;
      e.lane = std::move(lane);
      e.within = std::max<Micros>(step_, 500 * kMillisecond);
      e.text = e.lane + " lane matches recorded within " + formatDuration(e.within);
      out_.incident.expect.push_back(e);
      report(K::recognised, "expect",
             e.text + (e.within == step_ ? " (the samples' step)"
                                         : " (the samples' step, raised to at least 500 ms)"));
    };
    if (out_.incident.recorded.lane("breaker") != nullptr) laneCheck("breaker");
    if (!out_.incident.recorded.pod_breakers.empty()) laneCheck(std::string(kEveryPodLane));
    return std::move(out_);
  }

 private:
  void report(K kind, std::string what, std::string detail) {
    out_.report.add(kind, 0, std::move(what), std::move(detail));
  }

  const std::vector<Series>* role(PrometheusRole r) const {
    auto it = roles_.find(r);
    return it == roles_.end() || it->second.empty() ? nullptr : &it->second;
  }

  // The sample times of every series, merged: the grid the lanes and segments are drawn on.
  void times() {
    std::vector<double> all;
    std::vector<double> steps;
    for (const auto& [r, list] : roles_)
      for (const Series& s : list) {
        for (std::size_t i = 0; i < s.samples.size(); ++i) {
          all.push_back(s.samples[i].t);
          if (i > 0) steps.push_back(s.samples[i].t - s.samples[i - 1].t);
        }
      }
    if (all.empty()) throw LoadError(file_, 0, 0, "no samples: the query matched no series");
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end(),
                          [](double a, double b) { return std::abs(a - b) < 1e-6; }),
              all.end());
    double step = 15;
    if (!steps.empty()) {
      std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2),
                       steps.end());
      step = steps[steps.size() / 2];
    }
    if (all.back() - all.front() > kMaxRangeSeconds)
      throw LoadError(file_, 0, 0,
                      "the samples span " + formatNumber(std::round(all.back() - all.front())) +
                          " s, more than a year: not one incident");
    grid_ = std::move(all);
    t0_ = grid_.front();
    step_ = std::max<Micros>(static_cast<Micros>(std::llround(step * 1e6)), kMillisecond);
    if (step < 1e-3)
      report(K::assumed, "window",
             "the samples are " + formatNumber(step * 1e3) +
                 " ms apart (the median step): the last one is taken to last 1 ms");
    Incident& inc = out_.incident;
    inc.start = 0;
    inc.end = since(grid_.back(), t0_) + step_;
    report(K::recognised, "window",
           std::to_string(grid_.size()) + " sample times, " + formatDuration(step_) +
               " apart: 0 s to " + formatSeconds(inc.end) + " s (t=0 at epoch " +
               formatNumber(t0_) + ")");
  }

  void identity() {
    Incident& inc = out_.incident;
    if (origin_ != nullptr) {
      inc.id = origin_->id;
      inc.title = origin_->title;
      inc.source = origin_->source;
      out_.report.source = origin_->source;
      inc.seed = prometheusFnv1a(inc.id);
      report(K::assumed, "seed", std::to_string(inc.seed) + ": from the incident's id");
      return;
    }
    inc.id = std::filesystem::path(file_).stem().string();
    inc.title = "Prometheus metrics of " + std::filesystem::path(file_).filename().string();
    inc.source = file_;
    inc.seed = prometheusFnv1a(inc.id);
    report(K::assumed, "seed", std::to_string(inc.seed) + ": from the file's name");
  }

  // The lane states of `series` (one breaker, or one pod's) at each grid time, read by `row`;
  // "" where nothing says (before the first sample, an unknown code).
  std::vector<std::string> statesOf(const PrometheusStateMetric& row,
                                    const std::vector<const Series*>& series) {
    std::vector<std::string> state(grid_.size());
    if (row.encoding == PrometheusStateMetric::Encoding::events) return eventStates(row, series);
    for (const Series* s : series) {
      const bool by_label = row.encoding == PrometheusStateMetric::Encoding::state_label &&
                            !row.label.empty() && s->labels.contains(row.label);
      std::string as;
      if (by_label) {
        const std::string value = s->label(row.label);
        as = row.stateOf(value);
        if (as.empty()) unknownState(row, *s, value);
        if (value != "closed" && value != "open" && as != value && value != "half_open")
          folded_.insert(value + " as " + as);
      } else if (row.codes.empty()) {
        throw LoadError(file_, 0, 0,
                        s->path + ": the series " + seriesName(*s) + " has no '" +
                            clipText(row.label) + "' label, which the metric table's row '" +
                            clipText(row.metric) + "' (" + rowLibrary(row) +
                            ") reads the state from; add the label to the query's output, or "
                            "codes to the row");
      }
      std::size_t k = 0;
      for (std::size_t i = 0; i < grid_.size(); ++i) {
        while (k + 1 < s->samples.size() && s->samples[k + 1].t <= grid_[i] + 1e-9) ++k;
        if (s->samples.empty() || s->samples[k].t > grid_[i] + 1e-9) continue;
        const double v = s->samples[k].v;
        if (by_label) {
          if (v >= 0.5) state[i] = as;
        } else {
          state[i] = std::isfinite(v) ? row.stateOfCode(std::round(v)) : std::string();
        }
      }
    }
    return state;
  }

  // Transition counters (opossum's circuit{event}): where one rises between two sample times,
  // the breaker entered its state. Several rising in one step are read in the breaker's cycle
  // (open, half-open, then closed or open again): open if more opens than half-opens, else
  // half-open if more half-opens than closes, else closed.
  std::vector<std::string> eventStates(const PrometheusStateMetric& row,
                                       const std::vector<const Series*>& series) {
    std::vector<std::string> state(grid_.size());
    std::vector<std::map<std::string, double>> rises(grid_.size());
    for (const Series* s : series) {
      if (!s->labels.contains(row.label))
        throw LoadError(file_, 0, 0,
                        s->path + ": the series " + seriesName(*s) + " has no '" +
                            clipText(row.label) +
                            "' label, which names the event of the metric "
                            "table's row '" +
                            clipText(row.metric) + "' (" + rowLibrary(row) + ")");
      const std::string value = s->label(row.label);
      const std::string as = row.stateOf(value);
      if (as.empty()) continue;  // another event (fire, success, reject): not a transition
      std::size_t k = 0;
      std::optional<double> previous;
      for (std::size_t i = 0; i < grid_.size(); ++i) {
        while (k + 1 < s->samples.size() && s->samples[k + 1].t <= grid_[i] + 1e-9) ++k;
        if (s->samples.empty() || s->samples[k].t > grid_[i] + 1e-9) continue;
        const double v = s->samples[k].v;
        if (!std::isfinite(v)) continue;
        if (previous && v != *previous) rises[i][as] += v > *previous ? v - *previous : v;
        previous = v;
      }
    }
    for (std::size_t i = 0; i < grid_.size(); ++i) {
      const auto& r = rises[i];
      if (r.empty()) continue;
      auto count = [&](const char* k) {
        auto it = r.find(k);
        return it == r.end() ? 0.0 : it->second;
      };
      const double o = count("open"), h = count("half-open"), c = count("closed");
      if (r.size() > 1) ++ambiguous_steps_;
      state[i] = o > h ? "open" : h > c ? "half-open" : "closed";
    }
    // A rise says the state from then on: hold it until the next.
    for (std::size_t i = 1; i < grid_.size(); ++i)
      if (state[i].empty()) state[i] = state[i - 1];
    return state;
  }

  [[noreturn]] void unknownState(const PrometheusStateMetric& row, const Series& s,
                                 const std::string& value) const {
    std::string known;
    for (const auto& [from, to] : row.states) known += (known.empty() ? "" : ", ") + from;
    throw LoadError(file_, 0, 0,
                    s.path + ": " + clipText(row.label) + " \"" + clipText(value) +
                        "\" of the series " + seriesName(s) +
                        " is not a state of the metric "
                        "table's row '" +
                        clipText(row.metric) + "' (" + rowLibrary(row) + "; expected one of " +
                        clipText(known, 120) +
                        "): add it to the row's states (import --prometheus-metrics FILE)");
  }

  static std::string rowLibrary(const PrometheusStateMetric& row) {
    return row.library.empty() ? std::string("no library") : row.library;
  }

  // A lane over the grid from states per grid time: "" holds the state before (closed at the
  // start). `absent` (a pod's lane) is drawn where the pod had no sample yet or no more.
  Lane laneOf(std::string name, const std::vector<std::string>& state, std::size_t first = 0,
              std::size_t last = std::string::npos) {
    Lane lane;
    lane.name = std::move(name);
    for (std::size_t i = 0; i < grid_.size(); ++i) {
      const Micros from = since(grid_[i], t0_);
      const Micros to = i + 1 < grid_.size() ? since(grid_[i + 1], t0_) : out_.incident.end;
      if (i < first || (last != std::string::npos && i > last)) {
        lane.append(kPodOutOfService, from, to);
        continue;
      }
      const std::string& held =
          !lane.intervals.empty() && lane.intervals.back().state != kPodOutOfService
              ? lane.intervals.back().state
              : std::string("closed");
      lane.append(state[i].empty() ? held : state[i], from, to);
    }
    return lane;
  }

  static std::size_t trips(const Lane& lane) {
    std::size_t n = 0;
    for (std::size_t i = 1; i < lane.intervals.size(); ++i)
      n += lane.intervals[i - 1].state == "closed" && lane.intervals[i].state == "open";
    return n;
  }

  void breakerLane() {
    const std::vector<Series>* list = role(PrometheusRole::breaker_state);
    if (list == nullptr) {
      report(K::missing, "breaker lane",
             "no breaker-state series (resilience4j_circuitbreaker_state, opossum's circuit, "
             "Envoy's circuit_breakers_*_open, or breaker_state in a role bundle): nothing "
             "recorded to compare the replay with");
      return;
    }
    // Each series by the metric table's first matching row; one row for them all.
    const PrometheusStateMetric* row = nullptr;
    const Series* first = nullptr;
    for (const Series& s : *list) {
      const PrometheusStateMetric* r = table_.match(s.label("__name__"));
      if (r == nullptr) {
        std::string names;
        for (const PrometheusStateMetric& t : table_.rows)
          names += (names.empty() ? "" : ", ") + t.metric;
        throw LoadError(
            file_, 0, 0,
            s.path + ": the series " + seriesName(s) +
                " matches no breaker-state metric of the metric table (expected " +
                clipText(names.empty() ? std::string("a row; the table has none") : names, 160) +
                "): add a row for it (import --prometheus-metrics FILE)");
      }
      if (row != nullptr && r != row)
        throw LoadError(file_, 0, 0,
                        s.path + ": mixed breaker-state metrics: " + seriesName(s) + " is " +
                            rowLibrary(*r) + "'s '" + clipText(r->metric) + "', " + first->path +
                            " (" + seriesName(*first) + ") is " + rowLibrary(*row) + "'s '" +
                            clipText(row->metric) +
                            "'; query one breaker metric (one exporter) under breaker_state");
      if (row == nullptr) first = &s;
      row = r;
    }
    // One breaker: the first by name (resilience4j and opossum label each with `name`).
    std::map<std::string, std::vector<const Series*>> by_name;
    for (const Series& s : *list) by_name[s.label(row->breaker_label)].push_back(&s);
    const auto& [name, series] = *by_name.begin();
    if (by_name.size() > 1)
      report(K::note, "breaker_state",
             std::to_string(by_name.size()) + " breakers in the file; '" + clipText(name) +
                 "' is the recorded lane (the first by " + row->breaker_label + ")");
    if (!name.empty()) dependency_name_ = name;
    const std::string how =
        row->encoding == PrometheusStateMetric::Encoding::events
            ? ", from transition counters (" + row->label + ")"
        : std::any_of(series.begin(), series.end(),
                      [&](const Series* s) {
                        return !row->label.empty() && s->labels.contains(row->label);
                      })
            ? ", from one series per state (value 1 = the current state)"
            : ", from one gauge (" + codesText(*row) + ")";
    const std::string library = " (" + rowLibrary(*row) + ", " + row->metric + ")";

    // The pods: the first of the table's instance labels that the series carry.
    std::string pod_label;
    for (const std::string& l : table_.instance_labels)
      if (std::any_of(series.begin(), series.end(),
                      [&](const Series* s) { return s->labels.contains(l); })) {
        pod_label = l;
        break;
      }
    struct ByPodName {
      bool operator()(const std::string& a, const std::string& b) const {
        return podNameLess(a, b);
      }
    };
    std::map<std::string, std::vector<const Series*>, ByPodName> by_pod;
    if (!pod_label.empty())
      for (const Series* s : series) {
        if (!s->labels.contains(pod_label))
          throw LoadError(file_, 0, 0,
                          s->path + ": the series " + seriesName(*s) + " has no '" +
                              clipText(pod_label) + "' label while others of breaker '" +
                              clipText(name) +
                              "' do: every series of the fleet must name its pod (or none)");
        by_pod[s->label(pod_label)].push_back(s);
      }
    if (by_pod.size() > kMaxRecordedPods)
      throw LoadError(file_, 0, 0,
                      "/breaker_state: " + std::to_string(by_pod.size()) + " pods (" + pod_label +
                          "), more than the limit of " + std::to_string(kMaxRecordedPods));

    if (by_pod.size() < 2) {
      Lane lane = laneOf("breaker", statesOf(*row, series));
      report(K::recognised, "breaker lane",
             "'" + clipText(name.empty() ? "breaker" : name) +
                 "': " + std::to_string(lane.intervals.size()) + " spells, " +
                 std::to_string(trips(lane)) + " trips" + how + library +
                 (by_pod.size() == 1
                      ? "; one pod (" + pod_label + " \"" + clipText(by_pod.begin()->first) + "\")"
                      : std::string()));
      out_.incident.recorded.lanes.push_back(std::move(lane));
    } else {
      // One lane per pod, sorted by the label's value (podNameLess): lane k stands beside
      // the replay's pod k+1. A pod is out of service before its first sample and after its last.
      std::string names;
      std::size_t pod_trips = 0;
      for (const auto& [pod, pod_series] : by_pod) {
        double from = grid_.back(), to = grid_.front();
        for (const Series* s : pod_series)
          if (!s->samples.empty()) {
            from = std::min(from, s->samples.front().t);
            to = std::max(to, s->samples.back().t);
          }
        std::size_t first_i = 0, last_i = grid_.size() - 1;
        while (first_i + 1 < grid_.size() && grid_[first_i] < from - 1e-6) ++first_i;
        while (last_i > 0 && grid_[last_i] > to + 1e-6) --last_i;
        Lane lane = laneOf(pod, statesOf(*row, pod_series), first_i,
                           last_i + 1 < grid_.size() ? last_i : std::string::npos);
        pod_trips += trips(lane);
        if (names.size() < 60) names += (names.empty() ? "" : ", ") + pod;
        out_.incident.recorded.pod_breakers.push_back(std::move(lane));
      }
      const std::vector<Lane>& pods = out_.incident.recorded.pod_breakers;
      report(K::recognised, "pod lanes",
             "'" + clipText(name.empty() ? "breaker" : name) + "': " + std::to_string(pods.size()) +
                 " pods by the label '" + pod_label + "' (" + clipText(names) +
                 (names.size() >= 60 ? ", ..." : "") +
                 "), sorted by it: recorded pod k stands beside the replay's pod k; " +
                 std::to_string(pod_trips) + " trips in all" + how + library);
      Lane lane = fleetLaneOfPods(pods, "breaker");
      report(K::assumed, "breaker lane",
             "the fleet at a glance: open while any pod is open, half-open while none is and "
             "one is half-open (" +
                 std::to_string(lane.intervals.size()) + " spells, " + std::to_string(trips(lane)) +
                 " trips)");
      out_.incident.recorded.lanes.push_back(std::move(lane));
      LoadBalancerConfig& lb = out_.incident.deployed.load_balancer;
      if (lb.pods == 1) {
        lb.pods = static_cast<std::uint32_t>(pods.size());
        report(K::assumed, "load_balancer.pods",
               std::to_string(pods.size()) + ": one client pod per recorded instance");
      } else if (lb.pods != pods.size()) {
        report(K::note, "load_balancer.pods",
               "the config has " + std::to_string(lb.pods) + " pods, the record " +
                   std::to_string(pods.size()) +
                   ": pods pair by position, the rest are not compared");
      }
      if (out_.incident.deployed.breaker.scope != StateScope::per_pod)
        report(K::note, "breaker.scope",
               "the config's breaker is shared by the fleet, though each pod recorded its own: "
               "set breaker.scope: per_pod to replay them");
    }
    if (!folded_.empty()) {
      std::string folded;
      for (const std::string& f : folded_) folded += (folded.empty() ? "" : ", ") + f;
      report(K::note, "breaker lane", "read by the metric table: " + clipText(folded, 160));
    }
    if (ambiguous_steps_ > 0)
      report(K::assumed, "breaker lane",
             std::to_string(ambiguous_steps_) +
                 " steps in which more than one transition counter rose: read in the breaker's "
                 "cycle (open, half-open, then closed or open); a shorter --step tells them apart");
    if (!out_.incident.deployed.breaker.enabled)
      report(K::note, "breaker.enabled",
             "the config has no breaker, though the metrics record one: load the breaker's "
             "config (File > Load Config, or --config)");
  }

  static std::string codesText(const PrometheusStateMetric& row) {
    std::string out;
    for (const auto& [code, state] : row.codes)
      out += (out.empty() ? "" : ", ") + formatNumber(code) + " " + state;
    return out;
  }

  void traffic() {
    Incident& inc = out_.incident;
    inc.traffic.arrivals = ArrivalProcess::poisson;
    inc.traffic.keys = {1, 0};
    report(K::missing, "traffic.keys",
           "metrics do not say which keys were requested; one key assumed (the cache's hit "
           "rate is then an upper bound)");
    const std::vector<Series>* list = role(PrometheusRole::request_rate);
    if (list == nullptr) {
      inc.traffic.rate = {{inc.start, inc.end, 40, 40}};
      report(K::missing, "traffic", "no request_rate series; 40 requests per second assumed");
      return;
    }
    const auto rates = valuesAt(*list, grid_, true);
    std::size_t before_first = 0;
    for (std::size_t i = 0; i < grid_.size(); ++i) {
      // Each sample is within 0 to kMaxRequestRate (checkValues); their sum may not be.
      if (!rates[i]) ++before_first;
      const double rps = rates[i].value_or(0.0);
      if (rps > kMaxRequestRate)
        throw LoadError(file_, 0, 0,
                        "/request_rate: the " + std::to_string(list->size()) + " series sum to " +
                            formatNumber(rps) + " requests per second at " +
                            formatSeconds(since(grid_[i], t0_)) + " s (epoch " +
                            formatNumber(grid_[i]) + "), above the limit of " +
                            formatNumber(kMaxRequestRate));
      const Micros from = since(grid_[i], t0_);
      const Micros to = i + 1 < grid_.size() ? since(grid_[i + 1], t0_) : inc.end;
      if (!inc.traffic.rate.empty() && inc.traffic.rate.back().rps_from == rps)
        inc.traffic.rate.back().to = to;
      else
        inc.traffic.rate.push_back({from, to, rps, rps});
    }
    double total = 0;
    for (const RatePiece& p : inc.traffic.rate)
      total += p.rps_from * static_cast<double>(p.to - p.from) / kSecond;
    report(K::recognised, "traffic",
           std::to_string(list->size()) + " request_rate series summed: " +
               formatNumber(std::round(total)) + " requests over the window, in " +
               std::to_string(inc.traffic.rate.size()) + " steps");
    report(K::assumed, "traffic.arrivals", "poisson: the metrics give a rate, not the arrivals");
    if (before_first > 0)
      report(K::assumed, "traffic",
             "0 requests per second at the " + std::to_string(before_first) +
                 " sample times before the first request_rate sample (or where every sample is "
                 "NaN)");
    inc.traffic.lead_in = 60 * kSecond;
  }

  void dependency() {
    Incident& inc = out_.incident;
    Dependency& d = inc.dependency;
    d.name = dependency_name_.empty() ? "dependency" : dependency_name_;
    const std::vector<Series>* errors = role(PrometheusRole::error_ratio);
    const std::vector<Series>* p50s = role(PrometheusRole::latency_p50);
    const std::vector<Series>* p99s = role(PrometheusRole::latency_p99) != nullptr
                                          ? role(PrometheusRole::latency_p99)
                                          : role(PrometheusRole::latency_p95);
    const std::vector<std::optional<double>> none(grid_.size());
    const auto err = errors ? valuesAt(*errors, grid_, false) : none;
    const auto p50 = p50s ? valuesAt(*p50s, grid_, false) : none;
    const auto p99 = p99s ? valuesAt(*p99s, grid_, false) : none;
    if (errors == nullptr)
      report(K::missing, "error_ratio",
             "no error-ratio series: the dependency is taken as "
             "answering every call");
    if (p99s == nullptr)
      report(K::missing, "latency", "no latency quantiles: 20 ms median, 80 ms p99 assumed");
    // The healthy latency: the quietest tenth of the window.
    std::vector<double> quiet;
    for (const auto& v : p99)
      if (v && *v > 0) quiet.push_back(*v);
    std::sort(quiet.begin(), quiet.end());
    const double base_p99 = quiet.empty() ? 0.08 : quiet[quiet.size() / 10];

    struct Step {
      std::string state;
      double err = 0, p50 = 0, p99 = 0;
    };
    std::vector<Step> steps(grid_.size());
    // checkValues kept every sample within range: what is left to fill in is said.
    std::size_t zero_latency = 0, p50_above_p99 = 0, p50_assumed = 0;
    for (std::size_t i = 0; i < grid_.size(); ++i) {
      Step& s = steps[i];
      s.err = err[i].value_or(0.0);
      s.p99 = p99[i].value_or(base_p99);
      if (s.p99 < 1e-6) {
        ++zero_latency;
        s.p99 = 1e-6;
      }
      if (!p50[i]) ++p50_assumed;
      s.p50 = p50[i].value_or(s.p99 / 4);
      if (s.p50 < 1e-6) {
        ++zero_latency;
        s.p50 = 1e-6;
      }
      if (s.p50 > s.p99) {
        ++p50_above_p99;
        s.p50 = s.p99;
      }
      s.state = s.err >= 0.02 ? "erroring" : s.p99 > 2 * base_p99 ? "slow" : "healthy";
    }
    // Change points: a new segment where the state changes, or the error share moves by more
    // than 10 points or the p99 by more than half from where the segment began.
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= grid_.size(); ++i) {
      const bool cut = i == grid_.size() || steps[i].state != steps[begin].state ||
                       std::abs(steps[i].err - steps[begin].err) > 0.10 ||
                       steps[i].p99 > 1.5 * steps[begin].p99 ||
                       steps[i].p99 < steps[begin].p99 / 1.5;
      if (!cut) continue;
      double e = 0, a = 0, b = 0;
      for (std::size_t k = begin; k < i; ++k) {
        e += steps[k].err;
        a += steps[k].p50;
        b += steps[k].p99;
      }
      const double n = static_cast<double>(i - begin);
      DependencySegment seg;
      seg.state = steps[begin].state;
      seg.from = since(grid_[begin], t0_);
      seg.to = i < grid_.size() ? since(grid_[i], t0_) : inc.end;
      seg.health = seg.state == "healthy" ? Health::green : Health::red;
      seg.latency_start.kind = LatencyModel::Kind::lognormal;
      seg.latency_start.p50 = std::max<Micros>(std::llround(a / n * 1e6), 1);
      seg.latency_start.p99 = std::max<Micros>(std::llround(b / n * 1e6), seg.latency_start.p50);
      seg.latency_end = seg.latency_start;
      seg.mix_start.server_error = e / n;
      seg.mix_end = seg.mix_start;
      d.segments.push_back(seg);
      begin = i;
    }
    for (const DependencySegment& s : d.segments) {
      if (!d.health.empty() && d.health.back().health == s.health && d.health.back().to == s.from)
        d.health.back().to = s.to;
      else
        d.health.push_back({s.from, s.to, s.health});
    }
    std::size_t unhealthy = 0;
    for (const DependencySegment& s : d.segments) unhealthy += s.state != "healthy";
    report(K::recognised, "dependency segments",
           std::to_string(d.segments.size()) + " segments (" + std::to_string(unhealthy) +
               " not healthy) from the error ratio and latency: a new one where the state "
               "changes, the error share moves 10 points or the p99 by half");
    if (errors != nullptr)
      report(K::assumed, "dependency outcomes",
             "errors are server errors (5xx): the ratio does not say whether calls timed out or "
             "were refused; edit dependency.segments if they did");
    report(K::assumed, "dependency.health",
           "red while the dependency is not healthy: metrics do not record the health check");
    if (p99s != nullptr && role(PrometheusRole::latency_p99) == nullptr)
      report(K::assumed, "latency", "the latency_p95 series is taken as the p99");
    if (zero_latency > 0)
      report(K::assumed, "latency",
             std::to_string(zero_latency) +
                 " quantiles below 1 µs (a p50 or p99 of 0): taken as 1 µs");
    if (p99s != nullptr && p50_assumed > 0)
      report(K::assumed, "latency",
             std::to_string(p50_assumed) +
                 " sample times without a latency_p50: the median taken "
                 "as a quarter of the p99");
    if (p50_above_p99 > 0)
      report(K::assumed, "latency",
             std::to_string(p50_above_p99) +
                 " sample times with latency_p50 above the p99: the median taken as the p99");
  }

  std::map<PrometheusRole, std::vector<Series>> roles_;
  std::string file_;
  const PrometheusOrigin* origin_ = nullptr;
  ImportedIncident out_;
  std::vector<double> grid_;
  double t0_ = 0;
  Micros step_ = 15 * kSecond;
  std::string dependency_name_;
  const PrometheusMetricTable& table_;
  std::set<std::string> folded_;  // label values the table read as another state
  std::size_t ambiguous_steps_ = 0;
};

std::string_view roleKey(PrometheusRole role) {
  for (const RoleName& r : kRoles)
    if (r.role == role) return r.key;
  return "series";
}

// Each sample of a role's series as the role's quantity: a value out of its range is an error
// naming the sample, never clamped into range (a rate of 1e8 replayed as 1e6 would be a
// different incident). NaN is a gap (0/0 of an idle ratio); an infinity is not.
void checkValues(const std::vector<Series>& list, PrometheusRole role, const std::string& file) {
  if (role == PrometheusRole::breaker_state) return;  // states: any value, 1 marks the current one
  const std::string key(roleKey(role));
  for (const Series& s : list) {
    for (std::size_t i = 0; i < s.samples.size(); ++i) {
      const double v = s.samples[i].v;
      if (std::isnan(v)) continue;
      const std::string at = s.path + "/values/" + std::to_string(i) + ": " + key + " ";
      const auto fail = [&](const std::string& message) {
        throw LoadError(file, 0, 0, at + message);
      };
      if (!std::isfinite(v)) fail(formatNumber(v) + ": expected a finite number");
      switch (role) {
        case PrometheusRole::request_rate:
          if (v < 0)
            fail(formatNumber(v) + " per second is negative: expected a rate() of a counter");
          if (v > kMaxRequestRate)
            fail(formatNumber(v) + " per second is above the limit of " +
                 formatNumber(kMaxRequestRate) + " (is the query a rate per second?)");
          break;
        case PrometheusRole::error_ratio:
          if (v < 0 || v > 1)
            fail(formatNumber(v) + " is not a ratio from 0 to 1" +
                 (v > 1 && v <= 100 ? " (a percentage? divide it by 100)" : ""));
          break;
        default:  // latency quantiles, in seconds
          if (v < 0) fail(formatNumber(v) + " s is negative");
          if (v > kMaxLatencySeconds)
            fail(formatNumber(v) + " s is above the limit of " + formatNumber(kMaxLatencySeconds) +
                 " s (milliseconds? the quantiles are in seconds)");
          break;
      }
    }
  }
}

bool sameSamples(const Series& a, const Series& b) {
  if (a.samples.size() != b.samples.size()) return false;
  for (std::size_t i = 0; i < a.samples.size(); ++i) {
    const Sample& x = a.samples[i];
    const Sample& y = b.samples[i];
    if (x.t != y.t || !(x.v == y.v || (std::isnan(x.v) && std::isnan(y.v)))) return false;
  }
  return true;
}

// A series whose labels equal an earlier one's in the same response: Prometheus never returns
// that, so two responses (or two servers' answers) were merged. The same samples are read once,
// with a note; other samples are an error, since the lane or the sum would take either silently.
void dropDuplicates(std::vector<Series>& list, const std::string& file,
                    std::vector<std::string>& notes) {
  std::vector<Series> kept;
  for (Series& s : list) {
    const auto earlier = std::find_if(kept.begin(), kept.end(),
                                      [&](const Series& k) { return k.labels == s.labels; });
    if (earlier == kept.end()) {
      kept.push_back(std::move(s));
      continue;
    }
    if (!sameSamples(*earlier, s))
      throw LoadError(file, 0, 0,
                      s.path + ": a duplicate of " + earlier->path + " (the same series " +
                          seriesName(s) +
                          ") with other samples: Prometheus returns each series once, so two "
                          "responses were merged; keep one, or tell them apart by a label");
    notes.push_back(s.path + " is a duplicate of " + earlier->path + " (the same series " +
                    seriesName(s) + " with the same samples): read once");
  }
  list = std::move(kept);
}

bool isBreakerStateSeries(const Series& s, const PrometheusMetricTable& table) {
  const std::string name = s.label("__name__");
  return isPrometheusBreakerStateName(name) || table.matchNamed(name) != nullptr;
}

}  // namespace

bool isPrometheusBreakerStateName(std::string_view metric_name) {
  return std::any_of(
      kPrometheusBreakerStateNames.begin(), kPrometheusBreakerStateNames.end(),
      [&](std::string_view n) { return metric_name.find(n) != std::string_view::npos; });
}

std::array<std::string_view, 6> prometheusRoleKeys() {
  static_assert(std::size(kRoles) == 6);
  std::array<std::string_view, 6> out;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = kRoles[i].key;
  return out;
}

bool looksLikePrometheusRange(std::string_view head) {
  head = data_detail::skipUtf8Bom(head.substr(0, std::min<std::size_t>(head.size(), 65536)));
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '{') return false;
  // A response (its reader says what is wrong with a vector or a failed query).
  if (head.find("\"resultType\"") != std::string_view::npos) return true;
  if (head.find("\"status\"") != std::string_view::npos &&
      head.find("\"errorType\"") != std::string_view::npos)
    return true;
  for (const RoleName& r : kRoles)
    if (head.find("\"" + std::string(r.key) + "\"") != std::string_view::npos &&
        head.find("\"values\"") != std::string_view::npos)
      return true;
  return false;
}

ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed) {
  return importPrometheusRange(text, file_name, deployed, nullptr,
                               PrometheusMetricTable::defaults());
}

ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed, const PrometheusOrigin& origin) {
  return importPrometheusRange(text, file_name, deployed, &origin,
                               PrometheusMetricTable::defaults());
}

ImportedIncident importPrometheusRange(std::string_view text, const std::string& file_name,
                                       const Config& deployed, const PrometheusOrigin* origin,
                                       const PrometheusMetricTable& table) {
  json root;
  // A key twice in one object ({"request_rate": A, "request_rate": B}, or a label twice) would
  // keep only the last, silently: the first is found while parsing, the error comes after.
  // A set per open object: a list searched for each key made an object of n keys cost n^2.
  std::vector<std::unordered_set<std::string>> open_keys;
  std::string repeated_key;
  std::size_t repeated_depth = 0;
  const json::parser_callback_t find_repeats = [&](int depth, json::parse_event_t event,
                                                   json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open_keys.emplace_back();
    } else if (event == json::parse_event_t::object_end && !open_keys.empty()) {
      open_keys.pop_back();
    } else if (event == json::parse_event_t::key && !open_keys.empty() && repeated_key.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open_keys.back().insert(key).second) {
        repeated_key = key;
        repeated_depth = static_cast<std::size_t>(depth);
      }
    }
    return true;
  };
  // Deep nesting is refused before the parse (data_detail::prescanJson): nlohmann copies and
  // compares what it parsed by recursion.
  data_detail::prescanJson(text, file_name);
  try {
    root = json::parse(text.begin(), text.end(), find_repeats);
  } catch (const json::parse_error& e) {
    const data_detail::TextPosition at = data_detail::textPositionAt(
        text, std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size()));
    const int line = at.line, column = at.column;
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    if (const std::size_t colon = what.find(": ", what.find("column")); colon != std::string::npos)
      what = what.substr(colon + 2);
    throw LoadError(file_name, line, column, "JSON: " + clipText(what, 120));
  } catch (const json::out_of_range& e) {
    // "number overflow parsing '1e999'" (found by fuzz_prometheus): nlohmann gives no position.
    std::string what = e.what();
    if (const std::size_t end = what.find("] "); end != std::string::npos) what.erase(0, end + 2);
    throw LoadError(file_name, 0, 0, "JSON: " + clipText(what, 120));
  }
  if (!repeated_key.empty())
    throw LoadError(
        file_name, 0, 0,
        "the key \"" + clipText(repeated_key) + "\" appears twice in one object (" +
            (repeated_depth <= 1 ? std::string("at the top level")
                                 : "nested " + std::to_string(repeated_depth) + " deep") +
            "): JSON readers keep only the last; keep one");
  PrometheusReader reader(file_name);
  std::map<PrometheusRole, std::vector<Series>> roles;
  const bool bundle = root.is_object() && !root.contains("status") && !root.contains("data") &&
                      !root.contains("resultType");
  if (bundle) {
    for (auto it = root.begin(); it != root.end(); ++it) {
      const auto r = std::find_if(std::begin(kRoles), std::end(kRoles),
                                  [&](const RoleName& n) { return n.key == it.key(); });
      if (r == std::end(kRoles))
        reader.fail("/" + clipText(it.key()), "unknown role, expected one of " + roleKeys());
      roles[r->role] = reader.response(it.value(), "/" + it.key());
    }
  } else {
    for (Series& s : reader.response(root, "")) {
      if (!isBreakerStateSeries(s, table))
        reader.fail("/data/result",
                    "a series of '" + clipText(s.label("__name__")) +
                        "' is not a breaker state; for rates, ratios and latencies put each "
                        "query's response under its role: {\"breaker_state\": ..., "
                        "\"request_rate\": ..., \"error_ratio\": ..., \"latency_p99\": ...}");
      roles[PrometheusRole::breaker_state].push_back(std::move(s));
    }
  }
  std::vector<std::string> duplicates;
  for (auto& [role, list] : roles) {
    dropDuplicates(list, file_name, duplicates);
    checkValues(list, role, file_name);
  }
  PrometheusBuilder builder(std::move(roles), file_name, deployed, origin, table);
  ImportedIncident out = builder.build();
  for (std::string& d : duplicates)
    out.report.add(ImportFinding::Kind::note, 0, "duplicate series", std::move(d));
  if (std::string problem = validate(out.incident); !problem.empty())
    throw LoadError(file_name, 0, 0,
                    "the incident built from the metrics is not valid: " + problem);
  return out;
}

}  // namespace breakerlab
