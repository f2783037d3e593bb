// The error of a document no reader takes: what it looks like and what to do instead.
#include "unrecognised_document.h"

#include <algorithm>
#include <array>
#include <optional>

namespace breakerlab::data_detail {

namespace {

// How much of a document is looked at: a lesson's code is a few hundred lines down at most.
constexpr std::size_t kUnrecognisedScanBytes = 256 * 1024;

struct Found {
  int line = 0;
  int column = 0;
};

// The first line holding `needle`, with its 1-based column.
std::optional<Found> findInLines(std::string_view text, std::string_view needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string_view::npos) return std::nullopt;
  Found f{1, 1};
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++f.line;
      line_start = i + 1;
    }
  f.column = static_cast<int>(at - line_start) + 1;
  return f;
}

// Whether the first line that is not blank or a // comment starts a Go file: "package NAME".
bool startsAsGoFile(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    std::string_view line =
        text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line.substr(0, 2) == "//") continue;
    return line.substr(0, 8) == "package ";
  }
  return false;
}

// What names the gobreaker breaker, most telling first.
constexpr std::array<std::string_view, 4> kGobreakerMarks = {
    "gobreaker.Settings", "gobreaker.NewCircuitBreaker", "sony/gobreaker", "gobreaker"};

const std::string kWhatTheImporterNeeds =
    "an incident needs a timeline to place it in time: a postmortem in Markdown with "
    "```timing/```spec blocks, or a postmortem with a UTC timeline (a table with a UTC column, "
    "or clock times on lines of their own)";

}  // namespace

UnrecognisedDocument describeUnrecognisedDocument(std::string_view text) {
  const std::string_view head = text.substr(0, std::min(text.size(), kUnrecognisedScanBytes));
  std::optional<Found> gobreaker;
  std::string_view mark;
  for (std::string_view m : kGobreakerMarks)
    if ((gobreaker = findInLines(head, m))) {
      mark = m;
      break;
    }
  // Where a gobreaker Go file goes: the breaker of an incident already open.
  const auto whereGoFilesGo = [](std::string_view which) {
    return "open an incident, then File > Load Config... " + std::string(which) +
           " (or breakerlab-cli replay INCIDENT --policy FILE.go)";
  };
  if (startsAsGoFile(head)) {
    if (gobreaker)
      return {gobreaker->line, gobreaker->column,
              "not a document BreakerLab can open as an incident: this is a Go file with a "
              "sony/gobreaker breaker (" +
                  std::string(mark) + "), a breaker config: " + whereGoFilesGo("this file")};
    return {1, 1,
            "not a document BreakerLab can open as an incident: this is a Go source file; a Go "
            "file is read as a breaker config when it holds a gobreaker.Settings: " +
                whereGoFilesGo("this file")};
  }
  if (gobreaker)
    return {gobreaker->line, gobreaker->column,
            "not a document BreakerLab can open as an incident: this reads as a write-up about a "
            "sony/gobreaker breaker with its Go code (" +
                std::string(mark) +
                " here), and it has no timeline or ```spec of a deployed config; " +
                kWhatTheImporterNeeds +
                ". To replay an incident under this breaker, save its Go code as a .go file "
                "(resources/configs/lesson-gobreaker.go is BreakerLab's copy of the "
                "circuit-breaker lesson's); " +
                whereGoFilesGo("that .go file")};
  return {0, 0,
          "not a document BreakerLab can open: expected a breakerlab/1 incident, a postmortem in "
          "Markdown with ```timing/```spec blocks, or a postmortem with a UTC timeline table"};
}

}  // namespace breakerlab::data_detail
