// cockatiel (JSON mirroring its constructors): the library's own settings, or the generic
// BreakerLab machine translated.
#include <algorithm>

#include "../native/library_settings.h"
#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

namespace {
ExportedConfig cockatielFile(const CockatielSettings& s, std::vector<std::string> notes) {
  data_detail::ordered_json options = data_detail::cockatielSettingsJson(s);
  auto& ext = options["breakerlab"];
  ext["exported_by"] = "BreakerLab, as cockatiel (options JSON)";
  if (!notes.empty()) ext["not_expressible"] = notes;
  return withHeader("", ExportTarget::cockatiel, "cockatiel", std::move(notes),
                    options.dump(2) + "\n");
}
}  // namespace

ExportedConfig exportCockatielNative(const Config& c, const std::string& /*name*/) {
  return cockatielFile(c.native.cockatiel, outsideTheBreaker(c, ExportTarget::cockatiel));
}

ExportedConfig exportCockatielFromGeneric(const Config& c, const std::string& /*name*/) {
  const BreakerConfig& b = c.breaker;
  // The settings come from the one mapping the library switch also makes; the notes say, in
  // cockatiel's words, what each approximation means.
  const CockatielSettings s =
      translateToLibrary(c, BreakerLibrary::cockatiel).config.native.cockatiel;
  std::vector<std::string> notes;
  switch (b.window_type) {
    case WindowType::consecutive:
      break;
    case WindowType::count:
      notes.push_back("failure_rate " + formatPercent(b.failure_rate_pct) +
                      ": CountBreaker opens when failures exceed threshold * calls (strictly)");
      break;
    case WindowType::time:
      notes.push_back("time window of " + std::to_string(b.window_size) +
                      " s: SamplingBreaker's windows rotate one slot per sample, not with the "
                      "clock; min_calls becomes minimumRps " +
                      formatNumber(s.breaker.minimum_rps));
      break;
  }
  if (b.failure_rate_pct >= 100 && b.window_type != WindowType::consecutive)
    notes.push_back("failure_rate 100%: cockatiel's threshold is below 1; exported as " +
                    formatNumber(s.breaker.threshold));
  if (backoffInEffect(b) && s.half_open_after.kind != CockatielBackoff::Kind::exponential)
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): cockatiel's ExponentialBackoff doubles (noJitterGenerator); exported as "
                    "the fixed base");
  if (spacingInEffect(b))
    notes.push_back("probe spacing " + formatDuration(b.probe_spacing) +
                    ": cockatiel lets its trials run as calls arrive; extra callers wait for the "
                    "verdict");
  if (b.probes > 1 && !b.reopen_on_first_failure && b.close_when == CloseRule::all_succeed)
    notes.push_back("judged after all probes: cockatiel reopens at the first failed trial");
  if (slowRuleOn(b))
    notes.push_back("slow-call rule (" + slowRuleText(b) + "): wrap a timeout policy instead");
  if (b.early_probe)
    notes.push_back("early probe on health green: cockatiel has no way to half-open early");
  for (auto& item : outsideTheBreaker(c, ExportTarget::cockatiel)) notes.push_back(std::move(item));
  return cockatielFile(s, std::move(notes));
}

}  // namespace breakerlab::export_detail
