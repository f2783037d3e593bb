#pragma once
// What a shard's partial file records of its search (`tune` and `sweep` with --shard), and
// `merge`'s checks that the parts given are every shard of one search on unchanged incidents.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "breakerlab/data/load_error.h"
#include "commands.h"
#include "tuning_commands.h"

namespace breakerlab::cli {

// Each incident as given on the command line with the hash of its content: a part made from
// another version of the file must not merge.
nlohmann::ordered_json incidentsRecord(const SearchArguments& arguments, const SearchSetup& setup);
// The incident arguments of a record (LoadError naming `file` when it is not one).
std::vector<std::string> incidentArgumentsOf(const nlohmann::json& record, const std::string& file);
// The arguments every search and map shares (incidents with their content, knobs, goals, library,
// seeds) as a part records them; the command adds its own. And back (LoadError naming `file`).
nlohmann::ordered_json searchRecord(const SearchArguments& arguments, const SearchSetup& setup);
SearchArguments searchArgumentsOf(const nlohmann::json& record, const std::string& file);
// record[key] as a whole number of at least 0: LoadError "FILE: search.KEY: expected a whole
// number, got -5" otherwise (a JSON -5 would wrap to 18446744073709551611).
std::uint64_t wholeNumberAt(const nlohmann::json& record, const char* key, const std::string& file);
// UsageError when an incident opened again is not the one the shards searched.
void checkIncidentsUnchanged(const nlohmann::json& record, const SearchSetup& setup);

// Runs `check` over a search's arguments read back from a part file. The checks are the command
// line's, and their errors name its options ("--seeds: ..."), which the user of `merge` never
// gave: an error is rethrown as a LoadError naming the part and the search's key
// ("p0.json: search.seeds: expected 1 to 1000 seeds, got 0").
LoadError partArgumentError(const std::string& file, const std::string& message);
template <class Check>
auto checkedInPart(const std::string& file, Check&& check) -> decltype(check()) {
  try {
    return check();
  } catch (const UsageError& e) {
    throw partArgumentError(file, e.what());
  }
}

// The goals every evaluation of the setup has a verdict on (every case's, in order).
std::size_t goalCount(const SearchSetup& setup);
// LoadError naming `file` unless `e` has one objective per measured metric and one verdict per
// goal: a part that does not fit the search its arguments open again.
void checkEvaluationFits(const Evaluation& e, std::size_t metrics, std::size_t goals,
                         const std::string& file);

// UsageError unless `parts` (any type with search, shard and shards) are each shard of one
// search exactly once; `files` name them.
template <class Part>
void checkEveryShardOnce(const std::vector<Part>& parts, const std::vector<std::string>& files) {
  const Part& first = parts.front();
  std::vector<bool> seen(first.shards, false);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].search != first.search)
      throw UsageError(files[i] + " is a part of another search than " + files[0] +
                       " (its arguments or incidents differ)");
    if (parts[i].shards != first.shards)
      throw UsageError(files[i] + " is shard " + std::to_string(parts[i].shard) + " of " +
                       std::to_string(parts[i].shards) + ", not of " +
                       std::to_string(first.shards));
    if (parts[i].result.cancelled)
      throw UsageError(files[i] + ": shard " + std::to_string(parts[i].shard) +
                       " was stopped before its end; run it again");
    if (seen[parts[i].shard])
      throw UsageError(files[i] + ": shard " + std::to_string(parts[i].shard) + "/" +
                       std::to_string(first.shards) + " is given twice");
    seen[parts[i].shard] = true;
  }
  for (std::size_t s = 0; s < seen.size(); ++s)
    if (!seen[s])
      throw UsageError("merge: shard " + std::to_string(s) + "/" + std::to_string(first.shards) +
                       " is missing; every shard's part is needed");
}

}  // namespace breakerlab::cli
