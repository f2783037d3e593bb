// Plain-text postmortems as exported from a wiki or a document editor: prose, tables with a
// UTC column ("| 09:46 | Provider latency crosses 4 seconds | ..."), or timelines written as a
// clock time on its own line followed by what happened, and an incident window
// ("09:46-10:17 UTC", "09:14 – 13:01 UTC").
#include <algorithm>
#include <cctype>
#include <cmath>

#include "incident_id.h"
#include "phrases.h"
#include "postmortem_import.h"

namespace breakerlab::data_detail {

namespace {

std::string trimPostmortemText(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '-' ||
                        s.front() == '*' || s.front() == '|'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '|'))
    s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> cells(std::string_view line) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < line.size()) {
    const std::size_t bar = line.find('|', from);
    const std::string_view cell =
        line.substr(from, bar == std::string_view::npos ? std::string_view::npos : bar - from);
    std::string t = trimPostmortemText(cell);
    if (!t.empty() || (bar != std::string_view::npos && from > 0)) out.push_back(t);
    if (bar == std::string_view::npos) break;
    from = bar + 1;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  if (!out.empty() && out.front().empty()) out.erase(out.begin());
  return out;
}

// "09:46-10:17", "09:14 – 13:01": two clock times joined by a dash.
std::optional<std::pair<double, double>> clockRange(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) continue;
    if (i > 0 && (std::isdigit(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == ':'))
      continue;
    const auto a = clockTime(text.substr(i));
    if (!a) continue;
    std::size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == ':'))
      ++j;
    // The dash: '-', an en dash (E2 80 93) or an em dash (E2 80 94), with optional spaces.
    std::size_t k = j;
    while (k < text.size() && text[k] == ' ') ++k;
    if (k < text.size() && text[k] == '-') {
      ++k;
    } else if (k + 2 < text.size() && static_cast<unsigned char>(text[k]) == 0xE2 &&
               static_cast<unsigned char>(text[k + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[k + 2]) == 0x93 ||
                static_cast<unsigned char>(text[k + 2]) == 0x94)) {
      k += 3;
    } else {
      continue;
    }
    while (k < text.size() && text[k] == ' ') ++k;
    if (const auto b = clockTime(text.substr(k))) return std::pair{*a, *b};
  }
  return std::nullopt;
}

bool isClockLine(std::string_view t) {
  const std::string s = trimPostmortemText(t);
  if (s.size() > 8) return false;
  return clockTime(s).has_value();
}

// A title is a line of its own; a longer one is a paragraph. Kept whole: a long title is the
// document's own name, and the workbench elides it where it lacks the room.
constexpr std::size_t kMaxTextTitleChars = 240;

struct RawEvent {
  double clock;
  std::string label;
  int line;
};

}  // namespace

bool looksLikeTextPostmortem(std::string_view text) {
  // A timeline: a UTC table header, or two lines that are clock times on their own.
  if (text.find("| UTC |") != std::string_view::npos) return true;
  int clock_lines = 0;
  std::size_t pos = 0;
  while (pos < text.size() && clock_lines < 2) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (isClockLine(line)) ++clock_lines;
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  return clock_lines >= 2;
}

PostmortemFacts readTextPostmortem(std::string_view text, const std::string& file_name) {
  PostmortemFacts facts;
  facts.format = "postmortem (plain text with a UTC timeline)";
  std::vector<std::pair<std::string, int>> lines;
  {
    std::size_t pos = 0;
    int n = 0;
    while (pos < text.size()) {
      const std::size_t nl = text.find('\n', pos);
      std::string line(
          text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.emplace_back(std::move(line), ++n);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
    }
  }
  std::vector<DocumentLine> numbered;  // the header, where a document states its id
  for (const auto& [line, number] : lines) {
    if (number > kIncidentIdHeaderLines) break;
    numbered.push_back({line, number});
  }
  const std::optional<StatedIncidentId> stated = statedIncidentId(numbered);
  if (stated) {
    facts.id = stated->id;
    facts.id_line = stated->line;
  }
  std::vector<RawEvent> events;
  std::optional<std::pair<double, double>> window;
  bool after_header_label = false;  // the line before was a header label: this one is its value
  int window_line = 0;
  bool remediation = false;
  std::size_t hint_count = 0;
  auto countHint = [&](int line) {
    if (++hint_count > kMaxPostmortemHints)
      throw LoadError(file_name, line, 0, hintsLimitMessage());
  };
  auto addEvent = [&](RawEvent e) {
    if (events.size() >= kMaxPostmortemEvents)
      throw LoadError(file_name, e.line, 1,
                      "more than " + std::to_string(kMaxPostmortemEvents) +
                          " events (timeline rows and clock-time lines)");
    events.push_back(std::move(e));
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i].first;
    const int line_no = lines[i].second;

    const std::string t = trimPostmortemText(line);
    if (t.empty()) continue;
    // "- Incident" / "- INC-2026-0912", "- Authors" / "- D. Kaur": a header's labels and values
    // are facts about the document, never its title.
    const bool header_fact = after_header_label || isHeaderLabel(t) ||
                             (stated && (line_no == stated->line || line_no == stated->label_line));
    after_header_label = isHeaderLabel(t);
    std::string lower = t;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t.size() < 40 &&
        (lower == "what changes" || lower.find("action item") == 0 || lower == "remediation" ||
         lower.find("contributing") == 0 || lower == "what went well")) {
      remediation = lower != "contributing factors";
      continue;
    }
    if (t.size() < 40 &&
        (lower.find("timeline") == 0 || lower == "impact" || lower == "root cause"))
      remediation = false;
    if (!window) {
      if (auto r = clockRange(t)) {
        window = r;
        window_line = line_no;
      }
    }
    if (line.find('|') != std::string::npos) {
      const std::vector<std::string> row = cells(line);
      if (row.size() >= 2) {
        if (auto c = clockTime(row[0]); c && row[0].size() <= 8) {
          std::string label = row[1];
          if (row.size() > 2 && !row[2].empty()) label += " · " + row[2];
          addEvent({*c, label, line_no});
          continue;
        }
        // "| Failed attempts | 1,284 | confirmed from checkout events |": a measure.
        if (!row[0].empty() && !row[1].empty() &&
            std::isdigit(static_cast<unsigned char>(row[1].front())) &&
            std::isalpha(static_cast<unsigned char>(row[0].front())))
          facts.stats.push_back({row[0], row[1], line_no});
      }
    }
    // "- 09:02" then the title line (and a detail line).
    if (isClockLine(line) && i + 1 < lines.size()) {
      std::string label = trimPostmortemText(lines[i + 1].first);
      if (i + 2 < lines.size() && !isClockLine(lines[i + 2].first) &&
          trimPostmortemText(lines[i + 2].first).size() > 0)
        label += " · " + trimPostmortemText(lines[i + 2].first);
      addEvent({*clockTime(trimPostmortemText(line)), label, line_no});
      continue;
    }
    if (facts.summary.empty() && t.size() > 60) facts.summary = summaryOf(t, 400);
    if (facts.title.empty() && !header_fact && t.size() > 10 && t.size() < kMaxTextTitleChars &&
        i < 12 && t.find("Incident") == std::string::npos)
      facts.title = t;
    for (const std::string& clause : splitClauses(t)) {
      std::vector<PhraseHint> found = recognisePhrases(clause);
      for (PhraseHint& h : found) {
        countHint(line_no);
        FactHint hint{std::move(h.key), std::move(h.value), std::move(h.quote), line_no, 1};
        if (remediation) {
          if (facts.what_ifs.empty() || facts.what_ifs.back().line != line_no) {
            FactWhatIf w;
            w.name = "change";
            w.description = shortQuote(t, 200);
            w.line = line_no;
            facts.what_ifs.push_back(std::move(w));
          }
          facts.what_ifs.back().hints.push_back(std::move(hint));
        } else {
          facts.hints.push_back(std::move(hint));
        }
      }
    }
  }
  // No labelled id: one in the title ("INC-2026-0912 · Payment timeout").
  if (facts.id.empty()) facts.id = incidentIdInTitle(facts.title);
  if (events.empty() && !window) return facts;
  const double t0 = window ? window->first : events.front().clock;
  facts.t0_clock = t0;
  auto since = [&](double clock) {
    double d = clock - t0;
    if (d < -43200) d += 86400;  // past midnight
    return static_cast<Micros>(std::llround(d * 1e6));
  };
  for (const RawEvent& e : events) {
    facts.events.push_back({since(e.clock), e.label, "", e.line});
    for (PhraseHint& h : recognisePhrases(e.label)) {
      countHint(e.line);
      facts.hints.push_back({std::move(h.key), std::move(h.value), std::move(h.quote), e.line, 1});
    }
  }
  std::sort(facts.events.begin(), facts.events.end(),
            [](const FactEvent& a, const FactEvent& b) { return a.at < b.at; });
  facts.window_start = window ? Micros{0} : facts.events.front().at;
  facts.window_end = window ? since(window->second) : facts.events.back().at;
  if (!window && facts.events.size() >= 2) facts.window_start = facts.events.front().at;
  if (window_line > 0)
    facts.notes.push_back({ImportFinding::Kind::recognised, window_line, "window",
                           "the incident window of the document"});
  return facts;
}

}  // namespace breakerlab::data_detail
