// opossum (its options as JSON): the library's own options, or the generic BreakerLab machine
// translated.
#include <algorithm>

#include "../native/library_settings.h"
#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

namespace {
ExportedConfig opossumFile(const OpossumOptions& o, const std::string& name,
                           std::vector<std::string> notes) {
  OpossumOptions named = o;
  if (named.name.empty()) named.name = name;
  data_detail::ordered_json options = data_detail::opossumOptionsJson(named);
  auto& ext = options["breakerlab"];
  ext["exported_by"] = "BreakerLab, as opossum (options JSON)";
  if (!notes.empty()) ext["not_expressible"] = notes;
  return withHeader("", ExportTarget::opossum, "opossum", std::move(notes), options.dump(2) + "\n");
}
}  // namespace

ExportedConfig exportOpossumNative(const Config& c, const std::string& name) {
  return opossumFile(c.native.opossum, name, outsideTheBreaker(c, ExportTarget::opossum));
}

ExportedConfig exportOpossumFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  // The options come from the one mapping the library switch also makes; the notes say, in
  // opossum's words, what each approximation means.
  const OpossumOptions o = translateToLibrary(c, BreakerLibrary::opossum).config.native.opossum;
  std::vector<std::string> notes;
  notes.push_back("failure_rate " + formatPercent(b.failure_rate_pct) +
                  ": opossum opens when failures exceed it (strictly) among every fire() of "
                  "its window, rejected calls included, and checks only on a failure");
  switch (b.window_type) {
    case WindowType::time:
      break;
    case WindowType::count:
      notes.push_back("count window (last " + callsText(b.window_size) +
                      "): opossum's window is rolling time; rollingCountTimeout " +
                      std::to_string(o.rolling_count_timeout / kMillisecond) + " ms");
      break;
    case WindowType::consecutive:
      notes.push_back(std::to_string(b.consecutive_failures) +
                      " consecutive failures: opossum has no consecutive rule; errorThreshold"
                      "Percentage " +
                      formatNumber(o.error_threshold_percentage) + " with volumeThreshold " +
                      std::to_string(o.volume_threshold) + " comes closest");
      break;
  }
  notes.push_back("timeout " + formatDuration(o.timeout) +
                  ": exported as opossum's own timeout, which answers the caller then and counts "
                  "a failure; the call itself runs on");
  if (backoffInEffect(b))
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): opossum's resetTimeout is fixed; exported as the base");
  if (b.probes > 1)
    notes.push_back(std::to_string(b.probes) +
                    " half-open probes: opossum lets one call through; any success while half-"
                    "open closes it and any failure reopens it");
  if (slowRuleOn(b))
    notes.push_back("slow-call rule (" + slowRuleText(b) + "): opossum has none besides timeout");
  if (b.early_probe)
    notes.push_back(
        "early probe on health green: healthCheck() only opens; call "
        "breaker.close() on green, which closes without a trial");
  for (auto& item : outsideTheBreaker(c, ExportTarget::opossum, AttemptTimeout::carried))
    notes.push_back(std::move(item));
  return opossumFile(o, name, std::move(notes));
}

}  // namespace breakerlab::export_detail
