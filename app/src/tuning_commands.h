#pragma once
// `tune`, `sweep` and `merge`: searching and mapping the knob space (docs/tuning.md).
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/tuning/tuning_objective.h"

namespace breakerlab::cli {

// Seeds each config is replayed with (--seeds), and the error for a count outside 1 to it.
inline constexpr unsigned kMaxSeeds = 1000;
std::string seedsOutOfRange(std::uint64_t seeds);

// What every search or map is asked: the incidents, the knobs and their ranges, the goals.
struct SearchArguments {
  std::vector<std::string> incidents;  // paths or bundled names
  std::vector<std::string> knobs;      // "KEY=LOW..HIGH[:log]"
  std::vector<std::string> goals;      // "METRIC OP VALUE", on every incident
  bool no_incident_goals = false;      // without each incident's own goals
  std::string library;                 // whose breaker the knobs tune; empty: the deployed one's
  unsigned seeds = 1;                  // 1 to kMaxSeeds
  std::string shard;                   // "I/N"
  unsigned threads = 0;
};

struct TuneArguments {
  SearchArguments search;
  std::vector<std::string> minimize;
  std::size_t budget = 2000;
  std::string seed = "1";  // the search's own seed (which points it explores)
  std::string method = "pattern";
  bool no_give_up = false;
  std::string against;  // a what-if to report beside the tuned config
  std::string output;   // the config file (several, numbered, for a front)
  std::string partial;  // with --shard: the shard's partial result
  bool json = false;
};

struct MergeArguments {
  std::vector<std::string> parts;
  std::string output;  // a search's config file, or a map's CSV
  bool json = false;
  std::string png;  // a map's parts: the PNG, as `sweep --png`
  std::string png_size = "1100x820";
};

// The incidents opened, with what the search needs of each: its goals and its base config.
struct SearchSetup {
  std::vector<std::filesystem::path> files;
  std::vector<Incident> incidents;
  std::vector<KnobRange> knobs;
  std::vector<TuneCase> cases;  // point into `incidents`: keep the setup in place
  BreakerLibrary library = BreakerLibrary::breakerlab;
};
// Throws UsageError / LoadError naming the bad argument.
void openSearch(const SearchArguments& arguments, SearchSetup& setup);
// What to warn of before searching: each knob that cannot move the metrics on a case's base
// config wherever the other tuned knobs are (the health poll while the early probe is off), and
// the switch that would make it count: with `set_option`, as the command's --set.
std::vector<std::string> knobsWithoutEffect(const SearchSetup& setup, bool set_option);

int runTune(const TuneArguments& arguments, std::ostream& out);
int runMerge(const MergeArguments& arguments, std::ostream& out);

// "--seed" of replay and tune: a whole number from 0 to 2^64-1 (UsageError otherwise).
std::uint64_t parseSeed(const std::string& text, const std::string& option = "--seed");

}  // namespace breakerlab::cli
