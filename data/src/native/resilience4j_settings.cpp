// resilience4j CircuitBreaker instance properties as Spring Boot binds them
// (CommonCircuitBreakerConfigurationProperties.InstanceProperties): relaxed names (camelCase or
// kebab-case), Spring durations (10s, 500ms, PT10S, a bare number of ms), the binder's checks
// and its backoff quirks, and recordExceptions / ignoreExceptions by Java class.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <optional>

#include "breakerlab/data/values.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {

// The canonical exception BreakerLab's outcome classes raise, and the classes each one is an
// instance of (isAssignableFrom): what a name in recordExceptions / ignoreExceptions matches.
struct JavaException {
  CallOutcome outcome;
  std::string_view canonical;
  std::array<std::string_view, 9> supertypes;
};
constexpr std::array<JavaException, 5> kExceptions = {{
    {CallOutcome::timeout,
     "java.util.concurrent.TimeoutException",
     {"java.util.concurrent.TimeoutException", "java.lang.Exception", "java.lang.Throwable"}},
    {CallOutcome::refused,
     "java.net.ConnectException",
     {"java.net.ConnectException", "java.net.SocketException", "java.io.IOException",
      "java.lang.Exception", "java.lang.Throwable"}},
    {CallOutcome::server_error,
     "org.springframework.web.client.HttpServerErrorException",
     {"org.springframework.web.client.HttpServerErrorException",
      "org.springframework.web.client.HttpStatusCodeException",
      "org.springframework.web.client.RestClientResponseException",
      "org.springframework.web.client.RestClientException",
      "org.springframework.core.NestedRuntimeException", "java.lang.RuntimeException",
      "java.lang.Exception", "java.lang.Throwable"}},
    {CallOutcome::client_error,
     "org.springframework.web.client.HttpClientErrorException",
     {"org.springframework.web.client.HttpClientErrorException",
      "org.springframework.web.client.HttpStatusCodeException",
      "org.springframework.web.client.RestClientResponseException",
      "org.springframework.web.client.RestClientException",
      "org.springframework.core.NestedRuntimeException", "java.lang.RuntimeException",
      "java.lang.Exception", "java.lang.Throwable"}},
    {CallOutcome::pool_exhausted,
     "org.apache.http.conn.ConnectionPoolTimeoutException",
     {"org.apache.http.conn.ConnectionPoolTimeoutException",
      "org.apache.http.conn.ConnectTimeoutException", "java.io.InterruptedIOException",
      "java.io.IOException", "java.lang.Exception", "java.lang.Throwable"}},
}};

// The outcome classes a listed class matches; empty for a class none of them raises.
OutcomeSet matching(std::string_view java_class) {
  OutcomeSet set;
  for (const auto& e : kExceptions)
    for (std::string_view s : e.supertypes)
      if (!s.empty() && s == java_class) set.insert(e.outcome);
  return set;
}

// A client error is thrown only when the application maps 4xx to an exception, i.e. when a list
// names an HTTP exception class it is an instance of (not a catch-all like Exception).
bool namesHttpClientError(std::string_view java_class) {
  return java_class.find("org.springframework.web.client.") == 0 ||
         java_class == "org.springframework.core.NestedRuntimeException";
}

std::string canonicalKey(std::string_view key) {
  std::string out;
  for (char c : key)
    if (c != '-' && c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

// Spring's DurationStyle: simple (10s, 500ms, 1m, 2h, 1d, 100us, 10ns; a bare number is ms) or
// ISO-8601 (PT10S, PT0.5S, PT1M30S).
Micros readSpringDuration(SettingsReader& r, const YAML::Node& v, const std::string& path) {
  if (v.IsScalar()) {
    std::string s = v.Scalar();
    if (auto n = parseNumber(s)) {
      if (*n >= 0 && *n * kMillisecond <= static_cast<double>(kMaxDuration))
        return static_cast<Micros>(std::llround(*n * kMillisecond));
    }
    if (!s.empty() && (s[0] == 'P' || s[0] == 'p')) {
      // PnDTnHnMn.nS
      Micros total = 0;
      bool time = false, ok = s.size() > 1;
      std::size_t i = 1;
      while (ok && i < s.size()) {
        const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(s[i])));
        if (c == 'T') {
          time = true;
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < s.size() &&
               (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '-'))
          ++j;
        const auto n = parseNumber(s.substr(i, j - i));
        if (!n || j >= s.size()) {
          ok = false;
          break;
        }
        const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(s[j])));
        double scale = 0;
        if (!time && unit == 'D') scale = 86400e6;
        if (time && unit == 'H') scale = 3600e6;
        if (time && unit == 'M') scale = 60e6;
        if (time && unit == 'S') scale = 1e6;
        ok = scale > 0 &&
             std::abs(static_cast<double>(total) + *n * scale) <= static_cast<double>(kMaxDuration);
        if (ok) total += static_cast<Micros>(std::llround(*n * scale));
        i = j + 1;
      }
      if (ok && total >= 0) return total;
    } else {
      std::size_t j = 0;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      const auto n = parseNumber(s.substr(0, j));
      std::string unit = s.substr(j);
      for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const double scale = unit == "ns"   ? 1e-3
                           : unit == "us" ? 1
                           : unit == "ms" ? 1e3
                           : unit == "s"  ? 1e6
                           : unit == "m"  ? 60e6
                           : unit == "h"  ? 3600e6
                           : unit == "d"  ? 86400e6
                                          : 0;
      if (n && scale > 0 && *n * scale <= static_cast<double>(kMaxDuration))
        return static_cast<Micros>(std::llround(*n * scale));
    }
  }
  failExpected(r.source(), v, path, "a duration such as 10s, 500ms, PT10S or a number of ms");
}

// Reads one instance's properties into `p` (a map already merged with its base config).
void readResilience4jInstance(SettingsReader& r, const YAML::Node& node, const std::string& path,
                              Resilience4jSettings& p) {
  bool have_wait = false, have_multiplier = false;
  std::optional<YAML::Node> max_wait_node;  // handles: the entries do not outlive forEach
  bool exponential = false, randomized = false;
  std::optional<YAML::Node> exponential_node;
  std::vector<std::pair<std::string, YAML::Node>> record, ignore;
  const std::vector<std::string_view> known = {"slidingWindowType",
                                               "slidingWindowSize",
                                               "minimumNumberOfCalls",
                                               "failureRateThreshold",
                                               "slowCallRateThreshold",
                                               "slowCallDurationThreshold",
                                               "waitDurationInOpenState",
                                               "enableExponentialBackoff",
                                               "exponentialBackoffMultiplier",
                                               "exponentialMaxWaitDurationInOpenState",
                                               "enableRandomizedWait",
                                               "randomizedWaitFactor",
                                               "permittedNumberOfCallsInHalfOpenState",
                                               "maxWaitDurationInHalfOpenState",
                                               "transitionToStateAfterWaitDuration",
                                               "automaticTransitionFromOpenToHalfOpenEnabled",
                                               "recordExceptions",
                                               "ignoreExceptions",
                                               "baseConfig"};
  r.forEach(
      node, path, known,
      [&](const std::string& raw, const YAML::Node& v, const std::string& p_path) {
        const std::string key = canonicalKey(raw);
        auto percent = [&](double& out) {
          const double x = r.number(v, p_path, 0, 100);
          if (x < 1) failExpected(r.source(), v, p_path, "a percentage from 1 to 100");
          out = x;  // Spring binds a Float; the model compares in float
        };
        if (key == "slidingwindowtype") {
          std::string t = r.text(v, p_path);
          for (char& c : t)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c == '-' ? '_' : c)));
          if (t == "COUNT_BASED") {
            p.sliding_window_type = SlidingWindowType::count_based;
          } else if (t == "TIME_BASED") {
            p.sliding_window_type = SlidingWindowType::time_based;
          } else {
            failExpected(r.source(), v, p_path, "COUNT_BASED or TIME_BASED");
          }
        } else if (key == "slidingwindowsize") {
          // The model keeps one slot per call or second of the window.
          p.sliding_window_size = r.whole(v, p_path, 1, 1'000'000);
        } else if (key == "minimumnumberofcalls") {
          p.minimum_number_of_calls = r.whole(v, p_path, 1, 2'000'000'000);
        } else if (key == "failureratethreshold") {
          percent(p.failure_rate_threshold);
        } else if (key == "slowcallratethreshold") {
          percent(p.slow_call_rate_threshold);
        } else if (key == "slowcalldurationthreshold") {
          p.slow_call_duration_threshold = readSpringDuration(r, v, p_path);
          if (p.slow_call_duration_threshold <= 0)
            failExpected(r.source(), v, p_path, "a positive duration");
        } else if (key == "waitdurationinopenstate") {
          p.wait_duration_in_open_state = readSpringDuration(r, v, p_path);
          if (p.wait_duration_in_open_state < kMillisecond)
            failExpected(r.source(), v, p_path, "at least 1 ms");
          have_wait = true;
        } else if (key == "enableexponentialbackoff") {
          exponential = r.boolean(v, p_path);
          exponential_node = v;
        } else if (key == "exponentialbackoffmultiplier") {
          p.exponential_backoff_multiplier = r.number(v, p_path, 0, 1e6);
          if (p.exponential_backoff_multiplier <= 0)
            failExpected(r.source(), v, p_path, "a multiplier above 0");
          have_multiplier = true;
        } else if (key == "exponentialmaxwaitdurationinopenstate") {
          p.exponential_max_wait_duration_in_open_state = readSpringDuration(r, v, p_path);
          if (p.exponential_max_wait_duration_in_open_state < kMillisecond)
            failExpected(r.source(), v, p_path, "at least 1 ms");
          max_wait_node = v;
        } else if (key == "enablerandomizedwait") {
          randomized = r.boolean(v, p_path);
          if (randomized) {
            r.note(v, p_path +
                          ": a randomized wait draws Math.random() at every opening; replayed "
                          "at its mean, waitDurationInOpenState");
          }
        } else if (key == "randomizedwaitfactor") {
          p.randomized_wait_factor = r.number(v, p_path, 0, 1);
          if (p.randomized_wait_factor >= 1)
            failExpected(r.source(), v, p_path, "a factor in [0, 1)");
        } else if (key == "permittednumberofcallsinhalfopenstate") {
          p.permitted_number_of_calls_in_half_open_state = r.whole(v, p_path, 1, 1'000'000);
        } else if (key == "maxwaitdurationinhalfopenstate") {
          p.max_wait_duration_in_half_open_state = readSpringDuration(r, v, p_path);
        } else if (key == "transitiontostateafterwaitduration") {
          std::string t = r.text(v, p_path);
          for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          if (t == "OPEN") {
            p.transition_to_state_after_wait_duration = BreakerState::open;
          } else if (t == "CLOSED") {
            p.transition_to_state_after_wait_duration = BreakerState::closed;
          } else {
            failExpected(r.source(), v, p_path, "OPEN or CLOSED");
          }
        } else if (key == "automatictransitionfromopentohalfopenenabled") {
          p.automatic_transition_from_open_to_half_open_enabled = r.boolean(v, p_path);
        } else if (key == "recordexceptions" || key == "ignoreexceptions") {
          requireList(r.source(), v, p_path);
          auto& list = key == "recordexceptions" ? record : ignore;
          for (std::size_t i = 0; i < v.size(); ++i)
            list.push_back({r.text(v[i], indexPath(p_path, i)), v[i]});
        } else if (key == "baseconfig") {
          // Resolved by the caller before this map is read.
        } else if (key == "registerhealthindicator" || key == "allowhealthindicatortofail" ||
                   key == "eventconsumerbuffersize" || key == "writablestacktraceenabled" ||
                   key == "ignoreclassbindingexceptions") {
          if (r.strict()) return false;
          // No effect on any decision, but a line of the file an export does not write back.
          r.remark(v, p_path +
                          ": no effect on the breaker's decisions; an export does not "
                          "write it back");
        } else if (key == "recordfailurepredicate" || key == "recordresultpredicate" ||
                   key == "ignoreexceptionpredicate" || key == "initialstate") {
          if (r.strict()) return false;
          r.note(v, p_path +
                        ": application code or an initial state BreakerLab does not run; "
                        "ignored");
        } else {
          return false;
        }
        return true;
      });

  if (exponential && randomized)
    fail(r.source(), *exponential_node,
         path +
             ": enableExponentialBackoff and enableRandomizedWait are exclusive (Spring throws "
             "IllegalStateException)");
  // configureCircuitBreakerOpenStateIntervalFunction: a backoff only with waitDurationInOpenState.
  p.enable_exponential_backoff = exponential && have_wait;
  if (exponential && !have_wait)
    r.note(*exponential_node, path +
                                  ".enableExponentialBackoff: Spring builds the backoff only "
                                  "when waitDurationInOpenState is set; replayed with the fixed "
                                  "60 s default");
  if (p.enable_exponential_backoff && !have_multiplier) {
    p.exponential_backoff_multiplier = 1.5;
    if (max_wait_node) {
      r.note(*max_wait_node, path +
                                 ".exponentialMaxWaitDurationInOpenState: ignored by Spring "
                                 "unless exponentialBackoffMultiplier is set (the backoff grows "
                                 "1.5x without a cap)");
      p.exponential_max_wait_duration_in_open_state = 0;
    }
  }

  // The classification: ignore is checked before record; with a record list, a thrown exception
  // it does not match counts as a success.
  auto classes = [&](const std::vector<std::pair<std::string, YAML::Node>>& list, bool& http) {
    OutcomeSet set;
    for (const auto& [name, at] : list) {
      const OutcomeSet m = matching(name);
      if (m.empty())
        r.remark(at,
                 "'" + clipText(name) +
                     "': none of BreakerLab's outcome classes throws it "
                     "(they throw TimeoutException, ConnectException, HttpServerErrorException, "
                     "HttpClientErrorException, ConnectionPoolTimeoutException); no effect");
      for (int i = 0; i < kCallOutcomeCount; ++i)
        if (m.contains(static_cast<CallOutcome>(i))) set.insert(static_cast<CallOutcome>(i));
      http = http || namesHttpClientError(name);
    }
    return set;
  };
  bool throws_client_error = false;
  const OutcomeSet recorded = classes(record, throws_client_error);
  const OutcomeSet ignored = classes(ignore, throws_client_error);
  OutcomeClassification c;
  c.failures = {CallOutcome::failure};
  c.ignored = {};
  for (int i = 0; i < kCallOutcomeCount; ++i) {
    const auto o = static_cast<CallOutcome>(i);
    if (o == CallOutcome::success || o == CallOutcome::failure) continue;
    const bool thrown = o != CallOutcome::client_error || throws_client_error;
    if (!thrown) continue;
    if (ignored.contains(o)) {
      c.ignored.insert(o);
    } else if (record.empty() || recorded.contains(o)) {
      c.failures.insert(o);
    }
  }
  p.classification = c;
}

ordered_json resilience4jInstanceJson(const Resilience4jSettings& p) {
  ordered_json j;
  j["slidingWindowType"] =
      p.sliding_window_type == SlidingWindowType::time_based ? "TIME_BASED" : "COUNT_BASED";
  j["slidingWindowSize"] = p.sliding_window_size;
  j["minimumNumberOfCalls"] = p.minimum_number_of_calls;
  j["failureRateThreshold"] = p.failure_rate_threshold;
  j["slowCallRateThreshold"] = p.slow_call_rate_threshold;
  j["slowCallDurationThreshold"] = formatDuration(p.slow_call_duration_threshold);
  j["waitDurationInOpenState"] = formatDuration(p.wait_duration_in_open_state);
  if (p.enable_exponential_backoff) j["enableExponentialBackoff"] = true;
  if (p.enable_exponential_backoff || p.exponential_backoff_multiplier != 1.5)
    j["exponentialBackoffMultiplier"] = p.exponential_backoff_multiplier;
  if (p.exponential_max_wait_duration_in_open_state > 0)
    j["exponentialMaxWaitDurationInOpenState"] =
        formatDuration(p.exponential_max_wait_duration_in_open_state);
  if (p.enable_randomized_wait) {
    j["enableRandomizedWait"] = true;
    j["randomizedWaitFactor"] = p.randomized_wait_factor;
  }
  j["permittedNumberOfCallsInHalfOpenState"] = p.permitted_number_of_calls_in_half_open_state;
  if (p.max_wait_duration_in_half_open_state > 0)
    j["maxWaitDurationInHalfOpenState"] = formatDuration(p.max_wait_duration_in_half_open_state);
  if (p.transition_to_state_after_wait_duration == BreakerState::closed)
    j["transitionToStateAfterWaitDuration"] = "CLOSED";
  j["automaticTransitionFromOpenToHalfOpenEnabled"] =
      p.automatic_transition_from_open_to_half_open_enabled;
  // The exception lists that give back this classification.
  if (!(p.classification == OutcomeClassification{})) {
    ordered_json record = ordered_json::array(), ignore = ordered_json::array();
    for (const auto& e : kExceptions) {
      if (p.classification.failures.contains(e.outcome)) record.push_back(std::string(e.canonical));
      if (p.classification.ignored.contains(e.outcome)) ignore.push_back(std::string(e.canonical));
    }
    j["recordExceptions"] = record;
    if (!ignore.empty()) j["ignoreExceptions"] = ignore;
  }
  return j;
}

}  // namespace breakerlab::data_detail
