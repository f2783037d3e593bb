#include "breakerlab/data/load_error.h"

namespace breakerlab {

namespace {
std::string format(const std::string& file, int line, int column, const std::string& message) {
  std::string out = file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (column > 0) out += ':' + std::to_string(column);
  }
  out += ": ";
  out += message;
  return out;
}
}  // namespace

LoadError::LoadError(std::string file, int line, int column, std::string message)
    : std::runtime_error(format(file, line, column, message)),
      file_(std::move(file)),
      line_(line > 0 ? line : 0),
      column_(line > 0 && column > 0 ? column : 0),
      message_(std::move(message)) {}

std::string clipText(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // inside a character
    if (chars++ == max_chars) return std::string(text.substr(0, i)) + "...";
  }
  return std::string(text);
}

}  // namespace breakerlab
