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

// The UTF-8 byte-order mark (EF BB BF) that Excel's "CSV UTF-8" and Notepad write first.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
inline bool startsWithUtf8Bom(std::string_view text) {
  return text.substr(0, kUtf8Bom.size()) == kUtf8Bom;
}
// `text` without a leading UTF-8 byte-order mark: every reader skips it.
inline std::string_view skipUtf8Bom(std::string_view text) {
  return startsWithUtf8Bom(text) ? text.substr(kUtf8Bom.size()) : text;
}

// "UTF-16 text: save it as UTF-8 (...)" when the first bytes of a file are UTF-16 or UTF-32 (a
// byte-order mark, or NULs in every other or three of four bytes), else empty. Readers would
// otherwise stop at the first NUL or at the mark's 0xFF and blame something else.
std::string wideEncodingProblem(std::string_view head);
// Throws LoadError(file, 1, 1, wideEncodingProblem(head)) when that is not empty.
void requireNotWideEncoding(std::string_view head, const std::string& file);

// Whether the first line break in `head` is a lone CR with more text after it: classic Mac line
// ends, which line-based readers (request logs, postmortems) would take as one long line.
bool crOnlyLineEnds(std::string_view head);
// The message for such a file.
std::string crOnlyMessage();

}  // namespace breakerlab::data_detail
