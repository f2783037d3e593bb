#include "markdown_blocks.h"

#include <algorithm>
#include <array>

#include "breakerlab/data/load_error.h"

namespace breakerlab::data_detail {

namespace {
constexpr std::array<std::string_view, 9> kPostmortemBlocks = {
    "timing", "spec", "timeline", "meta", "sequence", "stats", "state", "steps", "callout"};

std::string_view trimmedMarkdown(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A fence: at most 3 spaces of indentation, then 3 or more backticks or tildes.
bool fenceAt(std::string_view line, char& marker, std::size_t& length, std::string_view& info) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return false;
  const char c = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == c) ++n;
  if (n < 3) return false;
  marker = c;
  length = n;
  info = trimmedMarkdown(line.substr(i + n));
  return true;
}
}  // namespace

bool isPostmortemBlock(std::string_view kind) {
  // A fishbone is read too, but does not make a document a postmortem on its own.
  return kind == "fishbone" || std::find(kPostmortemBlocks.begin(), kPostmortemBlocks.end(),
                                         kind) != kPostmortemBlocks.end();
}

MarkdownParts splitMarkdown(std::string_view text, const std::string& file_name) {
  MarkdownParts parts;
  int line_no = 0;
  std::size_t pos = 0;
  bool in_block = false;
  char marker = 0;
  std::size_t fence_length = 0;
  FencedBlock block;
  auto kindOf = [](std::string_view info) { return info.substr(0, info.find_first_of(" \t{")); };
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    char m = 0;
    std::size_t n = 0;
    std::string_view info;
    if (in_block) {
      // A closing fence: the same character, at least as long, nothing after it.
      const bool fence = fenceAt(line, m, n, info) && m == marker && n >= fence_length;
      if (fence && info.empty()) {
        parts.blocks.push_back(std::move(block));
        block = {};
        in_block = false;
      } else if (fence && line.front() == m && isPostmortemBlock(block.kind) &&
                 isPostmortemBlock(kindOf(info))) {
        // "```spec" at the start of a line in a block of YAML: no YAML can start so, and it
        // would have closed the block but for its info string. The block before was never
        // closed; read on, the rest of the document would be the wrong blocks.
        throw LoadError(file_name, block.line - 1, block.fence_column,
                        "the ```" + block.kind + " block opened on line " +
                            std::to_string(block.line - 1) + " is never closed (line " +
                            std::to_string(line_no) + " opens a ```" + std::string(kindOf(info)) +
                            " block inside it)");
      } else {
        block.body.append(line);
        block.body += '\n';
      }
      continue;
    }
    if (fenceAt(line, m, n, info) && !(m == '`' && info.find('`') != std::string_view::npos)) {
      if (parts.blocks.size() >= kMaxFencedBlocks)
        throw LoadError(file_name, line_no, static_cast<int>(line.find(m)) + 1,
                        "more than " + std::to_string(kMaxFencedBlocks) +
                            " fenced blocks (```) in one document");
      in_block = true;
      marker = m;
      fence_length = n;
      block.kind = std::string(kindOf(info));
      block.line = line_no + 1;
      block.fence_column = static_cast<int>(line.find(m)) + 1;
      parts.unclosed_fence_line = line_no;
      continue;
    }
    if (const std::string_view t = trimmedMarkdown(line); !t.empty())
      parts.prose.push_back({std::string(t), line_no});
  }
  if (in_block) {
    parts.unclosed_fence = true;
    parts.blocks.push_back(std::move(block));
  }
  return parts;
}

bool looksLikeFencedPostmortem(std::string_view text) {
  // Cheap: the opening fences of the format's blocks, at a line start.
  for (std::string_view kind : kPostmortemBlocks) {
    const std::string fence = "```" + std::string(kind);
    for (std::size_t at = text.find(fence); at != std::string_view::npos;
         at = text.find(fence, at + 1)) {
      const bool line_start = at == 0 || text[at - 1] == '\n';
      const std::size_t after = at + fence.size();
      const bool word_end =
          after >= text.size() || text[after] == '\n' || text[after] == '\r' || text[after] == ' ';
      if (line_start && word_end) return true;
    }
  }
  return false;
}

}  // namespace breakerlab::data_detail
