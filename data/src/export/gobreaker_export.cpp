// gobreaker v2 (Go Settings): the generic BreakerLab machine translated, with what gobreaker
// cannot express.
#include <algorithm>
#include <cmath>

#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

// ---------------------------------------------------------------------------------------------
// gobreaker

std::string goString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// "PricingSettings" for "pricing", "OrderPricingV2Settings" for "order-pricing.v2".
std::string goFunctionName(const std::string& name) {
  std::string id;
  bool start = true;
  for (unsigned char ch : name) {
    const bool alnum =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (!alnum) {
      start = true;
      continue;
    }
    id += static_cast<char>(start && ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
    start = false;
  }
  if (id.empty() || (id[0] >= '0' && id[0] <= '9')) id = "Breaker" + id;
  return id + "Settings";
}

std::string goDuration(Micros d) {
  if (d == 0) return "0";
  if (d % kSecond == 0) return std::to_string(d / kSecond) + " * time.Second";
  if (d % kMillisecond == 0) return std::to_string(d / kMillisecond) + " * time.Millisecond";
  return std::to_string(d) + " * time.Microsecond";
}

// `n * 100 >= pct * total` in Go, without uint32 overflow.
std::string goRateCheck(const std::string& bad, double pct) {
  if (pct == std::floor(pct)) return "uint64(" + bad + ")*100 >= " + formatNumber(pct) + "*total";
  return "float64(" + bad + ")*100 >= " + formatNumber(pct) + "*float64(total)";
}

ExportedConfig exportGobreakerFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  const FailureClasses fc = failureClasses(c);
  const bool consecutive = b.window_type == WindowType::consecutive;
  // The Settings come from the one mapping the library switch also makes; this file writes them
  // as Go with what each means to gobreaker.
  const GobreakerSettings g =
      translateToLibrary(c, BreakerLibrary::gobreaker).config.native.gobreaker;
  // Its ReadyToTrip: ConsecutiveFailures >= K, or total >= M && TotalFailures*100 >= R*total
  // (GobreakerTripRule::completedFailureRate), the only forms translateToLibrary writes.
  const std::vector<GobreakerCondition>& trip = g.ready_to_trip.any_of.at(0);

  std::vector<std::string> notes;
  if (!b.enabled)
    notes.push_back(
        "breaker disabled (enabled: false): gobreaker has no disabled mode; call the dependency "
        "without the breaker (the settings describe it anyway)");
  if (b.window_type == WindowType::count)
    notes.push_back("sliding count window (last " + callsText(b.window_size) +
                    "): gobreaker's Counts hold every call since the last state change "
                    "(Interval 0), so ReadyToTrip sees a cumulative rate");
  // BreakerLab checks the rate after every recorded call. A success can trip a time window (its
  // record evicts old buckets) or a count window (it completes min_calls); gobreaker asks
  // ReadyToTrip only after a failure.
  if (b.window_type == WindowType::time ||
      (b.window_type == WindowType::count && std::min(b.min_calls, b.window_size) > 1))
    notes.push_back(
        "trip check after a success: gobreaker calls ReadyToTrip only when a call fails; "
        "BreakerLab also trips when a success leaves the window at the threshold");
  if (slowRuleOn(b))
    notes.push_back("slow-call rule (" + slowRuleText(b) +
                    "): gobreaker has no slow-call trigger; return an error for slow calls in "
                    "application code");
  if (backoffInEffect(b))
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): gobreaker's Timeout is fixed (sony/gobreaker#118); exported as the base " +
                    formatDuration(b.open_interval));
  if (b.early_probe)
    notes.push_back("early probe on health green (poll " + formatDuration(b.early_probe_poll) +
                    "): gobreaker has no state-transition API; rebuild the breaker or wrap it");
  if (spacingInEffect(b))
    notes.push_back("half-open probe spacing " + formatDuration(b.probe_spacing) +
                    ": gobreaker lets the " + std::to_string(b.probes) +
                    " half-open requests through as they arrive");
  if (const std::uint32_t tolerated = probeFailuresTolerated(b); tolerated > 0) {
    notes.push_back("half-open close rule " + closeRuleText(b) + " (" +
                    closesWith(tolerated, b.probes, "failed") +
                    "): gobreaker closes only after MaxRequests consecutive successes and "
                    "re-opens on any failure (all_succeed with reopen_on_first_failure)");
  } else if (b.probes > 1 && !b.reopen_on_first_failure) {
    notes.push_back("reopen_on_first_failure: false (the " + std::to_string(b.probes) +
                    " probes judged together): gobreaker re-opens at the first failed probe");
  }
  notes.push_back("per-call timeout " + formatDuration(c.timeout.attempt) +
                  " (timeout.attempt): not a gobreaker setting; run each call under "
                  "context.WithTimeout(ctx, " +
                  goDuration(c.timeout.attempt) + ")");
  if (c.cache.enabled)
    notes.push_back(
        cacheItem(c, "on gobreaker.ErrOpenState, ErrTooManyRequests or a failed call serve"));
  for (auto& item : retryItems(c,
                               "a retry loop around cb.Execute (breaker outside) or inside "
                               "the function it runs (breaker inside)"))
    notes.push_back(std::move(item));
  for (auto& item : serviceItems(c, ExportTarget::gobreaker)) notes.push_back(std::move(item));

  // IsSuccessful: every class BreakerLab does not count is a success.
  std::vector<std::string> success_checks;
  std::vector<std::string> imports = {"time"};
  bool server_placeholder = false;
  bool business_placeholder = false;
  bool pool_placeholder = false;
  for (auto o : fc.possible) {
    if (fc.countsNone() || fc.counted.contains(o)) continue;
    switch (o) {
      case CallOutcome::timeout:
        success_checks.push_back("errors.Is(err, context.DeadlineExceeded)");
        imports.insert(imports.end(), {"context", "errors"});
        break;
      case CallOutcome::refused:
        success_checks.push_back("errors.Is(err, syscall.ECONNREFUSED)");
        imports.insert(imports.end(), {"errors", "syscall"});
        break;
      case CallOutcome::server_error:
        success_checks.push_back("isServerError(err)");
        server_placeholder = true;
        break;
      case CallOutcome::client_error:
        success_checks.push_back("isBusinessError(err)");
        business_placeholder = true;
        break;
      case CallOutcome::pool_exhausted:
        success_checks.push_back("isPoolExhausted(err)");
        pool_placeholder = true;
        break;
      case CallOutcome::success:
      case CallOutcome::failure:
        break;
    }
  }
  std::sort(imports.begin(), imports.end());
  imports.erase(std::unique(imports.begin(), imports.end()), imports.end());

  const std::string function = goFunctionName(name);
  std::string go = "package breakers\n\nimport (\n";
  for (const auto& i : imports) go += "\t\"" + i + "\"\n";
  go += "\n\t\"github.com/sony/gobreaker/v2\"\n)\n\n";
  go += "// " + function + " returns BreakerLab's breaker config as sony/gobreaker v2 Settings:\n";
  go += "//\n//\tcb := gobreaker.NewCircuitBreaker[Price](" + function + "())\n";
  if (b.window_type == WindowType::time) {
    go +=
        "//\n// The time window needs gobreaker v2.2 or later (BucketPeriod). gobreaker files a\n";
    go += "// result under the bucket in which its request started (BreakerLab: where it\n";
    go += "// completed) and drops results whose bucket has rolled out.\n";
  }
  go += "func " + function + "() gobreaker.Settings {\n\treturn gobreaker.Settings{\n";

  GoFields fields;
  fields.add("Name", goString(name));
  fields.add("MaxRequests", std::to_string(g.max_requests),
             "half-open probes; closes after as many consecutive successes");
  if (g.interval == 0) {
    fields.add("Interval", "0", "Counts are cleared only on state changes");
  } else {
    fields.add("Interval", goDuration(g.interval),
               "time window of " + std::to_string(g.interval / kSecond) + "s, rolling");
    fields.add("BucketPeriod", goDuration(g.bucket_period), "in 1-second buckets");
  }
  fields.add(
      "Timeout", goDuration(g.timeout),
      backoffInEffect(b) ? "open interval, fixed (no backoff in gobreaker)" : "open interval");
  go += fields.render("\t\t");

  go += "\t\tReadyToTrip: func(counts gobreaker.Counts) bool {\n";
  if (consecutive) {
    const std::string k = formatNumber(trip.at(0).value);
    go += "\t\t\t// BreakerLab: trips at " + k + " consecutive failures.\n";
    go += "\t\t\treturn counts.ConsecutiveFailures >= " + k + "\n";
  } else {
    const std::string min_calls = formatNumber(trip.at(0).value);
    const double pct = trip.at(1).den_scale;
    go += "\t\t\t// BreakerLab: " +
          (b.window_type == WindowType::count ? "count window of " + callsText(b.window_size)
                                              : std::to_string(b.window_size) + "s time window") +
          ", min_calls " + min_calls + ", trips at failure_rate " + formatPercent(pct) + ".\n";
    // Over uint64: Counts are uint32, and TotalFailures*100 overflows past 42 million.
    go += "\t\t\ttotal := uint64(counts.TotalSuccesses) + uint64(counts.TotalFailures)\n";
    go += "\t\t\treturn total >= " + min_calls + " && " + goRateCheck("counts.TotalFailures", pct) +
          "\n";
  }
  go += "\t\t},\n";

  if (fc.countsNone()) {
    go += "\t\tIsSuccessful: func(err error) bool {\n";
    go += "\t\t\t// BreakerLab counts no outcome class as a failure.\n";
    go += "\t\t\treturn true\n\t\t},\n";
  } else if (success_checks.empty()) {
    go += "\t\t// IsSuccessful: the default (err == nil) counts every error as a failure, as\n";
    go += "\t\t// BreakerLab counts every outcome class.\n";
  } else {
    const std::string not_counted = fc.list(false);
    go += "\t\tIsSuccessful: func(err error) bool {\n";
    go += "\t\t\t// BreakerLab counts " + fc.list(true) + " as failures; " + not_counted +
          (not_counted.find(',') == std::string::npos ? " counts as a success.\n"
                                                      : " count as successes.\n");
    go += "\t\t\treturn err == nil || " + join(success_checks, " || ") + "\n";
    go += "\t\t},\n";
  }
  go += "\t}\n}\n";
  if (server_placeholder) {
    go += "\n// isServerError reports whether err is a 5xx answer of the dependency, which this\n";
    go += "// config does not count as a failure. Replace it with your client's check.\n";
    go += "func isServerError(err error) bool {\n\treturn false\n}\n";
  }
  if (business_placeholder) {
    go += "\n// isBusinessError reports whether err is a business answer of the dependency (4xx,\n";
    go += "// NotFound, InvalidArgument), which BreakerLab does not count as a failure. Replace\n";
    go += "// it with your client's check.\n";
    go += "func isBusinessError(err error) bool {\n\treturn false\n}\n";
  }
  if (pool_placeholder) {
    go += "\n// isPoolExhausted reports whether err is a timeout waiting for a pooled connection\n";
    go += "// (pool_exhausted), which this config does not count as a failure. Replace it with\n";
    go += "// your client's check.\n";
    go += "func isPoolExhausted(err error) bool {\n\treturn false\n}\n";
  }

  ExportedConfig out;
  out.text = header("//", ExportTarget::gobreaker, "gobreaker", notes) + "\n" + go;
  out.not_expressible = std::move(notes);
  return out;
}

}  // namespace breakerlab::export_detail

#include "../native/go_syntax.h"

namespace breakerlab::export_detail {

// The Settings as Go, with the classification in comments the reader takes back: Go code for
// IsSuccessful / IsExcluded is the application's own.
ExportedConfig exportGobreakerNative(const Config& c, const std::string& name) {
  const GobreakerSettings& g = c.native.gobreaker;
  const std::string function = goFunctionName(name);
  std::string go =
      "package breakers\n\nimport (\n\t\"time\"\n\n\t\"github.com/sony/gobreaker/v2\"\n)\n\n";
  go += "// " + function + " returns the sony/gobreaker v2 Settings BreakerLab replayed:\n";
  go += "//\n//\tcb := gobreaker.NewCircuitBreaker[Price](" + function + "())\n";
  const OutcomeClassification defaults;
  auto list = [](OutcomeSet set) {
    std::string s;
    for (int i = 0; i < kCallOutcomeCount; ++i) {
      const auto o = static_cast<CallOutcome>(i);
      if (o != CallOutcome::failure && set.contains(o))
        s += (s.empty() ? "" : ",") + std::string(toString(o));
    }
    return s.empty() ? std::string("none") : s;
  };
  if (!(g.classification == defaults)) {
    go +=
        "//\n// The errors IsSuccessful counts as failures and IsExcluded leaves out, as "
        "BreakerLab\n";
    go += "// replayed them (write the checks for your client's errors):\n";
    go += "//\n// breakerlab:Failures=" + list(g.classification.failures) + "\n";
    if (!g.classification.ignored.empty())
      go += "// breakerlab:Excluded=" + list(g.classification.ignored) + "\n";
  }
  go += "func " + function + "() gobreaker.Settings {\n\treturn gobreaker.Settings{\n";
  GoFields fields;
  fields.add("Name", goString(g.name.empty() ? name : g.name));
  fields.add("MaxRequests", std::to_string(g.max_requests));
  fields.add("Interval", data_detail::formatGoDuration(g.interval));
  if (g.bucket_period != 0)
    fields.add("BucketPeriod", data_detail::formatGoDuration(g.bucket_period));
  fields.add("Timeout", data_detail::formatGoDuration(g.timeout));
  go += fields.render("\t\t");
  if (!g.ready_to_trip.library_default) {
    go += "\t\tReadyToTrip: func(c gobreaker.Counts) bool {\n";
    go += "\t\t\treturn " + data_detail::formatReadyToTrip(g.ready_to_trip) + "\n";
    go += "\t\t},\n";
  }
  go += "\t}\n}\n";
  return withHeader("//", ExportTarget::gobreaker, "gobreaker",
                    outsideTheBreaker(c, ExportTarget::gobreaker), go);
}

}  // namespace breakerlab::export_detail
