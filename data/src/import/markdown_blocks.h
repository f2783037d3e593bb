#pragma once
// Internal: a postmortem document in the team's format cut into its parts: fenced blocks
// (```timing, ```spec, ... with YAML bodies) and the prose between them, each with the line it
// starts on, so that everything recognised later can say where it came from.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace breakerlab::data_detail {

struct FencedBlock {
  std::string kind;      // the info string's first word: "timing", "spec", "" when none
  std::string body;      // the lines between the fences
  int line = 0;          // of the body's first line (1-based)
  int fence_column = 1;  // of the opening fence
};

struct ProseLine {
  std::string text;
  int line = 0;
};

struct MarkdownParts {
  std::vector<FencedBlock> blocks;
  std::vector<ProseLine> prose;  // non-empty lines outside fences, headings included
  bool unclosed_fence = false;   // the last block runs to the end of the file
  int unclosed_fence_line = 0;   // the line of its opening fence
};

// Fenced blocks in one document. A postmortem has a dozen or two; each is read as YAML and may
// add lanes, expectations and what-ifs, so 30,000 of them took 50 s and 1.3 GB.
inline constexpr std::size_t kMaxFencedBlocks = 1'000;

// Throws LoadError (file_name, line, column) at the fence past kMaxFencedBlocks, and at a block
// of the format's (```timing, ```spec, ...) whose closing fence is missing, as a later line
// shows: one that opens another of the format's blocks at the start of a line ("```spec"), which
// can be neither YAML nor a closing fence.
MarkdownParts splitMarkdown(std::string_view text, const std::string& file_name);

// Whether `kind` is one of the format's blocks (```timing, ```spec, ...).
bool isPostmortemBlock(std::string_view kind);

// Whether the text reads as a postmortem in the fenced-block format (a ```timing, ```spec,
// ```timeline, ```meta ... block).
bool looksLikeFencedPostmortem(std::string_view text);

}  // namespace breakerlab::data_detail
