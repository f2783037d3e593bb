#include "search_record.h"

#include <algorithm>

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
    a.seeds = record.at("seeds").get<unsigned>();
  } catch (const nlohmann::json::exception&) {
    throw LoadError(file, 0, 0,
                    "the search's arguments are incomplete: expected what --shard writes");
  }
  return a;
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
