#include "utf8.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

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
  const auto bad = findInvalidUtf8(text);
  if (!bad) return;
  const TextPosition pos = textPositionAt(text, *bad);
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*bad]));
  throw LoadError(file, first_line - 1 + pos.line, pos.column,
                  std::string("not UTF-8 text (byte ") + byte + ")");
}

}  // namespace breakerlab::data_detail
