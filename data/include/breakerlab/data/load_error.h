#pragma once
// The one exception the data library throws for bad input: it names where and what.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace breakerlab {

// A problem in an input file (or a command-line value), with its position. Lines and columns
// are 1-based; 0 means unknown. what() is "FILE:LINE:COLUMN: MESSAGE", "FILE:LINE: MESSAGE"
// when the column is unknown, and "FILE: MESSAGE" when the line is unknown.
class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, int line, int column, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

// Errors quote at most this many characters of the text they are about: a 10 MB field is named,
// not echoed.
inline constexpr std::size_t kMaxQuotedChars = 80;

// `text` cut to at most `max_chars` characters (at a UTF-8 character boundary), followed by
// "..." when it was cut.
std::string clipText(std::string_view text, std::size_t max_chars = kMaxQuotedChars);

}  // namespace breakerlab
