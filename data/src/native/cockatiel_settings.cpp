// cockatiel's circuitBreaker() options as JSON mirroring its constructors (milliseconds):
// {"halfOpenAfter": ms | {"type": "exponential", ...}, "breaker": {"type": ...},
//  "halfOpenSampling": {"calls", "threshold"}}. The checks are the constructors' RangeErrors.
#include <cmath>
#include <optional>

#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {
constexpr double kMaxMs = 1e12;

void readBackoff(SettingsReader& r, const YAML::Node& node, const std::string& path,
                 CockatielBackoff& b) {
  if (node.IsScalar()) {
    b.kind = CockatielBackoff::Kind::constant;
    b.delay = r.millis(node, path, kMaxMs);
    return;
  }
  std::string type = "exponential";
  if (node.IsMap() && node["type"]) type = r.text(node["type"], joinPath(path, "type"));
  if (type == "constant") {
    b.kind = CockatielBackoff::Kind::constant;
  } else if (type == "exponential") {
    b.kind = CockatielBackoff::Kind::exponential;
  } else {
    failExpected(r.source(), node["type"], joinPath(path, "type"),
                 "\"constant\" or \"exponential\"");
  }
  bool generator = false;
  r.forEach(node, path, {"type", "delay", "initialDelay", "maxDelay", "exponent", "generator"},
            [&](const std::string& key, const YAML::Node& v, const std::string& p) {
              if (key == "type") return true;
              if (key == "generator") generator = true;
              if (key == "delay" && b.kind == CockatielBackoff::Kind::constant) {
                b.delay = r.millis(v, p, kMaxMs);
              } else if (key == "initialDelay" && b.kind == CockatielBackoff::Kind::exponential) {
                b.initial_delay = r.millis(v, p, kMaxMs);
              } else if (key == "maxDelay" && b.kind == CockatielBackoff::Kind::exponential) {
                b.max_delay = r.millis(v, p, kMaxMs);
              } else if (key == "exponent" && b.kind == CockatielBackoff::Kind::exponential) {
                b.exponent = r.number(v, p, 1, 100);
              } else if (key == "generator" && b.kind == CockatielBackoff::Kind::exponential) {
                const std::string g = r.text(v, p);
                if (g != "noJitter" && g != "noJitterGenerator") {
                  if (g != "fullJitter" && g != "halfJitter" && g != "decorrelatedJitter")
                    failExpected(r.source(), v, p,
                                 "one of noJitter, fullJitter, halfJitter, decorrelatedJitter");
                  // A jittered generator draws Math.random(): no replay can match it call for call.
                  r.note(v, p + ": " + g +
                                " draws Math.random(); replayed as noJitterGenerator, the "
                                "deterministic upper bound");
                }
              } else {
                return false;
              }
              return true;
            });
  // ExponentialBackoff's default generator is decorrelatedJitterGenerator.
  if (b.kind == CockatielBackoff::Kind::exponential && !generator)
    r.note(node, path +
                     ": no generator: cockatiel's default, decorrelatedJitterGenerator, draws "
                     "Math.random(); replayed as noJitterGenerator, the deterministic upper bound");
}

void readCockatielBreaker(SettingsReader& r, const YAML::Node& node, const std::string& path,
                          CockatielBreakerSpec& b) {
  if (!node.IsMap() || !node["type"])
    failExpected(r.source(), node, path,
                 "a map with type: \"consecutive\", \"count\" or \"sampling\"");
  const YAML::Node type_node = node["type"];
  const std::string type = r.text(type_node, joinPath(path, "type"));
  if (type == "consecutive") {
    b.kind = CockatielBreakerSpec::Kind::consecutive;
  } else if (type == "count") {
    b.kind = CockatielBreakerSpec::Kind::count;
  } else if (type == "sampling") {
    b.kind = CockatielBreakerSpec::Kind::sampling;
  } else {
    failExpected(r.source(), type_node, joinPath(path, "type"),
                 "\"consecutive\", \"count\" or \"sampling\"");
  }
  std::optional<YAML::Node> min_calls;  // a handle: the entries do not outlive forEach
  std::string min_calls_path;
  r.forEach(node, path,
            {"type", "threshold", "size", "minimumNumberOfCalls", "duration", "minimumRps"},
            [&](const std::string& key, const YAML::Node& v, const std::string& p) {
              using K = CockatielBreakerSpec::Kind;
              if (key == "type") return true;
              if (key == "threshold" && b.kind == K::consecutive) {
                b.consecutive_threshold = r.whole(v, p, 1, 4'000'000'000u);
              } else if (key == "threshold") {
                b.threshold = r.number(v, p, 0, 1);
                if (b.threshold <= 0 || b.threshold >= 1)
                  failExpected(r.source(), v, p, "a number between 0 and 1, both excluded");
              } else if (key == "size" && b.kind == K::count) {
                // The model keeps one slot per call of the window.
                b.size = r.whole(v, p, 1, 1'000'000);
              } else if (key == "minimumNumberOfCalls" && b.kind == K::count) {
                min_calls = v;
                min_calls_path = p;
              } else if (key == "duration" && b.kind == K::sampling) {
                // One window per second of the duration (at least 5).
                b.duration = r.millis(v, p, kMaxMs);
                if (b.duration < kMillisecond || b.duration > 86'400 * kSecond)
                  failExpected(r.source(), v, p, "from 1 ms to 1 day (86400000 ms)");
              } else if (key == "minimumRps" && b.kind == K::sampling) {
                b.minimum_rps = r.number(v, p, 0, 1e9);
              } else {
                return false;
              }
              return true;
            });
  // minimumNumberOfCalls defaults to size (kept as 0 so that it follows a new size).
  if (min_calls) b.minimum_number_of_calls = r.whole(*min_calls, min_calls_path, 1, b.size);
}
}  // namespace

void readCockatielSettings(SettingsReader& r, const YAML::Node& node, const std::string& path,
                           CockatielSettings& c) {
  r.forEach(node, path, {"halfOpenAfter", "breaker", "halfOpenSampling", "breakerlab"},
            [&](const std::string& key, const YAML::Node& v, const std::string& p) {
              if (key == "halfOpenAfter") {
                readBackoff(r, v, p, c.half_open_after);
              } else if (key == "breaker") {
                readCockatielBreaker(r, v, p, c.breaker);
              } else if (key == "halfOpenSampling") {
                r.forEach(v, p, {"calls", "threshold"},
                          [&](const std::string& k, const YAML::Node& x, const std::string& q) {
                            if (k == "calls") {
                              c.half_open_calls = r.whole(x, q, 1, 1'000'000);
                            } else if (k == "threshold") {
                              c.half_open_threshold = r.number(x, q, 0, 1);
                              if (c.half_open_threshold >= 1)
                                failExpected(r.source(), x, q, "a number in [0, 1)");
                            } else {
                              return false;
                            }
                            return true;
                          });
              } else if (key == "breakerlab") {
                readClassificationExtension(r, v, p, c.classification);
              } else {
                return false;
              }
              return true;
            });
}

ordered_json cockatielSettingsJson(const CockatielSettings& c) {
  ordered_json j;
  const CockatielBackoff& b = c.half_open_after;
  if (b.kind == CockatielBackoff::Kind::constant) {
    j["halfOpenAfter"] = millisJson(b.delay);
  } else {
    j["halfOpenAfter"] = {{"type", "exponential"},
                          {"initialDelay", millisJson(b.initial_delay)},
                          {"maxDelay", millisJson(b.max_delay)},
                          {"exponent", b.exponent},
                          {"generator", "noJitter"}};
  }
  const CockatielBreakerSpec& s = c.breaker;
  switch (s.kind) {
    case CockatielBreakerSpec::Kind::consecutive:
      j["breaker"] = {{"type", "consecutive"}, {"threshold", s.consecutive_threshold}};
      break;
    case CockatielBreakerSpec::Kind::count:
      j["breaker"] = {{"type", "count"}, {"threshold", s.threshold}, {"size", s.size}};
      if (s.minimum_number_of_calls != 0)
        j["breaker"]["minimumNumberOfCalls"] = s.minimum_number_of_calls;
      break;
    case CockatielBreakerSpec::Kind::sampling:
      j["breaker"] = {
          {"type", "sampling"}, {"threshold", s.threshold}, {"duration", millisJson(s.duration)}};
      if (s.minimum_rps != 0) j["breaker"]["minimumRps"] = s.minimum_rps;
      break;
  }
  j["halfOpenSampling"] = {{"calls", c.half_open_calls}, {"threshold", c.half_open_threshold}};
  if (auto cl = classificationJson(c.classification); !cl.is_null()) j["breakerlab"] = cl;
  return j;
}

}  // namespace breakerlab::data_detail
