#include "utf8.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "breakerlab/data/load_error.h"

namespace breakerlab::data_detail {

namespace {
bool continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// The length of the well-formed sequence at text[i], or 0.
std::size_t sequenceLength(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = at(i);
  const std::size_t left = text.size() - i;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return left >= 2 && continuation(at(i + 1)) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (left < 3 || !continuation(at(i + 1)) || !continuation(at(i + 2))) return 0;
    if (c == 0xE0 && at(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && at(i + 1) >= 0xA0) return 0;  // UTF-16 surrogates
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (left < 4 || !continuation(at(i + 1)) || !continuation(at(i + 2)) ||
        !continuation(at(i + 3)))
      return 0;
    if (c == 0xF0 && at(i + 1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && at(i + 1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}
}  // namespace

std::optional<std::size_t> findInvalidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    // ASCII runs, eight bytes at a time: most documents are all ASCII.
    while (i + 8 <= text.size()) {
      std::uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) != 0) break;
      i += 8;
    }
    if (i >= text.size()) break;
    const std::size_t n = sequenceLength(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

TextPosition textPositionAt(std::string_view text, std::size_t offset) {
  TextPosition pos;
  if (offset > text.size()) offset = text.size();
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  for (std::size_t i = line_start; i < offset; ++i)
    if (!continuation(static_cast<unsigned char>(text[i]))) ++pos.column;
  return pos;
}

void requireUtf8(std::string_view text, const std::string& file, int first_line) {
  // A whole document (or a file's first line): UTF-16 is named, not blamed on its 0xFF or NULs.
  if (first_line == 1) requireNotWideEncoding(text, file);
  const auto bad = findInvalidUtf8(text);
  if (!bad) return;
  const TextPosition pos = textPositionAt(text, *bad);
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*bad]));
  throw LoadError(file, first_line - 1 + pos.line, pos.column,
                  std::string("not UTF-8 text (byte ") + byte + ")");
}

std::string wideEncodingProblem(std::string_view head) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
  const auto starts = [&](std::initializer_list<unsigned char> mark) {
    if (head.size() < mark.size()) return false;
    std::size_t i = 0;
    for (unsigned char c : mark)
      if (byte(i++) != c) return false;
    return true;
  };
  constexpr std::string_view kSave = "save it as UTF-8";
  // UTF-32 LE's mark begins with UTF-16 LE's: it is tested first.
  if (starts({0xFF, 0xFE, 0x00, 0x00}))
    return "UTF-32 text: " + std::string(kSave) +
           " (the file starts with the UTF-32 little-endian byte-order mark FF FE 00 00)";
  if (starts({0x00, 0x00, 0xFE, 0xFF}))
    return "UTF-32 text: " + std::string(kSave) +
           " (the file starts with the UTF-32 big-endian byte-order mark 00 00 FE FF)";
  if (starts({0xFF, 0xFE}))
    return "UTF-16 text: " + std::string(kSave) +
           " (the file starts with the UTF-16 little-endian byte-order mark FF FE)";
  if (starts({0xFE, 0xFF}))
    return "UTF-16 text: " + std::string(kSave) +
           " (the file starts with the UTF-16 big-endian byte-order mark FE FF)";
  // Without a mark: mostly-ASCII text in UTF-16 has a NUL in every other byte, in UTF-32 in
  // three of four. Counted over the first 256 bytes, by position modulo 4.
  const std::size_t n = std::min<std::size_t>(head.size(), 256) / 4 * 4;
  if (n < 4) return {};
  std::size_t zeros[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) zeros[i % 4] += byte(i) == 0 ? 1 : 0;
  const std::size_t per = n / 4;  // bytes at each position
  const auto mostly = [&](std::size_t z) { return z * 10 >= per * 9; };
  const auto rarely = [&](std::size_t z) { return z * 2 < per; };
  if (mostly(zeros[1]) && mostly(zeros[2]) && mostly(zeros[3]) && rarely(zeros[0]))
    return "UTF-32 text: " + std::string(kSave) +
           " (UTF-32 little-endian: three of four bytes are NUL)";
  if (mostly(zeros[0]) && mostly(zeros[1]) && mostly(zeros[2]) && rarely(zeros[3]))
    return "UTF-32 text: " + std::string(kSave) +
           " (UTF-32 big-endian: three of four bytes are NUL)";
  if (mostly(zeros[1]) && mostly(zeros[3]) && rarely(zeros[0]) && rarely(zeros[2]))
    return "UTF-16 text: " + std::string(kSave) +
           " (UTF-16 little-endian: every other byte is NUL)";
  if (mostly(zeros[0]) && mostly(zeros[2]) && rarely(zeros[1]) && rarely(zeros[3]))
    return "UTF-16 text: " + std::string(kSave) + " (UTF-16 big-endian: every other byte is NUL)";
  return {};
}

void requireNotWideEncoding(std::string_view head, const std::string& file) {
  if (std::string problem = wideEncodingProblem(head); !problem.empty())
    throw LoadError(file, 1, 1, problem);
}

bool crOnlyLineEnds(std::string_view head) {
  const std::size_t brk = head.find_first_of("\r\n");
  if (brk == std::string_view::npos || head[brk] != '\r') return false;
  if (brk + 1 < head.size() && head[brk + 1] == '\n') return false;  // CRLF
  // A lone CR at the very end is a last line's end, not a sign of classic Mac text.
  return head.find_first_not_of("\r", brk) != std::string_view::npos;
}

std::string crOnlyMessage() {
  return "lines end in CR only (classic Mac): save the file with LF (Unix) or CRLF (Windows) "
         "line ends";
}

}  // namespace breakerlab::data_detail
