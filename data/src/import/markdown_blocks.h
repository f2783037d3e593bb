#pragma once
// Internal: a postmortem document in the team's format cut into its parts: fenced blocks
// (```timing, ```spec, ... with YAML bodies) and the prose between them, each with the line it
// starts on, so that everything recognised later can say where it came from.
#include <string>
#include <string_view>
#include <vector>

namespace breakerlab::data_detail {

struct FencedBlock {
  std::string kind;  // the info string's first word: "timing", "spec", "" when none
  std::string body;  // the lines between the fences
  int line = 0;      // of the body's first line (1-based)
};

struct ProseLine {
  std::string text;
  int line = 0;
};

struct MarkdownParts {
  std::vector<FencedBlock> blocks;
  std::vector<ProseLine> prose;  // non-empty lines outside fences, headings included
  bool unclosed_fence = false;   // the last block runs to the end of the file
  int unclosed_fence_line = 0;
};

MarkdownParts splitMarkdown(std::string_view text);

// Whether the text reads as a postmortem in the fenced-block format (a ```timing, ```spec,
// ```timeline, ```meta ... block).
bool looksLikeFencedPostmortem(std::string_view text);

}  // namespace breakerlab::data_detail
