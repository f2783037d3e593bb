// The incident id a postmortem states. Documents exported from a wiki or an editor put it in a
// header as "Incident: X", as a table row, or as a definition list whose label and value are
// lines of their own (issue #33: seed 004's "- Incident" / "- INC-SYNTHETIC-..." was not read).
#include "incident_id.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace breakerlab::data_detail {

namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// `s` without the list and table marks around it: "- Incident", "* **Incident:**", "| X |",
// "• X".
std::string_view withoutListMarks(std::string_view s) {
  for (bool again = true; again && !s.empty();) {
    again = false;
    while (!s.empty() && (isBlank(s.front()) || s.front() == '-' || s.front() == '*' ||
                          s.front() == '|' || s.front() == '>')) {
      s.remove_prefix(1);
      again = true;
    }
    if (s.substr(0, 3) == "\xE2\x80\xA2") {  // a bullet, as a word processor writes it
      s.remove_prefix(3);
      again = true;
    }
  }
  while (!s.empty() && (isBlank(s.back()) || s.back() == '|')) s.remove_suffix(1);
  return s;
}

// A label is a few words; a longer text is not compared (nor copied: a line may be megabytes).
constexpr std::size_t kMaxLabelChars = 48;

// A label as compared: lower case, emphasis marks and a trailing colon dropped, blanks single.
std::string labelKey(std::string_view text) {
  std::string out;
  text = withoutListMarks(text);
  if (text.size() > kMaxLabelChars) return out;
  for (char c : text) {
    if (c == '*' || c == '_' || c == '`') continue;
    if (isBlank(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ':')) out.pop_back();
  return out;
}

constexpr std::array<std::string_view, 9> kIdLabels = {
    "incident",        "incident id",        "incident #",
    "incident number", "incident no",        "incident no.",
    "incident ref",    "incident reference", "id"};

// Labels of a postmortem's header whose values are short facts, never its title.
constexpr std::array<std::string_view, 17> kOtherHeaderLabels = {"status",
                                                                 "state",
                                                                 "author",
                                                                 "authors",
                                                                 "owner",
                                                                 "owners",
                                                                 "team",
                                                                 "reviewed",
                                                                 "reviewer",
                                                                 "reviewers",
                                                                 "reviewed by",
                                                                 "severity",
                                                                 "sev",
                                                                 "date",
                                                                 "published",
                                                                 "last updated",
                                                                 "incident commander"};

bool isIdLabel(std::string_view text) {
  const std::string key = labelKey(text);
  return std::find(kIdLabels.begin(), kIdLabels.end(), key) != kIdLabels.end();
}

// `text` as an id when it is one word of letters, digits, dots, dashes and underscores with a
// digit or a dash in it ("INC-2026-0912", "4211", "PAY.311"); "#4211" is 4211. Words such as
// "declared" or "Resolved" are not ids.
std::optional<std::string> idValue(std::string_view text) {
  while (!text.empty() && (isBlank(text.front()) || text.front() == '*' || text.front() == '`'))
    text.remove_prefix(1);
  while (!text.empty() && (isBlank(text.back()) || text.back() == '*' || text.back() == '`'))
    text.remove_suffix(1);
  if (!text.empty() && text.front() == '#') text.remove_prefix(1);
  if (text.empty() || text.size() > kMaxIncidentIdChars) return std::nullopt;
  if (!std::isalnum(static_cast<unsigned char>(text.front()))) return std::nullopt;
  bool digit_or_dash = false;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '-' && c != '_' && c != '.') return std::nullopt;
    digit_or_dash = digit_or_dash || std::isdigit(u) || c == '-';
  }
  if (!digit_or_dash || text.back() == '.' || text.back() == '-') return std::nullopt;
  return std::string(text);
}

// The first word of `text` (after blanks) and whether more words follow it.
std::pair<std::string_view, bool> firstWord(std::string_view text) {
  while (!text.empty() && isBlank(text.front())) text.remove_prefix(1);
  std::size_t end = 0;
  while (end < text.size() && !isBlank(text[end])) ++end;
  std::string_view rest = text.substr(end);
  while (!rest.empty() && isBlank(rest.front())) rest.remove_prefix(1);
  return {text.substr(0, end), !rest.empty()};
}

// "| Incident ID | INC-2026-0912 |": the first two cells.
std::optional<std::string> idInTableRow(std::string_view text) {
  std::vector<std::string_view> cells;
  std::size_t from = 0;
  while (from <= text.size() && cells.size() < 3) {
    const std::size_t bar = text.find('|', from);
    const std::string_view cell =
        text.substr(from, bar == std::string_view::npos ? std::string_view::npos : bar - from);
    if (!withoutListMarks(cell).empty()) cells.push_back(cell);
    if (bar == std::string_view::npos) break;
    from = bar + 1;
  }
  if (cells.size() < 2 || !isIdLabel(cells[0])) return std::nullopt;
  return idValue(withoutListMarks(cells[1]));
}

// "Incident: INC-2026-0912", "**Incident ID:** INC-2026-0912 (SEV-1)": the first word after
// the colon.
std::optional<std::string> idAfterColon(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos || !isIdLabel(text.substr(0, colon))) return std::nullopt;
  std::string_view rest = text.substr(colon + 1);
  // "**Incident ID:** X": the label's closing emphasis comes after its colon.
  while (!rest.empty() && (isBlank(rest.front()) || rest.front() == '*' || rest.front() == '_'))
    rest.remove_prefix(1);
  return idValue(firstWord(rest).first);
}

// "Incident INC-2026-0912", "Incident #4211": a label, then the id as the line's last word.
std::optional<std::string> idAfterLabelWords(std::string_view text) {
  text = withoutListMarks(text);
  const std::size_t space = text.find_last_of(" \t");
  if (space == std::string_view::npos || !isIdLabel(text.substr(0, space))) return std::nullopt;
  return idValue(text.substr(space + 1));
}

}  // namespace

std::string incidentIdInTitle(std::string_view text) {
  for (std::size_t i = 0; i + 4 < text.size(); ++i) {
    if (!std::isupper(static_cast<unsigned char>(text[i]))) continue;
    if (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))) continue;
    std::size_t j = i;
    while (j < text.size() && std::isupper(static_cast<unsigned char>(text[j]))) ++j;
    if (j == i || j - i > 8 || j >= text.size() || text[j] != '-') continue;
    std::size_t k = j + 1;
    bool digit = false;
    while (k < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '-')) {
      digit = digit || std::isdigit(static_cast<unsigned char>(text[k]));
      ++k;
    }
    while (k > j + 1 && text[k - 1] == '-') --k;
    if (digit && k - i <= 40) return std::string(text.substr(i, k - i));
  }
  return {};
}

bool isHeaderLabel(std::string_view text) {
  const std::string key = labelKey(text);
  return std::find(kIdLabels.begin(), kIdLabels.end(), key) != kIdLabels.end() ||
         std::find(kOtherHeaderLabels.begin(), kOtherHeaderLabels.end(), key) !=
             kOtherHeaderLabels.end();
}

std::optional<StatedIncidentId> statedIncidentId(const std::vector<DocumentLine>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const DocumentLine& l = lines[i];
    if (l.line > kIncidentIdHeaderLines) break;
    std::optional<std::string> id;
    if (l.text.find('|') != std::string_view::npos) id = idInTableRow(l.text);
    if (!id) id = idAfterColon(l.text);
    if (!id) id = idAfterLabelWords(l.text);
    if (id) return StatedIncidentId{std::move(*id), l.line, l.line};
    // The label alone on its line, the id alone on the next one that is not blank.
    if (!isIdLabel(l.text)) continue;
    for (std::size_t k = i + 1; k < lines.size() && k <= i + 2; ++k) {
      const std::string_view value = withoutListMarks(lines[k].text);
      if (value.empty()) continue;
      const auto [word, more] = firstWord(value);
      if (!more)
        if (auto found = idValue(word))
          return StatedIncidentId{std::move(*found), lines[k].line, l.line};
      break;
    }
  }
  return std::nullopt;
}

}  // namespace breakerlab::data_detail
