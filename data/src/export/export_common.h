#pragma once
// Internal: what every config exporter shares: the header of what the target cannot express,
// the service parts no breaker library has (pool, workers, load balancer, pricing, retries), the
// failure classes, and line builders for YAML and gofmt-aligned Go.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/breaker_rules.h"
#include "breakerlab/data/config_export.h"

namespace breakerlab::export_detail {

std::string join(const std::vector<std::string>& items, std::string_view separator);

// The failure classes a config can produce and which of them its breaker counts.
// `pool_exhausted` only happens with a bounded pool and a bounded wait; otherwise whether it is
// counted changes nothing, so it is left out (a neutral knob is never listed).
struct FailureClasses {
  std::vector<CallOutcome> possible;
  OutcomeSet counted;  // the counted classes among `possible`

  bool countsNone() const { return counted.empty(); }
  bool countsEvery() const {
    return std::all_of(possible.begin(), possible.end(),
                       [&](CallOutcome o) { return counted.contains(o); });
  }
  // The classes counted (or not), "a, b, c", or "none".
  std::string list(bool which) const {
    std::vector<std::string> names;
    for (auto o : possible)
      if (counted.contains(o) == which) names.emplace_back(toString(o));
    return names.empty() ? "none" : join(names, ", ");
  }
};

bool poolCanExhaust(const Config& c);
FailureClasses failureClasses(const Config& c);
// A percentage bound for prose, one decimal at most: "33.3" for 100/3, "50" for 50.
std::string approxPercent(double pct);
bool slowRuleOn(const BreakerConfig& b);
bool spacingInEffect(const BreakerConfig& b);
bool reopenInEffect(const BreakerConfig& b);
std::uint32_t probeSlowTolerated(const BreakerConfig& b);
std::string closeRuleText(const BreakerConfig& b);
std::string closesWith(std::uint32_t tolerated, std::uint32_t n, std::string_view bad);
std::string callsText(std::uint32_t n);
std::string slowRuleText(const BreakerConfig& b);
std::string backoffText(const BreakerConfig& b);
// The comment lines on top of every export: who wrote it, and what the target cannot express.
std::string header(std::string_view comment, ExportTarget target, std::string_view target_short,
                   const std::vector<std::string>& not_expressible);
std::string cacheItem(const Config& c, std::string_view how);
void checkInstanceName(const std::string& name);
// Whether the export writes the retries itself (resilience4j's Retry, from a resilience4j
// file) or must list them.
enum class Retries { listed, written };
// Retries and the request deadline, which no breaker library configures.
std::vector<std::string> retryItems(const Config& c, const std::string& where,
                                    Retries retries = Retries::listed);
// The pool, workers, load balancer, pricing path and background retries, when in effect.
std::vector<std::string> serviceItems(const Config& c, ExportTarget target);

class YamlLines {
 public:
  void line(int indent, std::string_view text, std::string_view comment = {}) {
    out_.append(static_cast<std::size_t>(indent), ' ');
    out_ += text;
    if (!comment.empty()) {
      out_ += "  # ";
      out_ += comment;
    }
    out_ += '\n';
  }
  void comment(int indent, std::string_view text) {
    out_.append(static_cast<std::size_t>(indent), ' ');
    out_ += "# ";
    out_ += text;
    out_ += '\n';
  }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
};

// Lines of Go at one indentation, aligned as gofmt aligns a run of single-line key: value
// elements: values in one column, and trailing comments of consecutive lines in one column.
class GoFields {
 public:
  struct Field {
    std::string key, value, comment;
  };
  void add(std::string key, std::string value, std::string comment = {}) {
    fields_.push_back({std::move(key), std::move(value), std::move(comment)});
  }
  std::string render(std::string_view indent) const {
    std::size_t key_width = 0;
    for (const auto& f : fields_) key_width = std::max(key_width, f.key.size() + 1);
    std::vector<std::string> cells;
    for (const auto& f : fields_)
      cells.push_back(f.key + ":" + std::string(key_width - f.key.size(), ' ') + f.value + ",");
    std::string out;
    for (std::size_t i = 0; i < fields_.size();) {
      // A run of consecutive lines with comments shares one comment column.
      std::size_t end = i + 1;
      std::size_t width = cells[i].size();
      if (!fields_[i].comment.empty()) {
        while (end < fields_.size() && !fields_[end].comment.empty()) {
          width = std::max(width, cells[end].size());
          ++end;
        }
      }
      for (std::size_t j = i; j < end; ++j) {
        out += indent;
        out += cells[j];
        if (!fields_[j].comment.empty())
          out += std::string(width - cells[j].size() + 1, ' ') + "// " + fields_[j].comment;
        out += '\n';
      }
      i = end;
    }
    return out;
  }

 private:
  std::vector<Field> fields_;
};

// From the generic BreakerLab machine to each library, saying what it cannot express.
ExportedConfig exportResilience4jFromGeneric(const Config& c, const std::string& name);
ExportedConfig exportGobreakerFromGeneric(const Config& c, const std::string& name);
ExportedConfig exportPollyFromGeneric(const Config& c, const std::string& name);
ExportedConfig exportOpossumFromGeneric(const Config& c, const std::string& name);
ExportedConfig exportCockatielFromGeneric(const Config& c, const std::string& name);
ExportedConfig exportEnvoyFromGeneric(const Config& c, const std::string& name);

// A library's own settings, lossless, when the breaker follows that library.
ExportedConfig exportResilience4jNative(const Config& c, const std::string& name);
ExportedConfig exportGobreakerNative(const Config& c, const std::string& name);
ExportedConfig exportPollyNative(const Config& c, const std::string& name);
ExportedConfig exportOpossumNative(const Config& c, const std::string& name);
ExportedConfig exportCockatielNative(const Config& c, const std::string& name);
ExportedConfig exportEnvoyNative(const Config& c, const std::string& name);

// Whether the export writes timeout.attempt itself (resilience4j's TimeLimiter, opossum's
// timeout translated from the generic machine) or must list it.
enum class AttemptTimeout { carried, listed };
// "per-call timeout 800ms (timeout.attempt): ..." with what the target's users do instead.
std::string attemptTimeoutItem(const Config& c, ExportTarget target);
// What the rest of the config (the attempt timeout, retries, deadline, pool, workers, load
// balancer, pricing, cache) adds that no breaker library configures.
std::vector<std::string> outsideTheBreaker(const Config& c, ExportTarget target,
                                           AttemptTimeout attempt = AttemptTimeout::listed,
                                           Retries retries = Retries::listed);
// The header and the text, as every export returns them.
ExportedConfig withHeader(std::string_view comment, ExportTarget target,
                          std::string_view target_short, std::vector<std::string> notes,
                          const std::string& body);

}  // namespace breakerlab::export_detail
