// opossum's options object (lib/circuit.js constructor), in its units: milliseconds.
#include <cmath>

#include "breakerlab/data/values.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {
constexpr double kOpossumMaxMs = 1e12;
constexpr std::uint64_t kMaxSafeInteger = (1ull << 53) - 1;

bool isWhole(const YAML::Node& v) {
  if (!v.IsScalar()) return false;
  const auto n = parseNumber(v.Scalar());
  return n && *n == std::floor(*n);
}
}  // namespace

void readOpossumOptions(SettingsReader& r, const YAML::Node& node, const std::string& path,
                        OpossumOptions& o) {
  const std::vector<std::string_view> known = {"timeout",
                                               "errorThresholdPercentage",
                                               "resetTimeout",
                                               "rollingCountTimeout",
                                               "rollingCountBuckets",
                                               "volumeThreshold",
                                               "allowWarmUp",
                                               "capacity",
                                               "enabled",
                                               "name",
                                               "breakerlab"};
  r.forEach(
      node, path, known, [&](const std::string& key, const YAML::Node& v, const std::string& p) {
        if (key == "timeout") {
          // `timeout: false` (or 0) turns opossum's own timer off.
          if (v.IsScalar() && v.Scalar() == "false") {
            o.timeout = 0;
          } else {
            o.timeout = r.millis(v, p, kOpossumMaxMs);
          }
        } else if (key == "errorThresholdPercentage") {
          o.error_threshold_percentage = r.number(v, p, 0, 100);
        } else if (key == "resetTimeout") {
          o.reset_timeout = r.millis(v, p, kOpossumMaxMs);
        } else if (key == "rollingCountTimeout") {
          o.rolling_count_timeout = r.millis(v, p, kOpossumMaxMs);
        } else if (key == "rollingCountBuckets") {
          o.rolling_count_buckets = r.whole(v, p, 0, 1'000'000);
        } else if (key == "volumeThreshold") {
          // Number.isInteger(volumeThreshold) ? volumeThreshold : 0
          if (isWhole(v)) {
            o.volume_threshold = r.whole(v, p, 0, 4'000'000'000u);
          } else {
            o.volume_threshold = 0;
            r.note(v, p + ": not an integer, so opossum uses 0");
          }
        } else if (key == "allowWarmUp") {
          o.allow_warm_up = r.boolean(v, p);
        } else if (key == "capacity") {
          if (isWhole(v)) {
            o.capacity =
                static_cast<std::uint64_t>(r.number(v, p, 0, static_cast<double>(kMaxSafeInteger)));
          } else {
            o.capacity = kMaxSafeInteger;
            r.note(v, p + ": not an integer, so opossum uses Number.MAX_SAFE_INTEGER");
          }
        } else if (key == "enabled") {
          o.enabled = r.boolean(v, p);
        } else if (key == "name") {
          o.name = r.text(v, p);
        } else if (key == "breakerlab") {
          readClassificationExtension(r, v, p, o.classification);
        } else if (key == "cache" || key == "cacheTTL" || key == "cacheSize" || key == "coalesce" ||
                   key == "coalesceTTL" || key == "coalesceSize" || key == "coalesceResetOn") {
          if (r.strict()) return false;
          r.note(v, p + ": opossum's result cache and coalescing are not modelled (a hit skips the "
                        "breaker's counts); replayed as off");
        } else if (key == "group" || key == "rollingPercentilesEnabled" ||
                   key == "enableSnapshots") {
          if (r.strict()) return false;
          // No effect on any decision, but an option an export does not write back.
          r.remark(v, p + ": no effect on the breaker's decisions; an export does not write it "
                          "back");
        } else {
          return false;
        }
        return true;
      });
}

ordered_json opossumOptionsJson(const OpossumOptions& o) {
  ordered_json j;
  if (!o.name.empty()) j["name"] = o.name;
  j["timeout"] = o.timeout == 0 ? ordered_json(false) : millisJson(o.timeout);
  j["errorThresholdPercentage"] = o.error_threshold_percentage;
  if (o.error_threshold_percentage == std::floor(o.error_threshold_percentage))
    j["errorThresholdPercentage"] = static_cast<std::int64_t>(o.error_threshold_percentage);
  j["resetTimeout"] = millisJson(o.reset_timeout);
  j["rollingCountTimeout"] = millisJson(o.rolling_count_timeout);
  j["rollingCountBuckets"] = o.rolling_count_buckets;
  j["volumeThreshold"] = o.volume_threshold;
  j["allowWarmUp"] = o.allow_warm_up;
  if (o.capacity != kMaxSafeInteger) j["capacity"] = o.capacity;
  if (!o.enabled) j["enabled"] = false;
  if (auto c = classificationJson(o.classification); !c.is_null()) j["breakerlab"] = c;
  return j;
}

ordered_json millisJson(Micros d) {
  if (d % kMillisecond == 0) return d / kMillisecond;
  return static_cast<double>(d) / kMillisecond;
}

ordered_json classificationJson(const OutcomeClassification& c) {
  if (c == OutcomeClassification{}) return nullptr;
  auto list = [](OutcomeSet set) {
    ordered_json a = ordered_json::array();
    for (int i = 0; i < kCallOutcomeCount; ++i) {
      const auto o = static_cast<CallOutcome>(i);
      if (set.contains(o)) a.push_back(std::string(toString(o)));
    }
    return a;
  };
  ordered_json j;
  j["failures"] = list(c.failures);
  if (!c.ignored.empty()) j["ignored"] = list(c.ignored);
  return j;
}

}  // namespace breakerlab::data_detail
