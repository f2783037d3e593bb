#pragma once
// A shard's share of a search or a map (`tune --shard I/N --partial FILE`), for `merge` to
// combine (docs/tuning.md, "Sharding"). JSON, format "breakerlab-tune-partial/1"; doubles are
// written so that they read back bit for bit.
#include <cstddef>
#include <string>
#include <string_view>

#include "breakerlab/core/tuning/sweep.h"
#include "breakerlab/core/tuning/tune.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

inline constexpr std::string_view kTunePartialFormat = "breakerlab-tune-partial/1";
inline constexpr std::string_view kSweepPartialFormat = "breakerlab-sweep-partial/1";

struct TunePartial {
  // The whole search's arguments as the command wrote them (its own JSON): the parts of one
  // search carry the same, and `merge` replays the result from it.
  std::string search;
  std::size_t shard = 0;
  std::size_t shards = 1;
  TuneResult result;
};

struct SweepPartial {
  std::string search;
  std::size_t shard = 0;
  std::size_t shards = 1;
  SweepResult result;
};

std::string tunePartialToJson(const TunePartial& partial);
std::string sweepPartialToJson(const SweepPartial& partial);

// Which of the two `text` is ("breakerlab-tune-partial/1", ...), or throws LoadError.
std::string_view partialFormatOf(std::string_view text, const std::string& file_name);
// Throw LoadError naming `file_name` and what is wrong.
TunePartial parseTunePartial(std::string_view text, const std::string& file_name);
SweepPartial parseSweepPartial(std::string_view text, const std::string& file_name);

}  // namespace breakerlab
