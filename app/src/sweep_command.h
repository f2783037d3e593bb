#pragma once
// `breakerlab-cli sweep`: a sensitivity map of one or two knobs (docs/sensitivity.md), as CSV and
// as the workbench draws it.
#include <iosfwd>
#include <string>
#include <vector>

#include "tuning_commands.h"

namespace breakerlab::cli {

struct SweepArguments {
  SearchArguments search;
  std::string points = "25";         // "N", or "N1,N2" per knob
  std::vector<std::string> metrics;  // measured in every cell; the PNG colours the first
  std::vector<std::string> sets;     // KEY=VALUE laid over every incident's base config
  std::string what_if;               // the base: this what-if's config instead of the deployed one
  std::string output;                // the CSV
  std::string png;
  std::string png_size = "1100x820";
  std::string partial;  // with --shard: the shard's cells, for `merge`
};

int runSweep(const SweepArguments& arguments, std::ostream& out);
// `merge` of the partial files of a sharded sweep: the whole map's CSV and PNG, byte for byte
// what the unsharded sweep writes.
int runSweepMerge(const MergeArguments& arguments, std::ostream& out);

}  // namespace breakerlab::cli
