#pragma once
// Internal: UTF-8 validation of text documents, and byte offsets turned into the line and column
// (in characters) that errors report.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace breakerlab::data_detail {

// The offset of the first byte that does not belong to well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF, no truncated sequence), or nullopt.
std::optional<std::size_t> findInvalidUtf8(std::string_view text);

struct TextPosition {
  int line = 1;    // 1-based
  int column = 1;  // 1-based, in characters (as yaml-cpp counts them)
};
// Where byte `offset` of `text` is. Bytes before it that are not UTF-8 count one column each.
TextPosition textPositionAt(std::string_view text, std::size_t offset);

// Throws LoadError(file, line, column, "not UTF-8 text (byte 0xFF)") at the first byte that is
// not UTF-8. `first_line` is the line number of text's first line (for a text that is one line
// of a larger file).
void requireUtf8(std::string_view text, const std::string& file, int first_line = 1);

}  // namespace breakerlab::data_detail
