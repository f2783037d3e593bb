// Polly v8 (appsettings.json with a CircuitBreaker section): the library's own options, or the
// generic BreakerLab machine translated.
#include <algorithm>
#include <cmath>

#include "../native/library_settings.h"
#include "breakerlab/core/inputs/library_translation.h"
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
  // The section as read ("Pricing", or "Resilience:Pricing" nested as .NET nests it): the
  // application binds the options by that name.
  data_detail::ordered_json root;
  data_detail::ordered_json* section = &root;
  std::string_view rest = p.name.empty() ? std::string_view(name) : std::string_view(p.name);
  while (true) {
    const std::size_t colon = rest.find(':');
    section = &(*section)[std::string(rest.substr(0, colon))];
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  (*section)["CircuitBreaker"] = options;
  return withHeader("", ExportTarget::polly, "Polly", std::move(notes), root.dump(2) + "\n");
}

}  // namespace

ExportedConfig exportPollyNative(const Config& c, const std::string& name) {
  return pollyFile(c.native.polly, name, outsideTheBreaker(c, ExportTarget::polly));
}

ExportedConfig exportPollyFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  // The options come from the one mapping the library switch also makes; the notes say, in
  // Polly's words, what each approximation means.
  const PollySettings p = translateToLibrary(c, BreakerLibrary::polly).config.native.polly;
  const std::string sampling = data_detail::formatTimeSpan(p.sampling_duration);
  std::vector<std::string> notes;
  switch (b.window_type) {
    case WindowType::time:
      break;
    case WindowType::count:
      notes.push_back("count window (last " + callsText(b.window_size) +
                      "): Polly samples by time; SamplingDuration " + sampling +
                      ", in 10 sub-windows that start at events");
      break;
    case WindowType::consecutive:
      notes.push_back(std::to_string(b.consecutive_failures) +
                      " consecutive failures: Polly v8 has no consecutive breaker; FailureRatio " +
                      formatNumber(p.failure_ratio) + " over MinimumThroughput " +
                      std::to_string(p.minimum_throughput) + " in " + sampling + " comes closest");
      break;
  }
  if (b.window_type != WindowType::consecutive && b.min_calls < p.minimum_throughput)
    notes.push_back("min_calls " + std::to_string(b.min_calls) +
                    ": Polly's MinimumThroughput is at least 2");
  if (b.window_type == WindowType::time &&
      p.sampling_duration != static_cast<Micros>(b.window_size) * kSecond)
    notes.push_back("time window of " + std::to_string(b.window_size) +
                    " s: Polly's SamplingDuration ranges from 0.5 s to 1 day; " + sampling);
  if (p.break_duration != b.open_interval)
    notes.push_back("open interval " + formatDuration(b.open_interval) +
                    ": Polly's BreakDuration ranges from 0.5 s to 1 day");
  if (p.generator)
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): a BreakDurationGenerator in code, min(max, BreakDuration * m^"
                    "HalfOpenAttempts); the breakerlab extension records it");
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
  for (auto& item : outsideTheBreaker(c, ExportTarget::polly)) notes.push_back(std::move(item));
  return pollyFile(p, name, std::move(notes));
}

}  // namespace breakerlab::export_detail
