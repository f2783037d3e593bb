#include "yaml_prescan.h"

#include <vector>

#include "breakerlab/data/load_error.h"
#include "utf8.h"

namespace breakerlab::data_detail {

namespace {

bool isPrescanSpace(char c) {
  return c == ' ' || c == '\t';
}
bool isBreak(char c) {
  return c == '\n' || c == '\r';
}
bool isFlowIndicator(char c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

class Prescan {
 public:
  Prescan(std::string_view text, const std::string& file, std::size_t values_before)
      : t_(text), file_(file), values_(values_before) {}

  YamlPrescan result() const { return {values_, aliases_}; }

  void run() {
    while (i_ < t_.size()) {
      line_start_ = i_;
      std::size_t p = i_;
      while (p < t_.size() && t_[p] == ' ') ++p;
      const int indent = static_cast<int>(p - line_start_);
      const bool blank = p >= t_.size() || isBreak(t_[p]) || onlySpacesToEol(p);
      // Inside a block scalar (| or >) or a plain scalar that goes on over lines, every line
      // indented under the node is text, whatever it looks like.
      if (continuation_parent_ != kNone) {
        if (blank || indent > continuation_parent_) {
          nextLine();
          continue;
        }
        continuation_parent_ = kNone;
      }
      if (blank || t_[p] == '#') {
        nextLine();
        continue;
      }
      if (indent == 0 && (startsMarker(p, "---") || startsMarker(p, "..."))) {
        block_.clear();
        if (t_[p] == '.') {
          nextLine();
          continue;
        }
        p += 3;
        while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
      } else if (indent == 0 && t_[p] == '%') {
        nextLine();
        continue;
      }
      blockLine(p);
    }
  }

 private:
  static constexpr int kNone = -2;

  struct Level {
    int column;
    char kind;  // 'm' map, 's' list
  };

  bool onlySpacesToEol(std::size_t p) const {
    while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
    return p >= t_.size() || isBreak(t_[p]);
  }
  bool startsMarker(std::size_t p, std::string_view marker) const {
    return t_.substr(p, 3) == marker &&
           (p + 3 >= t_.size() || isPrescanSpace(t_[p + 3]) || isBreak(t_[p + 3]));
  }
  // An indicator (-, ?, :) counts only when a space or the line's end follows it.
  bool indicatorAt(std::size_t p) const {
    return p + 1 >= t_.size() || isPrescanSpace(t_[p + 1]) || isBreak(t_[p + 1]);
  }
  bool atEol(std::size_t p) const { return p >= t_.size() || isBreak(t_[p]); }
  int columnOf(std::size_t p) const { return static_cast<int>(p - line_start_); }

  void nextLine() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
    if (i_ < t_.size()) ++i_;
  }
  void toEol(std::size_t p) {
    i_ = p;
    nextLine();
  }

  [[noreturn]] void failAtOffset(std::size_t offset, const std::string& message) const {
    const TextPosition pos = textPositionAt(t_, offset);
    throw LoadError(file_, pos.line, pos.column, message);
  }
  [[noreturn]] void failLimit(std::size_t offset, const std::string& message) const {
    const TextPosition pos = textPositionAt(t_, offset);
    throw YamlLimitError(file_, pos.line, pos.column, message);
  }
  [[noreturn]] void tooDeep(std::size_t offset) const {
    failLimit(offset, "maps and lists are nested deeper than " + std::to_string(kMaxYamlNesting) +
                          " levels");
  }
  // One more value starts at `offset`. Counts keys, scalars and collections (an upper bound of
  // what yaml-cpp builds, near enough).
  void countValue(std::size_t offset) {
    if (++values_ > kMaxYamlValues)
      failLimit(offset, "more than " + std::to_string(kMaxYamlValues) +
                            " values (keys, scalars, maps and lists) in one document");
  }

  // A block collection of `kind` whose entries start at `column`; p is where this one starts.
  void enterBlock(int column, char kind, std::size_t p) {
    while (!block_.empty() && block_.back().column > column) block_.pop_back();
    if (!block_.empty() && block_.back().column == column) {
      if (block_.back().kind == kind) return;  // the next entry of the same collection
      // A key at the column of a list's dashes ends that list (a list may sit under its key
      // without indentation); a dash at the column of a map's keys starts such a list.
      if (kind == 'm') {
        block_.pop_back();
        if (!block_.empty() && block_.back().column == column) return;
      }
    }
    block_.push_back({column, kind});
    if (static_cast<int>(block_.size()) > kMaxYamlNesting) tooDeep(p);
  }

  // One line in block context, from its first character after the indentation.
  void blockLine(std::size_t p) {
    // Lines indented under this line's innermost entry continue what it holds.
    int entry = block_.empty() ? -1 : block_.back().column;
    for (;;) {
      if (atEol(p)) return toEol(p);
      const char c = t_[p];
      const int column = columnOf(p);
      if ((c == '-' || c == '?' || c == ':') && indicatorAt(p)) {
        countValue(p);
        enterBlock(column, c == '-' ? 's' : 'm', p);
        entry = column;
        ++p;
        while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
        continue;
      }
      if (c == '*') aliases_ = true;
      if (c == '&' || c == '!') {  // an anchor or a tag before the node
        while (p < t_.size() && !isPrescanSpace(t_[p]) && !isBreak(t_[p])) ++p;
        while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
        continue;
      }
      if (c == '#') return toEol(p);
      if (c == '"' || c == '\'') {
        countValue(p);
        const std::size_t line = line_start_;
        p = skipQuoted(p, entry);
        const bool same_line = line == line_start_;
        while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
        if (same_line && p < t_.size() && t_[p] == ':' && indicatorAt(p)) {
          enterBlock(column, 'm', p);
          entry = column;
          ++p;
          while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
          continue;
        }
        return toEol(p);
      }
      if (c == '[' || c == '{') {
        p = skipFlow(p);
        while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
        if (p < t_.size() && t_[p] == ':' && indicatorAt(p)) {
          enterBlock(column, 'm', p);
          entry = column;
          ++p;
          while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
          continue;
        }
        return toEol(p);
      }
      if ((c == '|' || c == '>') && blockScalarHeader(p + 1)) {
        continuation_parent_ = entry;
        return toEol(p);
      }
      // A plain scalar: a key when ": " follows on this line, else a value that may go on.
      countValue(p);
      std::size_t k = p;
      for (; !atEol(k); ++k) {
        if (t_[k] == ':' && indicatorAt(k)) break;
        if (t_[k] == '#' && k > p && isPrescanSpace(t_[k - 1])) break;
      }
      if (!atEol(k) && t_[k] == ':') {
        enterBlock(column, 'm', p);
        entry = column;
        p = k + 1;
        while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
        continue;
      }
      continuation_parent_ = entry;
      return toEol(k);
    }
  }

  bool blockScalarHeader(std::size_t p) const {
    while (p < t_.size() && (t_[p] == '-' || t_[p] == '+' || (t_[p] >= '0' && t_[p] <= '9'))) ++p;
    if (atEol(p)) return true;
    if (!isPrescanSpace(t_[p])) return false;
    while (p < t_.size() && isPrescanSpace(t_[p])) ++p;
    return atEol(p) || t_[p] == '#';
  }

  // A line that starts a new entry: "key: ..." or "- ..." at its indentation.
  bool looksLikeEntry(std::size_t p) const {
    if (t_[p] == '-' && indicatorAt(p)) return true;
    for (std::size_t k = p; !atEol(k); ++k) {
      if (t_[k] == ':' && indicatorAt(k)) return k > p;
      if (isPrescanSpace(t_[k]) || t_[k] == '"' || t_[k] == '\'' || isFlowIndicator(t_[k]))
        return false;
    }
    return false;
  }

  // Past the closing quote of the quoted scalar opened at `open`. `entry` (block context only,
  // else kNone) is the column its continuation lines should be indented beyond.
  std::size_t skipQuoted(std::size_t open, int entry) {
    const char quote = t_[open];
    std::size_t k = open + 1;
    while (k < t_.size()) {
      const char c = t_[k];
      if (c == '\n') {
        line_start_ = k + 1;
        std::size_t p = k + 1;
        while (p < t_.size() && t_[p] == ' ') ++p;
        // yaml-cpp reads on to the closing quote wherever it is; a next line at the indentation
        // of a key, that reads as one, is the sign of a quote left open.
        if (entry != kNone && p < t_.size() && !onlySpacesToEol(p) && columnOf(p) <= entry &&
            looksLikeEntry(p)) {
          const TextPosition next = textPositionAt(t_, p);
          failAtOffset(open, "unclosed quote: the string that starts here runs on to line " +
                                 std::to_string(next.line) +
                                 ", which reads as a new entry; close the quote on its line or "
                                 "indent the lines that continue it");
        }
        k = p;
        continue;
      }
      if (quote == '"' && c == '\\') {
        k += 2;
        continue;
      }
      if (c == quote) {
        if (quote == '\'' && k + 1 < t_.size() && t_[k + 1] == '\'') {
          k += 2;
          continue;
        }
        return k + 1;
      }
      ++k;
    }
    failAtOffset(open, "unclosed quote: the string that starts here is never closed");
  }

  // Past the flow collection opened at `open` (or the end of the text when it never closes:
  // yaml-cpp reports that).
  std::size_t skipFlow(std::size_t open) {
    const int base = static_cast<int>(block_.size());
    int depth = 0;
    bool expect_node = true;  // where a quote opens a scalar
    std::size_t k = open;
    while (k < t_.size()) {
      const char c = t_[k];
      if (c == '\n') {
        line_start_ = k + 1;
        ++k;
        continue;
      }
      if (isPrescanSpace(c) || c == '\r') {
        ++k;
        continue;
      }
      switch (c) {
        case '[':
        case '{':
          countValue(k);
          ++depth;
          if (base + depth > kMaxYamlNesting) tooDeep(k);
          expect_node = true;
          ++k;
          continue;
        case ']':
        case '}':
          ++k;
          if (--depth == 0) return k;
          expect_node = false;
          continue;
        case ',':
          expect_node = true;
          ++k;
          continue;
        case '#':
          if (k == line_start_ || isPrescanSpace(t_[k - 1])) {
            while (k < t_.size() && t_[k] != '\n') ++k;
            continue;
          }
          break;
        case ':':
        case '?':
          if (k + 1 >= t_.size() || isPrescanSpace(t_[k + 1]) || isBreak(t_[k + 1]) ||
              isFlowIndicator(t_[k + 1]) || (c == ':' && !expect_node)) {
            expect_node = true;
            ++k;
            continue;
          }
          break;
        case '*':
          if (expect_node) aliases_ = true;
          break;
        case '&':
        case '!':
          if (expect_node) {
            while (k < t_.size() && !isPrescanSpace(t_[k]) && !isBreak(t_[k]) &&
                   !isFlowIndicator(t_[k]))
              ++k;
            continue;
          }
          break;
        case '"':
        case '\'':
          if (expect_node) {
            countValue(k);
            k = skipQuoted(k, kNone);
            expect_node = false;
            continue;
          }
          break;
        default:
          break;
      }
      // A plain scalar: it ends at a flow indicator, at ": " or at a comment, not at a line end.
      countValue(k);
      for (; k < t_.size(); ++k) {
        const char x = t_[k];
        if (x == '\n') line_start_ = k + 1;
        if (isFlowIndicator(x)) break;
        if (x == ':' && (k + 1 >= t_.size() || isPrescanSpace(t_[k + 1]) || isBreak(t_[k + 1]) ||
                         isFlowIndicator(t_[k + 1])))
          break;
        if (x == '#' && isPrescanSpace(t_[k - 1])) break;
      }
      expect_node = false;
    }
    return k;
  }

  std::string_view t_;
  const std::string& file_;
  std::size_t i_ = 0;
  std::size_t line_start_ = 0;
  std::vector<Level> block_;
  int continuation_parent_ = kNone;
  std::size_t values_ = 0;
  bool aliases_ = false;
};

}  // namespace

YamlPrescan prescanYaml(std::string_view text, const std::string& file, std::size_t values_before) {
  Prescan scan(text, file, values_before);
  scan.run();
  return scan.result();
}

}  // namespace breakerlab::data_detail
