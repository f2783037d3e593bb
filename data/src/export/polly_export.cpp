// Polly v8 (appsettings.json with a CircuitBreaker section): the library's own options, or the
// generic BreakerLab machine translated.
#include <algorithm>
#include <cmath>

#include "../native/library_settings.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

namespace {
// JSON has no comments: the header goes into the breakerlab extension, which the binder skips.
ExportedConfig pollyFile(const PollySettings& p, const std::string& name,
                         std::vector<std::string> notes) {
  data_detail::ordered_json options = data_detail::pollyOptionsJson(p);
  auto& ext = options["breakerlab"];
  ext["exported_by"] = "BreakerLab, as Polly (appsettings.json)";
  if (!notes.empty()) ext["not_expressible"] = notes;
  data_detail::ordered_json root;
  root[name]["CircuitBreaker"] = options;
  return withHeader("", ExportTarget::polly, "Polly", std::move(notes), root.dump(2) + "\n");
}

Micros clampBreak(Micros d) {
  return std::clamp<Micros>(d, 500 * kMillisecond, 86400 * kSecond);
}
}  // namespace

ExportedConfig exportPollyNative(const Config& c, const std::string& name) {
  return pollyFile(c.native.polly, name, outsideTheBreaker(c, ExportTarget::polly));
}

ExportedConfig exportPollyFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  PollySettings p;
  std::vector<std::string> notes;
  switch (b.window_type) {
    case WindowType::time:
      p.sampling_duration = clampBreak(static_cast<Micros>(b.window_size) * kSecond);
      break;
    case WindowType::count:
      p.sampling_duration = 10 * kSecond;
      notes.push_back("count window (last " + callsText(b.window_size) +
                      "): Polly samples by time; SamplingDuration 00:00:10, in 10 sub-windows "
                      "that start at events");
      break;
    case WindowType::consecutive:
      p.sampling_duration = 10 * kSecond;
      notes.push_back(std::to_string(b.consecutive_failures) +
                      " consecutive failures: Polly v8 has no consecutive breaker; FailureRatio 1 "
                      "over MinimumThroughput " +
                      std::to_string(std::max(b.consecutive_failures, 2u)) +
                      " in 10 s comes closest");
      break;
  }
  const bool consecutive = b.window_type == WindowType::consecutive;
  p.failure_ratio = consecutive ? 1.0 : b.failure_rate_pct / 100.0;
  p.minimum_throughput =
      std::max<std::uint32_t>(consecutive ? b.consecutive_failures : b.min_calls, 2);
  if (!consecutive && b.min_calls < 2)
    notes.push_back("min_calls " + std::to_string(b.min_calls) +
                    ": Polly's MinimumThroughput is at least 2");
  p.break_duration = clampBreak(b.open_interval);
  if (p.break_duration != b.open_interval)
    notes.push_back("open interval " + formatDuration(b.open_interval) +
                    ": Polly's BreakDuration ranges from 0.5 s to 1 day");
  if (backoffInEffect(b)) {
    p.generator = true;
    p.generator_multiplier = b.backoff_multiplier;
    p.generator_max = b.backoff_max;
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): a BreakDurationGenerator in code, min(max, BreakDuration * m^"
                    "HalfOpenAttempts); the breakerlab extension records it");
  }
  if (b.probes > 1)
    notes.push_back(std::to_string(b.probes) +
                    " half-open probes: Polly lets one trial through per half-open; any success "
                    "closes it, any handled failure reopens it");
  if (slowRuleOn(b))
    notes.push_back("slow-call rule (" + slowRuleText(b) +
                    "): Polly has none; a Timeout strategy turns slow calls into failures");
  if (b.early_probe)
    notes.push_back(
        "early probe on health green: Polly cannot force half-open; "
        "ManualControl.CloseAsync() on green closes without a trial");
  p.classification.failures = b.failures;
  for (auto& item : outsideTheBreaker(c, ExportTarget::polly)) notes.push_back(std::move(item));
  return pollyFile(p, name, std::move(notes));
}

}  // namespace breakerlab::export_detail
