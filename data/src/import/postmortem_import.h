#pragma once
// Internal: postmortem documents into incidents. The Markdown reader collects what each block
// and sentence states into a PostmortemFacts; the builder turns any PostmortemFacts (the
// plain-text reader fills one too) into an incident, with the report.
#include <optional>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/data/incident_import.h"

namespace breakerlab::data_detail {

struct FactHint {
  std::string key;  // a --set key, or an incident key (traffic.rps, amplification, ...)
  std::string value;
  std::string quote;
  int line = 0;
  int priority = 0;  // higher wins: a spec row over a sentence
};

struct FactLane {
  std::string label;  // as written: "Breaker", "Pricing", "Checkout"
  std::vector<LaneInterval> intervals;
  int line = 0;
};

struct FactEvent {
  Micros at = 0;
  std::string label;
  std::string lane_label;
  int line = 0;
};

struct FactStat {
  std::string label;  // "Cache hits while open", "Failed checkouts"
  std::string value;  // "1,760 of 1,760 checkouts", "6,130"
  int line = 0;
};

struct FactWhatIf {
  std::string name;
  std::string description;
  std::vector<FactHint> hints;
  int line = 0;
};

struct PostmortemFacts {
  std::string format;  // for the report
  std::string id;
  int id_line = 0;  // where the document states it (0: from the title, or not at all)
  std::string title;
  std::string summary;
  std::string dependency_name;  // the service the client calls, when the document names it
  std::vector<FactLane> lanes;
  std::vector<FactEvent> events;
  std::vector<Bracket> brackets;
  std::vector<int> bracket_lines;
  std::vector<FactStat> stats;
  std::vector<FactHint> hints;  // the deployed config and the traffic
  std::vector<FactWhatIf> what_ifs;
  // Clock times: t=0 of the lanes, when the document gives it; the timeline's window.
  std::optional<double> t0_clock;  // seconds since midnight
  std::optional<Micros> window_start, window_end;
  std::vector<ImportFinding> notes;  // problems met while reading (a block that is not YAML)
  // The first ```timing block that could not be read: the reason to give when the document ends
  // up with no lanes to place the incident in time.
  struct Problem {
    int line = 0;
    int column = 0;
    std::string message;
  };
  std::optional<Problem> timing_problem;
};

// What one postmortem may hold. Real ones have a few lanes of a dozen states, a few dozen events
// and a handful of expectations and what-ifs; each expectation is checked and each what-if
// replayed, and the builder matches events with states, so these bound its work.
inline constexpr std::size_t kMaxPostmortemExpectations = 1'000;
inline constexpr std::size_t kMaxPostmortemWhatIfs = 1'000;
inline constexpr std::size_t kMaxLaneStates = 10'000;
inline constexpr std::size_t kMaxPostmortemEvents = 10'000;
// Phrases read as a setting, the traffic or a number ("800 ms per call"): a few dozen in a real
// document; each is kept with its quote, and 64 MB of prose would make a million and more.
inline constexpr std::size_t kMaxPostmortemHints = 100'000;
std::string hintsLimitMessage();

PostmortemFacts readFencedPostmortem(std::string_view text, const std::string& file_name);
PostmortemFacts readTextPostmortem(std::string_view text, const std::string& file_name);
bool looksLikeTextPostmortem(std::string_view text);

ImportedIncident buildIncident(const PostmortemFacts& facts, const std::string& file_name,
                               const ImportOptions& options);

}  // namespace breakerlab::data_detail
