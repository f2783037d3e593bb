// gobreaker.Settings in YAML or JSON with the Go field names: MaxRequests, Interval,
// BucketPeriod, Timeout (durations such as 10s or 500ms), ReadyToTrip (the Go expression or func),
// and BreakerLab's lists for what IsSuccessful and IsExcluded decide: Failures (the errors that
// count; default every error class), Successful (errors IsSuccessful accepts) and Excluded.
#include <cctype>
#include <cmath>

#include "breakerlab/data/values.h"
#include "go_syntax.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {
// Go's time.ParseDuration forms too: "1m30s", "1h".
Micros readGoDurationText(SettingsReader& r, const YAML::Node& v, const std::string& path) {
  if (v.IsScalar()) {
    const std::string& s = v.Scalar();
    if (s == "0") return 0;
    if (auto d = parseDuration(s)) return *d;
    // Compound Go form: 1h2m3.5s
    Micros total = 0;
    std::size_t i = 0;
    bool ok = !s.empty();
    while (ok && i < s.size()) {
      std::size_t j = i;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      std::size_t k = j;
      while (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k]))) ++k;
      const auto n = parseNumber(s.substr(i, j - i));
      const std::string unit = s.substr(j, k - j);
      const double scale = unit == "h"                    ? 3600e6
                           : unit == "m"                  ? 60e6
                           : unit == "s"                  ? 1e6
                           : unit == "ms"                 ? 1e3
                           : unit == "us" || unit == "µs" ? 1
                                                          : 0;
      ok = n && scale > 0 && j > i &&
           std::abs(static_cast<double>(total) + *n * scale) <= static_cast<double>(kMaxDuration);
      if (ok) total += static_cast<Micros>(std::llround(*n * scale));
      i = k;
    }
    if (ok) return total;
  }
  failExpected(r.source(), v, path, "a Go duration such as 10s, 500ms or 1m30s");
}

}  // namespace

std::string gobreakerWindowProblem(const GobreakerSettings& g) {
  if (g.interval > 0 && g.bucket_period > 0 && g.bucket_period < kMillisecond)
    return "BucketPeriod below 1 ms: BreakerLab keeps one bucket per period and reads periods "
           "of 1 ms and more";
  if (g.interval > 0 && g.bucket_period > 0 &&
      (g.interval + g.bucket_period - 1) / g.bucket_period > kMaxGobreakerBuckets)
    return "Interval / BucketPeriod makes more than " + std::to_string(kMaxGobreakerBuckets) +
           " buckets";
  return {};
}

namespace {
constexpr OutcomeSet kErrorClasses{CallOutcome::timeout, CallOutcome::refused,
                                   CallOutcome::server_error, CallOutcome::pool_exhausted,
                                   CallOutcome::failure};
}  // namespace

void readGobreakerSettings(SettingsReader& r, const YAML::Node& node, const std::string& path,
                           GobreakerSettings& g) {
  OutcomeSet successful;
  bool have_failures = false;
  YAML::Node window_node;
  std::string window_path;
  r.forEach(node, path,
            {"Name", "MaxRequests", "Interval", "BucketPeriod", "Timeout", "ReadyToTrip",
             "Failures", "Successful", "Excluded"},
            [&](const std::string& key, const YAML::Node& v, const std::string& p) {
              if (key == "Name") {
                g.name = r.text(v, p);
              } else if (key == "MaxRequests") {
                g.max_requests = r.whole(v, p, 0, 4'294'967'295u);
              } else if (key == "Interval" || key == "BucketPeriod") {
                (key == "Interval" ? g.interval : g.bucket_period) = readGoDurationText(r, v, p);
                window_node = v;
                window_path = p;
              } else if (key == "Timeout") {
                g.timeout = readGoDurationText(r, v, p);
              } else if (key == "ReadyToTrip") {
                const std::string text = r.text(v, p);
                try {
                  g.ready_to_trip = parseReadyToTripText(text);
                } catch (const GoSyntaxError& e) {
                  const Position at = positionWithin(r.source(), v, 0);
                  failAt(r.source(), {at.line, at.column + (e.line == 1 ? e.column - 1 : 0)},
                         p + ": " + e.message);
                }
              } else if (key == "Failures") {
                g.classification.failures = r.outcomes(v, p);
                have_failures = true;
              } else if (key == "Successful") {
                successful = r.outcomes(v, p);
              } else if (key == "Excluded") {
                g.classification.ignored = r.outcomes(v, p);
                if (g.classification.ignored.contains(CallOutcome::client_error))
                  fail(r.source(), v,
                       p + ": a client error reaches gobreaker as a nil error "
                           "(the application returns it as a value), which "
                           "IsExcluded cannot tell from a success");
              } else {
                return false;
              }
              return true;
            });
  if (const std::string problem = gobreakerWindowProblem(g); !problem.empty())
    fail(r.source(), window_node, window_path + ": " + problem);
  if (!have_failures) g.classification.failures = kErrorClasses;
  for (int i = 0; i < kCallOutcomeCount; ++i) {
    const auto o = static_cast<CallOutcome>(i);
    if (successful.contains(o) && o != CallOutcome::failure) {
      OutcomeSet f;
      for (int k = 0; k < kCallOutcomeCount; ++k) {
        const auto x = static_cast<CallOutcome>(k);
        if (x != o && g.classification.failures.contains(x)) f.insert(x);
      }
      g.classification.failures = f;
    }
  }
}

ordered_json gobreakerSettingsJson(const GobreakerSettings& g) {
  ordered_json j;
  if (!g.name.empty()) j["Name"] = g.name;
  j["MaxRequests"] = g.max_requests;
  j["Interval"] = formatDuration(g.interval);
  if (g.bucket_period != 0) j["BucketPeriod"] = formatDuration(g.bucket_period);
  j["Timeout"] = formatDuration(g.timeout);
  if (!g.ready_to_trip.library_default) j["ReadyToTrip"] = formatReadyToTrip(g.ready_to_trip);
  if (!(g.classification.failures == kErrorClasses)) {
    ordered_json list = ordered_json::array();
    for (int i = 0; i < kCallOutcomeCount; ++i) {
      const auto o = static_cast<CallOutcome>(i);
      if (g.classification.failures.contains(o)) list.push_back(std::string(toString(o)));
    }
    j["Failures"] = list;
  }
  if (!g.classification.ignored.empty()) {
    ordered_json list = ordered_json::array();
    for (int i = 0; i < kCallOutcomeCount; ++i) {
      const auto o = static_cast<CallOutcome>(i);
      if (g.classification.ignored.contains(o)) list.push_back(std::string(toString(o)));
    }
    j["Excluded"] = list;
  }
  return j;
}

}  // namespace breakerlab::data_detail
