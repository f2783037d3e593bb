#pragma once
// Internal: each library's settings read from, and written to, its own shape (its option names
// and units). The native file readers and writers and the breakerlab-config sections use these.
#include <nlohmann/json.hpp>

#include <string>

#include "breakerlab/core/inputs/native_breakers.h"
#include "settings_reader.h"

namespace breakerlab::data_detail {

using ordered_json = nlohmann::ordered_json;

void readOpossumOptions(SettingsReader& r, const YAML::Node& node, const std::string& path,
                        OpossumOptions& out);
ordered_json opossumOptionsJson(const OpossumOptions& options);

void readCockatielSettings(SettingsReader& r, const YAML::Node& node, const std::string& path,
                           CockatielSettings& out);
ordered_json cockatielSettingsJson(const CockatielSettings& settings);

void readGobreakerSettings(SettingsReader& r, const YAML::Node& node, const std::string& path,
                           GobreakerSettings& out);
ordered_json gobreakerSettingsJson(const GobreakerSettings& settings);
// Why BreakerLab cannot model these settings' rolling window (empty: it can).
inline constexpr std::int64_t kMaxGobreakerBuckets = 10'000;
std::string gobreakerWindowProblem(const GobreakerSettings& settings);
// A Go file with a gobreaker.Settings{...} literal.
void readGobreakerGo(const Source& src, std::string_view text, GobreakerSettings& out,
                     std::vector<ImportNote>& notes);

void readResilience4jInstance(SettingsReader& r, const YAML::Node& node, const std::string& path,
                              Resilience4jSettings& out);
ordered_json resilience4jInstanceJson(const Resilience4jSettings& settings);
// application.yml (its circuitbreaker, timelimiter and retry instances), or one circuit
// breaker instance's properties on their own.
void readResilience4jFile(SettingsReader& r, const YAML::Node& root, NativeReadOptions options,
                          NativeConfig& out);
// A .properties file as YAML, with where each YAML line came from.
struct PropertiesYaml {
  std::string text;
  std::vector<std::pair<int, int>> origin;  // per YAML line: properties line, column of the value
};
// Throws LoadError at a property past the limits (key parts, instances, values).
PropertiesYaml propertiesToYaml(std::string_view text, const std::string& file_name);
bool looksLikeProperties(std::string_view text, const std::string& file_name);

void readPollyOptions(SettingsReader& r, const YAML::Node& node, const std::string& path,
                      PollySettings& out);
ordered_json pollyOptionsJson(const PollySettings& settings);
void readPollyFile(SettingsReader& r, const YAML::Node& root, PollySettings& out);

void readEnvoyOutlierDetection(SettingsReader& r, const YAML::Node& node, const std::string& path,
                               EnvoyOutlierSettings& out, bool& max_ejection_time_set);
ordered_json envoyOutlierJson(const EnvoyOutlierSettings& settings);
// A Polly TimeSpan as appsettings.json writes it: "00:00:10", "00:00:00.500".
std::string formatTimeSpan(Micros d);
// A google.protobuf.Duration as Envoy's YAML writes it: "10s", "2.5s", "0.001s".
std::string protoDurationText(Micros d);
// `retry_budget`: the DEFAULT priority's circuit_breakers retry_budget, when the cluster has one.
void readEnvoyFile(SettingsReader& r, const YAML::Node& root, EnvoyOutlierSettings& out,
                   std::optional<RetryConcurrencyBudget>& retry_budget);

// Envoy's section of a breakerlab-config file: outlier_detection plus hosts,
// healthy_panic_threshold and health_check_interval.
ordered_json envoyConfigJson(const EnvoyOutlierSettings& settings);

// A JSON value as a YAML tree (scalars as plain strings, objects as maps, arrays as lists).
YAML::Node jsonToYaml(const ordered_json& json);

// The classification as the JSON extension, or null when it is the default.
ordered_json classificationJson(const OutcomeClassification& c);
// Milliseconds as a JSON number: a whole number when it is one.
ordered_json millisJson(Micros d);

}  // namespace breakerlab::data_detail
