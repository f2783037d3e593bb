#pragma once
// Internal: each library's settings read from, and written to, its own shape (its option names
// and units). The native file readers and writers and the breakerlab-config sections use these.
#include <nlohmann/json.hpp>

#include <string>

#include "breakerlab/core/native_breakers.h"
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
// A Go file with a gobreaker.Settings{...} literal.
void readGobreakerGo(const Source& src, std::string_view text, GobreakerSettings& out,
                     std::vector<ImportNote>& notes);

// The classification as the JSON extension, or null when it is the default.
ordered_json classificationJson(const OutcomeClassification& c);
// Milliseconds as a JSON number: a whole number when it is one.
ordered_json millisJson(Micros d);

}  // namespace breakerlab::data_detail
