#pragma once
// Two exports of a config to the same target compared setting by setting, in the target's own
// key names (resilience4j's failureRateThreshold, gobreaker's Timeout, BreakerLab's
// breaker.open.interval): what a reviewer of the change would see differ in the file.
#include <string>
#include <utility>
#include <vector>

#include "breakerlab/data/config_export.h"

namespace breakerlab {

// One setting of an exported file: its key path in the target's names and its value as the
// file writes it. The export's own bookkeeping (who exported it, what it cannot express) is left
// out: that is listed apart.
struct ExportedSetting {
  std::string key;
  std::string value;
  bool operator==(const ExportedSetting&) const = default;
};

// The settings of `exported.text`, in file order:
// - YAML targets (BreakerLab, resilience4j, Envoy): dotted paths, sequences of scalars as
//   "[a, b]", sequences of maps as key[i].sub;
// - JSON targets (Polly, opossum, cockatiel): dotted paths likewise;
// - gobreaker: the fields of the Settings literal (a func field's body as one value, its
//   comments dropped) and the "breakerlab:Failures=..." lines the reader takes back.
// Throws std::invalid_argument when the text is not what exportConfig writes for `target`.
std::vector<ExportedSetting> exportedSettings(const ExportedConfig& exported, ExportTarget target);

struct SettingChange {
  std::string key;
  std::string before;  // empty: the setting is new
  std::string after;   // empty: the setting is gone
};

// The settings that differ, in the order of `after` (then those only `before` has).
std::vector<SettingChange> diffSettings(const std::vector<ExportedSetting>& before,
                                        const std::vector<ExportedSetting>& after);

}  // namespace breakerlab
