#include "search_record.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "breakerlab/data/content_hash.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab::cli {

nlohmann::ordered_json incidentsRecord(const SearchArguments& arguments, const SearchSetup& setup) {
  nlohmann::ordered_json incidents = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < setup.incidents.size(); ++i)
    incidents.push_back({{"argument", arguments.incidents[i]},
                         {"content", contentHash(incidentToYaml(setup.incidents[i]))}});
  return incidents;
}

std::vector<std::string> incidentArgumentsOf(const nlohmann::json& record,
                                             const std::string& file) {
  std::vector<std::string> arguments;
  try {
    for (const nlohmann::json& i : record) arguments.push_back(i.at("argument").get<std::string>());
  } catch (const nlohmann::json::exception&) {
    throw LoadError(file, 0, 0,
                    "the search's incidents are incomplete: expected what --shard writes");
  }
  return arguments;
}

nlohmann::ordered_json searchRecord(const SearchArguments& a, const SearchSetup& setup) {
  return {{"incidents", incidentsRecord(a, setup)},   {"knobs", a.knobs},     {"goals", a.goals},
          {"no_incident_goals", a.no_incident_goals}, {"library", a.library}, {"seeds", a.seeds}};
}

SearchArguments searchArgumentsOf(const nlohmann::json& record, const std::string& file) {
  SearchArguments a;
  try {
    a.incidents = incidentArgumentsOf(record.at("incidents"), file);
    a.knobs = record.at("knobs").get<std::vector<std::string>>();
    a.goals = record.at("goals").get<std::vector<std::string>>();
    a.no_incident_goals = record.at("no_incident_goals").get<bool>();
    a.library = record.at("library").get<std::string>();
    const std::uint64_t seeds = wholeNumberAt(record, "seeds", file);
    // Said here with the number as written: more than an unsigned holds would wrap.
    if (seeds > kMaxSeeds) throw partArgumentError(file, seedsOutOfRange(seeds));
    a.seeds = static_cast<unsigned>(seeds);
  } catch (const nlohmann::json::exception&) {
    throw LoadError(file, 0, 0,
                    "the search's arguments are incomplete: expected what --shard writes");
  }
  return a;
}

namespace {
// The command line's options and the keys under "search" that a part records them as.
struct RecordedOption {
  std::string_view option, key;
};
constexpr RecordedOption kRecordedOptions[] = {
    {"--seeds", "seeds"},     {"--knob", "knobs"},          {"--goal", "goals"},
    {"--library", "library"}, {"--minimize", "minimize"},   {"--budget", "budget"},
    {"--method", "method"},   {"--seed", "seed"},           {"--against", "against"},
    {"--points", "points"},   {"--metric", "metrics"},      {"--set", "sets"},
    {"--whatif", "what_if"},  {"an INCIDENT", "incidents"},
};
}  // namespace

LoadError partArgumentError(const std::string& file, const std::string& message) {
  for (const RecordedOption& o : kRecordedOptions) {
    const std::string_view m = message;
    // "--seed" must not take "--seeds: ...": the option ends where a name cannot go on.
    if (m.substr(0, o.option.size()) != o.option) continue;
    const char next = m.size() > o.option.size() ? m[o.option.size()] : ' ';
    if (std::isalnum(static_cast<unsigned char>(next)) || next == '-' || next == '_') continue;
    std::string rest(m.substr(o.option.size()));
    if (o.option.front() != '-') rest = " " + std::string(m);  // a sentence, kept whole
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == ':')) rest.erase(0, 1);
    return LoadError(file, 0, 0, "search." + std::string(o.key) + ": " + rest);
  }
  return LoadError(file, 0, 0, "search: " + message);
}

std::uint64_t wholeNumberAt(const nlohmann::json& record, const char* key,
                            const std::string& file) {
  const nlohmann::json& value = record.at(key);
  if (!value.is_number_unsigned())
    throw LoadError(
        file, 0, 0,
        std::string("search.") + key + ": expected a whole number, got " + clipText(value.dump()));
  return value.get<std::uint64_t>();
}

std::size_t goalCount(const SearchSetup& setup) {
  std::size_t goals = 0;
  for (const TuneCase& c : setup.cases) goals += c.goals.size();
  return goals;
}

void checkEvaluationFits(const Evaluation& e, std::size_t metrics, std::size_t goals,
                         const std::string& file) {
  if (e.objectives.size() != metrics || e.goals_met.size() != goals)
    throw LoadError(file, 0, 0,
                    "an evaluation has " + std::to_string(e.objectives.size()) + " metric(s) and " +
                        std::to_string(e.goals_met.size()) + " goal verdict(s); the search has " +
                        std::to_string(metrics) + " and " + std::to_string(goals));
  const bool every_goal_met =
      std::all_of(e.goals_met.begin(), e.goals_met.end(), [](bool met) { return met; });
  if (e.feasible != (!e.invalid && !e.stopped_early && every_goal_met))
    throw LoadError(file, 0, 0, "an evaluation's \"feasible\" disagrees with its goal verdicts");
}

void checkIncidentsUnchanged(const nlohmann::json& record, const SearchSetup& setup) {
  for (std::size_t i = 0; i < setup.incidents.size(); ++i)
    if (!record.is_array() || i >= record.size() || !record[i].is_object() ||
        !record[i].contains("content") ||
        record[i]["content"] != contentHash(incidentToYaml(setup.incidents[i])))
      throw UsageError("merge: " + setup.files[i].string() +
                       " is not the incident the shards searched (its content changed)");
}

}  // namespace breakerlab::cli
