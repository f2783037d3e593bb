// Polly v8 CircuitBreakerStrategyOptions as Microsoft.Extensions.Configuration binds them from
// appsettings.json: FailureRatio, MinimumThroughput, SamplingDuration and BreakDuration as .NET
// TimeSpans ("00:00:05"), with Polly's DataAnnotations ranges. ShouldHandle and a
// BreakDurationGenerator are code: the `breakerlab` extension stands for them.
#include <cctype>
#include <cmath>

#include "breakerlab/data/values.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {

// TimeSpan.Parse: [-]d | [-][d.]hh:mm[:ss[.fffffff]]. A bare number is days, as .NET reads it.
std::optional<Micros> parseTimeSpan(const std::string& s) {
  if (s.empty() || s[0] == '-') return std::nullopt;
  if (s.find(':') == std::string::npos) {
    const auto days = parseNumber(s);
    if (!days || *days != std::floor(*days) ||
        *days * 86400 * kSecond > static_cast<double>(kMaxDuration))
      return std::nullopt;
    return static_cast<Micros>(*days * 86400) * kSecond;
  }
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    const std::size_t c = s.find(':', from);
    parts.push_back(s.substr(from, c == std::string::npos ? std::string::npos : c - from));
    if (c == std::string::npos) break;
    from = c + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  double days = 0;
  std::string hours = parts[0];
  if (const std::size_t dot = hours.find('.'); dot != std::string::npos) {
    const auto d = parseNumber(hours.substr(0, dot));
    if (!d) return std::nullopt;
    days = *d;
    hours = hours.substr(dot + 1);
  }
  const auto h = parseNumber(hours);
  const auto m = parseNumber(parts[1]);
  const auto sec = parts.size() == 3 ? parseNumber(parts[2]) : std::optional<double>(0.0);
  if (!h || !m || !sec || *h >= 24 || *m >= 60 || *sec >= 60 || *h < 0 || *m < 0 || *sec < 0)
    return std::nullopt;
  const double total_s = days * 86400 + *h * 3600 + *m * 60 + *sec;
  if (days < 0 || total_s * kSecond > static_cast<double>(kMaxDuration)) return std::nullopt;
  return static_cast<Micros>(std::llround(total_s * kSecond));
}

Micros readTimeSpan(SettingsReader& r, const YAML::Node& v, const std::string& path,
                    bool check_range) {
  std::optional<Micros> t;
  if (v.IsScalar()) t = parseTimeSpan(v.Scalar());
  if (!t)
    failExpected(r.source(), v, path,
                 "a TimeSpan such as \"00:00:05\" or \"00:00:00.500\" ([d.]hh:mm:ss[.fff])");
  if (check_range && (*t < 500 * kMillisecond || *t > 86400 * kSecond))
    failExpected(r.source(), v, path, "a TimeSpan from 00:00:00.500 to 1.00:00:00 (Polly's range)");
  return *t;
}

void readGenerator(SettingsReader& r, const YAML::Node& v, const std::string& path,
                   PollySettings& p) {
  p.generator = true;
  r.forEach(v, path, {"Multiplier", "Max"},
            [&](const std::string& key, const YAML::Node& x, const std::string& q) {
              if (key == "Multiplier") {
                p.generator_multiplier = r.number(x, q, 0, 1e6);
              } else if (key == "Max") {
                p.generator_max = readTimeSpan(r, x, q, false);
              } else {
                return false;
              }
              return true;
            });
}

}  // namespace

// A TimeSpan as .NET writes it: [d.]hh:mm:ss[.fffffff].
std::string formatTimeSpan(Micros d) {
  const std::int64_t days = d / (86400 * kSecond);
  Micros rest = d % (86400 * kSecond);
  const int h = static_cast<int>(rest / (3600 * kSecond));
  rest %= 3600 * kSecond;
  const int m = static_cast<int>(rest / (60 * kSecond));
  rest %= 60 * kSecond;
  const int s = static_cast<int>(rest / kSecond);
  const Micros frac = rest % kSecond;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%02d:%02d:%02d", h, m, s);
  std::string out = days > 0 ? std::to_string(days) + "." + buf : buf;
  if (frac != 0) {
    char f[16];
    std::snprintf(f, sizeof f, ".%06lld", static_cast<long long>(frac));
    std::string fs = f;
    while (fs.back() == '0') fs.pop_back();
    out += fs;
  }
  return out;
}

void readPollyOptions(SettingsReader& r, const YAML::Node& node, const std::string& path,
                      PollySettings& p) {
  r.forEach(node, path,
            {"FailureRatio", "MinimumThroughput", "SamplingDuration", "BreakDuration",
             "BreakDurationGenerator", "breakerlab"},
            [&](const std::string& key, const YAML::Node& v, const std::string& q) {
              if (key == "FailureRatio") {
                p.failure_ratio = r.number(v, q, 0, 1);
              } else if (key == "MinimumThroughput") {
                p.minimum_throughput = r.whole(v, q, 2, 2'147'483'647u);
              } else if (key == "SamplingDuration") {
                p.sampling_duration = readTimeSpan(r, v, q, true);
              } else if (key == "BreakDuration") {
                p.break_duration = readTimeSpan(r, v, q, true);
              } else if (key == "BreakDurationGenerator") {
                // Code in C#; BreakerLab's one shape of it, min(Max, BreakDuration * Multiplier^n).
                readGenerator(r, v, q, p);
              } else if (key == "breakerlab") {
                r.forEach(v, q, {"failures", "ignored", "BreakDurationGenerator", "section"},
                          [&](const std::string& k, const YAML::Node& x, const std::string& xq) {
                            if (k == "section") {
                              // breakerlab-config's: the appsettings.json section's name.
                              p.name = r.text(x, xq);
                            } else if (k == "failures") {
                              p.classification.failures = r.outcomes(x, xq);
                            } else if (k == "ignored") {
                              // Polly has no "neither": an unhandled outcome is a success.
                              r.note(x, xq + ": Polly counts every outcome ShouldHandle does not "
                                             "handle as a success; these are successes");
                            } else if (k == "BreakDurationGenerator") {
                              readGenerator(r, x, xq, p);
                            } else {
                              return false;
                            }
                            return true;
                          });
              } else if (key == "ShouldHandle" || key == "StateProvider" ||
                         key == "ManualControl" || key == "Name" || key == "OnOpened" ||
                         key == "OnClosed" || key == "OnHalfOpened") {
                if (r.strict()) return false;
                r.note(v, q + ": code, not configuration; ignored");
              } else {
                return false;
              }
              return true;
            });
}

// The options as BreakerLab writes them: every value, TimeSpans in .NET's form.
ordered_json pollyOptionsJson(const PollySettings& p) {
  ordered_json j;
  j["FailureRatio"] = p.failure_ratio;
  j["MinimumThroughput"] = p.minimum_throughput;
  j["SamplingDuration"] = formatTimeSpan(p.sampling_duration);
  j["BreakDuration"] = formatTimeSpan(p.break_duration);
  ordered_json ext;
  if (p.generator) {
    ext["BreakDurationGenerator"] = {{"Multiplier", p.generator_multiplier}};
    if (p.generator_max > 0) ext["BreakDurationGenerator"]["Max"] = formatTimeSpan(p.generator_max);
  }
  if (auto c = classificationJson(p.classification); !c.is_null()) ext["failures"] = c["failures"];
  if (!ext.is_null()) j["breakerlab"] = ext;
  return j;
}

// An appsettings.json: the options themselves, or the first "CircuitBreaker" section in it.
void readPollyFile(SettingsReader& r, const YAML::Node& root, PollySettings& p) {
  if (root.IsMap() && (root["FailureRatio"] || root["BreakDuration"] || root["SamplingDuration"] ||
                       root["MinimumThroughput"])) {
    readPollyOptions(r, root, "", p);
    return;
  }
  // `section`: the keys down to `n` as .NET names a nested section ("Resilience:Pricing").
  std::function<bool(const YAML::Node&, const std::string&, const std::string&)> find =
      [&](const YAML::Node& n, const std::string& path, const std::string& section) -> bool {
    if (!n.IsMap()) return false;
    for (const auto& kv : n) {
      const std::string key = kv.first.Scalar();
      const std::string child = joinPath(path, key);
      if (key == "CircuitBreaker" && kv.second.IsMap()) {
        readPollyOptions(r, kv.second, child, p);
        p.name = section;
        for (const auto& sibling : n) {
          const std::string s = sibling.first.Scalar();
          if (s != "CircuitBreaker")
            r.remark(sibling.first,
                     joinPath(path, s) +
                         ": not the breaker; BreakerLab's retry and timeout "
                         "settings are its own knobs and are not imported from here");
        }
        return true;
      }
      if (find(kv.second, child, section.empty() ? key : section + ":" + key)) {
        // The rest of appsettings.json (Logging, ConnectionStrings, ...) is the application's:
        // an export writes only the breaker's section, so it says what it leaves out.
        for (const auto& other : n)
          if (other.first.Scalar() != key)
            r.remark(other.first, joinPath(path, other.first.Scalar()) +
                                      ": not the circuit breaker's section; BreakerLab reads "
                                      "only " +
                                      child + ".CircuitBreaker and an export writes only that");
        return true;
      }
    }
    return false;
  };
  if (!find(root, "", ""))
    fail(r.source(), root,
         "no circuit breaker options here: expected FailureRatio, MinimumThroughput, "
         "SamplingDuration, BreakDuration, or a \"CircuitBreaker\" section holding them");
}

}  // namespace breakerlab::data_detail
