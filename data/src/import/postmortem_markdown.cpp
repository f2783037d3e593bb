// The team's postmortem format: Markdown with fenced blocks of YAML (```meta, ```timing,
// ```spec, ```sequence, ```state, ```stats, ```timeline, ```steps, ```callout, ```fishbone).
// Collects what each block and sentence states, with its line.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "../yaml_prescan.h"
#include "../yaml_source.h"
#include "breakerlab/data/values.h"
#include "incident_id.h"
#include "markdown_blocks.h"
#include "phrases.h"
#include "postmortem_import.h"

namespace breakerlab::data_detail {

namespace {

constexpr int kPrioritySpec = 3;     // a spec row or a state guard: the config as stated
constexpr int kPriorityDiagram = 2;  // a sequence message, a fishbone bone
constexpr int kPriorityProse = 1;    // a sentence

// The `code` of a step read as YAML for its retry settings: longer ones are not read.
constexpr std::size_t kMaxStepCodeBytes = 4096;

bool containsWord(std::string_view text, std::string_view word) {
  return lowerCopy(text).find(word) != std::string::npos;
}

std::string scalar(const YAML::Node& n) {
  return n && n.IsScalar() ? n.Scalar() : std::string();
}

int lineOf(const YAML::Node& n, int block_line) {
  const YAML::Mark m = n.Mark();
  return m.is_null() || m.line < 0 ? block_line : block_line + m.line;
}

class Reader {
 public:
  Reader(std::string_view text, std::string file_name)
      : text_(text), file_name_(std::move(file_name)) {}

  PostmortemFacts read() {
    facts_.format = "postmortem (Markdown with fenced blocks)";
    const MarkdownParts parts = splitMarkdown(text_, file_name_);
    if (parts.unclosed_fence)
      note(parts.unclosed_fence_line, "fence",
           "the ``` fence opened here is never closed: its block runs to the end of the file");
    for (std::size_t i = 0; i < parts.blocks.size(); ++i)
      block(parts.blocks[i], parts.unclosed_fence && i + 1 == parts.blocks.size());
    prose(parts.prose);
    if (facts_.id.empty()) statedId(parts.prose);
    return std::move(facts_);
  }

 private:
  // Fails at `n` (in the block whose body starts on `block_line`): "more than <what>".
  [[noreturn]] void tooMany(const YAML::Node& n, int block_line, const std::string& what) const {
    const YAML::Mark m = n.Mark();
    throw LoadError(file_name_, lineOf(n, block_line),
                    m.is_null() || m.column < 0 ? 0 : m.column + 1, "more than " + what);
  }
  static std::string eventsLimit() {
    return std::to_string(kMaxPostmortemEvents) + " events (```timing events and timeline items)";
  }

  void note(int line, std::string what, std::string detail) {
    facts_.notes.push_back({ImportFinding::Kind::note, line, std::move(what), std::move(detail)});
  }

  void hints(std::string_view clause, std::string_view context, int line, int priority,
             std::vector<FactHint>& out) {
    for (PhraseHint& h : recognisePhrases(clause, context)) {
      if (++hint_count_ > kMaxPostmortemHints)
        throw LoadError(file_name_, line, 0, hintsLimitMessage());
      out.push_back({std::move(h.key), std::move(h.value), std::move(h.quote), line, priority});
    }
  }
  void deployed(std::string_view clause, std::string_view context, int line, int priority) {
    hints(clause, context, line, priority, facts_.hints);
  }

  // `unclosed`: the block's closing fence is missing, so it runs to the end of the file.
  void block(const FencedBlock& b, bool unclosed) {
    if (!isPostmortemBlock(b.kind)) return;
    const int fence_line = b.line - 1;
    const std::string where =
        "the ```" + b.kind + " block opened on line " + std::to_string(fence_line);
    YAML::Node root;
    try {
      // The blocks share the limit of values of one YAML document: a thousand blocks of a
      // million values would be a billion.
      const YamlPrescan scan = prescanYaml(b.body, file_name_, values_);
      root = parseYaml(b.body, file_name_);
      values_ = requireBoundedExpansion(root, file_name_, scan.aliases, values_);
    } catch (const YamlLimitError& e) {
      // Past a limit of the document, not a block to leave out: the reason, where it is.
      throw LoadError(file_name_, e.line() > 0 ? b.line + e.line() - 1 : fence_line,
                      e.line() > 0 ? e.column() : b.fence_column, e.message() + " (" + where + ")");
    } catch (const LoadError& e) {
      const int line = e.line() > 0 ? b.line + e.line() - 1 : b.line;
      // The rest of the document, read as this block: what made it unreadable is the fence.
      if (unclosed)
        throw LoadError(file_name_, fence_line, b.fence_column,
                        where +
                            " is never closed: the rest of the document is read as its "
                            "YAML, which fails on line " +
                            std::to_string(line));
      note(line, "```" + b.kind + " block",
           "not readable as YAML (" + shortQuote(e.message(), 120) + "); left out");
      if (b.kind == "timing" && !facts_.timing_problem)
        facts_.timing_problem = {
            line, e.line() > 0 ? e.column() : 0,
            where + " is not readable as YAML (" + shortQuote(e.message(), 120) + ")"};
      return;
    }
    if (!root.IsMap()) {
      note(b.line, "```" + b.kind + " block", "expected a YAML map; left out");
      return;
    }
    try {
      if (b.kind == "meta") meta(root, b.line);
      if (b.kind == "timing") timing(root, b.line);
      if (b.kind == "spec") spec(root, b.line);
      if (b.kind == "sequence") sequence(root, b.line);
      if (b.kind == "state") stateDiagram(root, b.line);
      if (b.kind == "stats") stats(root, b.line);
      if (b.kind == "timeline") timeline(root, b.line);
      if (b.kind == "steps") steps(root, b.line);
      if (b.kind == "callout") callout(root, b.line);
      if (b.kind == "fishbone") fishbone(root, b.line);
    } catch (const YAML::Exception& e) {
      note(b.line, "```" + b.kind + " block", "not in the shape BreakerLab reads (" + e.msg + ")");
    }
  }

  void meta(const YAML::Node& n, int line) {
    facts_.title = scalar(n["title"]);
    // `id:` as the block states it, else an id in the subtitle or the title.
    for (const char* key : {"id", "subtitle", "title"}) {
      const YAML::Node value = n[key];
      std::string id = scalar(value);
      if (std::string_view(key) != "id") id = incidentIdInTitle(id);
      if (id.empty() || id.size() > kMaxIncidentIdChars) continue;
      facts_.id = std::move(id);
      facts_.id_line = lineOf(value, line);
      break;
    }
  }

  // `unit` of the timing block: the lanes' numbers in seconds unless it says otherwise.
  static double unitSeconds(const std::string& unit) {
    if (unit == "ms") return 1e-3;
    if (unit == "min" || unit == "m") return 60;
    if (unit == "h") return 3600;
    return 1;
  }

  std::optional<Micros> timeValue(const YAML::Node& v, double unit) {
    if (!v || !v.IsScalar()) return std::nullopt;
    if (auto n = parseNumber(v.Scalar())) {
      const double us = std::round(*n * unit * 1e6);
      if (std::abs(us) > static_cast<double>(kMaxDuration)) return std::nullopt;
      return static_cast<Micros>(us);
    }
    if (auto t = parseTimePoint(v.Scalar())) return *t;
    return std::nullopt;
  }

  void timing(const YAML::Node& n, int line) {
    const double unit = unitSeconds(scalar(n["unit"]));
    if (const YAML::Node lanes = n["lanes"]; lanes && lanes.IsSequence()) {
      for (const auto& lane : lanes) {
        FactLane l;
        l.label = scalar(lane["label"]);
        l.line = lineOf(lane, line);
        if (const YAML::Node states = lane["states"]; states && states.IsSequence()) {
          for (const auto& s : states) {
            if (l.intervals.size() >= kMaxLaneStates)
              tooMany(
                  s, line,
                  std::to_string(kMaxLaneStates) + " states in lane " + shortQuote(l.label, 40));
            const auto from = timeValue(s["from"], unit);
            const auto to = timeValue(s["to"], unit);
            if (!from || !to || *to <= *from) {
              note(lineOf(s, line), "lane " + l.label, "a state without a from/to span; left out");
              continue;
            }
            if (!l.intervals.empty() && *from < l.intervals.back().to) {
              note(lineOf(s, line), "lane " + l.label,
                   "a state that overlaps the one before; left out");
              continue;
            }
            l.intervals.push_back({scalar(s["state"]), *from, *to, {}});
          }
        }
        if (!l.intervals.empty()) facts_.lanes.push_back(std::move(l));
      }
    }
    if (const YAML::Node events = n["events"]; events && events.IsSequence()) {
      for (const auto& e : events) {
        const auto at = timeValue(e["at"], unit);
        if (!at) continue;
        if (facts_.events.size() >= kMaxPostmortemEvents) tooMany(e, line, eventsLimit());
        facts_.events.push_back({*at, scalar(e["label"]), scalar(e["lane"]), lineOf(e, line)});
      }
    }
    if (const YAML::Node constraints = n["constraints"]; constraints && constraints.IsSequence()) {
      for (const auto& c : constraints) {
        const auto from = timeValue(c["from"], unit);
        const auto to = timeValue(c["to"], unit);
        if (!from || !to || *to <= *from) continue;
        facts_.brackets.push_back({*from, *to, scalar(c["label"])});
        facts_.bracket_lines.push_back(lineOf(c, line));
      }
    }
    const std::string title = scalar(n["title"]);
    // "14:02:00 to 14:03:00 UTC": the clock time of t=0.
    if (!facts_.t0_clock) {
      for (std::size_t i = 0; i < title.size(); ++i)
        if (auto c = clockTime(std::string_view(title).substr(i)); c) {
          facts_.t0_clock = *c;
          break;
        }
    }
  }

  void spec(const YAML::Node& n, int line) {
    const YAML::Node rows = n["rows"];
    if (!rows || !rows.IsSequence()) return;
    for (const auto& row : rows) {
      const std::string label = scalar(row["label"]);
      const int row_line = lineOf(row, line);
      const bool remediation = containsWord(label, "fix") || containsWord(label, "proposed") ||
                               containsWord(label, "remediation") || containsWord(label, "change");
      std::vector<std::string> texts;
      if (const std::string v = scalar(row["value"]); !v.empty()) texts.push_back(v);
      if (const YAML::Node s = row["steps"]; s && s.IsSequence())
        for (const auto& step : s)
          if (step.IsScalar()) texts.push_back(step.Scalar());
      if (remediation) {
        FactWhatIf w;
        w.name = "proposed-fix";
        w.line = row_line;
        for (const std::string& t : texts) {
          if (!w.description.empty()) w.description += "; ";
          w.description += t;
          for (const std::string& clause : splitClauses(t))
            hints(clause, label, row_line, kPrioritySpec, w.hints);
        }
        if (!w.hints.empty()) facts_.what_ifs.push_back(std::move(w));
        continue;
      }
      const std::size_t before = facts_.hints.size();
      for (const std::string& t : texts)
        for (const std::string& clause : splitClauses(t))
          deployed(clause, label, row_line, kPrioritySpec);
      // A row that states a setting the import cannot read is listed, so that a default it
      // assumes instead is never taken for what the document says.
      if (facts_.hints.size() == before && !texts.empty())
        note(row_line, "spec row",
             "'" + clipText(label, 40) + ": " + clipText(texts.front(), 60) +
                 "' is not recognised: nothing is read from it, and a setting it states keeps "
                 "the import's assumption (check it in the config)");
    }
  }

  void sequence(const YAML::Node& n, int line) {
    std::map<std::string, std::string> actors;
    if (const YAML::Node list = n["actors"]; list && list.IsSequence())
      for (const auto& a : list) actors[scalar(a["id"])] = scalar(a["name"]);
    if (const YAML::Node messages = n["messages"]; messages && messages.IsSequence()) {
      for (const auto& m : messages) {
        std::string text = m.IsScalar() ? m.Scalar() : scalar(m["label"]);
        // The actor a call with a timeout goes to is the dependency: "A -> +B: ... timeout".
        if (m.IsScalar() && facts_.dependency_name.empty() && containsWord(text, "timeout")) {
          const std::size_t arrow = text.find("->");
          const std::size_t colon = text.find(':');
          if (arrow != std::string::npos && colon != std::string::npos && colon > arrow) {
            std::string target = text.substr(arrow + 2, colon - arrow - 2);
            target.erase(std::remove_if(target.begin(), target.end(),
                                        [](char c) { return c == '+' || c == '-' || c == ' '; }),
                         target.end());
            std::string name = actors.count(target) ? actors[target] : target;
            if (const auto space = name.find(' '); space != std::string::npos)
              name = name.substr(0, space);
            if (!name.empty()) facts_.dependency_name = name;
          }
        }
        // "Orders -> +Pricing: get price (sync, 5 s timeout)": what follows the colon.
        const std::size_t colon = text.find(':');
        if (colon != std::string::npos) text = text.substr(colon + 1);
        deployed(text, "", lineOf(m, line), kPriorityDiagram);
      }
    }
    if (const YAML::Node foot = n["foot"]; foot && foot.IsSequence()) {
      for (const auto& f : foot) {
        const std::string label = scalar(f["label"]);
        const std::string value = scalar(f["value"]);
        facts_.stats.push_back({label, value, lineOf(f, line)});
        deployed(label + ": " + value, label, lineOf(f, line), kPriorityDiagram);
      }
    }
  }

  void stateDiagram(const YAML::Node& n, int line) {
    const YAML::Node transitions = n["transitions"];
    if (!transitions || !transitions.IsSequence()) return;
    for (const auto& t : transitions) {
      const std::string from = lowerCopy(scalar(t["from"]));
      const std::string to = lowerCopy(scalar(t["to"]));
      const std::string guard = scalar(t["guard"]);
      if (guard.empty()) continue;
      std::string context;
      if (from.find("closed") != std::string::npos && to.find("open") != std::string::npos)
        context = "trip threshold";
      else if (from.find("half") != std::string::npos)
        context = "half-open probes";
      else if (from.find("open") != std::string::npos)
        context = "open interval";
      deployed(guard, context, lineOf(t, line), kPrioritySpec - 1);
    }
  }

  void stats(const YAML::Node& n, int line) {
    const YAML::Node list = n["stats"];
    if (!list || !list.IsSequence()) return;
    for (const auto& s : list)
      facts_.stats.push_back({scalar(s["label"]), scalar(s["value"]), lineOf(s, line)});
  }

  // "[done] 09:41 · Deploy 2026.08.14-3 ships · Enables price-check-v2 ..."
  void timeline(const YAML::Node& n, int line) {
    const YAML::Node items = n["items"];
    if (!items || !items.IsSequence()) return;
    std::optional<double> first;
    // This block's items: those of blocks before are events already.
    const std::size_t from = timeline_events_.size();
    for (const auto& item : items) {
      if (!item.IsScalar()) continue;
      std::string text = item.Scalar();
      if (!text.empty() && text[0] == '[') {
        const std::size_t close = text.find(']');
        if (close != std::string::npos) text = text.substr(close + 1);
      }
      // At once, not a character at a time: erasing the first of a million spaces a million
      // times is quadratic.
      text.erase(0, std::min(text.find_first_not_of(' '), text.size()));
      const auto clock = clockTime(text);
      if (!clock) continue;  // "15 Aug · ...": a later day
      if (!first) first = *clock;
      double t = *clock - *first;
      if (t < 0) t += 86400;  // past midnight
      std::string label = text.substr(
          text.find_first_of(" \t") == std::string::npos ? text.size() : text.find_first_of(" \t"));
      // The middle dot separates the title from the detail.
      label.erase(0, std::min(label.find_first_not_of(" \xC2\xB7"), label.size()));
      const int item_line = lineOf(item, line);
      if (facts_.events.size() + (timeline_events_.size() - from) >= kMaxPostmortemEvents)
        tooMany(item, line, eventsLimit());
      timeline_events_.push_back(
          {static_cast<Micros>(std::llround(t * 1e6)), label, "", item_line});
      deployed(label, "", item_line, kPriorityProse);
    }
    if (first && timeline_events_.size() > from) {
      facts_.t0_clock = facts_.t0_clock ? facts_.t0_clock : first;
      // Only this block's items: each block adding all items so far made a document of k
      // timeline blocks k^2/2 events.
      for (std::size_t i = from; i < timeline_events_.size(); ++i)
        facts_.events.push_back(timeline_events_[i]);
      facts_.window_start = 0;
      facts_.window_end = timeline_events_.back().at;
    }
  }

  void steps(const YAML::Node& n, int line) {
    const YAML::Node items = n["items"];
    if (!items || !items.IsSequence()) return;
    int index = 0;
    for (const auto& item : items) {
      ++index;
      FactWhatIf w;
      const std::string title = scalar(item["title"]);
      w.name = "step-" + std::to_string(index);
      w.description = title;
      w.line = lineOf(item, line);
      for (const std::string& clause : splitClauses(title + ". " + scalar(item["body"])))
        hints(clause, title, w.line, kPrioritySpec, w.hints);
      if (const std::string code = scalar(item["code"]); !code.empty()) codeHints(code, w);
      if (!w.hints.empty()) facts_.what_ifs.push_back(std::move(w));
    }
  }

  // `retry: { attempts: 3, backoff: exponential, base: 200ms, jitter: full }` in a step.
  void codeHints(const std::string& code, FactWhatIf& w) {
    // A step's settings are a line or two; a longer string is prose, or not settings at all.
    if (code.size() > kMaxStepCodeBytes) return;
    YamlPrescan scan;
    try {
      // The code is a string inside a block that was checked; as YAML of its own it is not yet
      // (a string of 10,000 '[' would overflow yaml-cpp's stack).
      scan = prescanYaml(code, file_name_);
    } catch (const LoadError&) {
      return;  // too deep or too big to be a step's settings: the step keeps its prose hints
    }
    // The steps' code shares the document's limit: each string counts once in its block, and a
    // thousand strings of a million values each would be read one after the other.
    values_ += scan.values;
    if (values_ > kMaxYamlValues)
      throw LoadError(file_name_, w.line, 0,
                      "more than " + std::to_string(kMaxYamlValues) +
                          " values (keys, scalars, maps and lists) in one document, the YAML of "
                          "the steps' code included");
    YAML::Node root;
    try {
      root = YAML::Load(code);
    } catch (const YAML::Exception&) {
      return;
    }
    if (!root.IsMap()) return;
    if (const YAML::Node r = root["retry"]; r && r.IsMap()) {
      auto add = [&](const char* from, const std::string& key) {
        if (const std::string v = scalar(r[from]); !v.empty())
          w.hints.push_back({key, v, shortQuote(code), w.line, kPrioritySpec + 1});
      };
      add("attempts", "retry.max_attempts");
      add("max_attempts", "retry.max_attempts");
      add("backoff", "retry.backoff.kind");
      add("base", "retry.backoff.base");
      add("max", "retry.backoff.max");
      add("jitter", "retry.jitter");
    }
  }

  void callout(const YAML::Node& n, int line) {
    const std::string body = scalar(n["body"]);
    const int body_line = lineOf(n["body"], line);
    for (const std::string& clause : splitClauses(body)) {
      deployed(clause, "", body_line, kPriorityProse);
      // "t=0 is 14:02:00"
      const std::size_t t0 = clause.find("t=0 is ");
      if (t0 != std::string::npos)
        if (auto c = clockTime(std::string_view(clause).substr(t0 + 7))) facts_.t0_clock = *c;
    }
  }

  void fishbone(const YAML::Node& n, int line) {
    const YAML::Node causes = n["causes"];
    if (!causes || !causes.IsSequence()) return;
    for (const auto& cause : causes) {
      const YAML::Node items = cause["items"];
      if (!items || !items.IsSequence()) continue;
      for (const auto& item : items)
        if (item.IsScalar()) deployed(item.Scalar(), "", lineOf(item, line), kPriorityDiagram);
    }
  }

  // No ```meta id: one the prose states ("**Incident:** INC-2026-0908").
  void statedId(const std::vector<ProseLine>& lines) {
    std::vector<DocumentLine> numbered;
    for (const ProseLine& l : lines) {
      if (l.line > kIncidentIdHeaderLines) break;
      numbered.push_back({l.text, l.line});
    }
    if (const auto stated = statedIncidentId(numbered)) {
      facts_.id = stated->id;
      facts_.id_line = stated->line;
    }
  }

  void prose(const std::vector<ProseLine>& lines) {
    bool remediation = false;
    for (const ProseLine& l : lines) {
      if (!l.text.empty() && l.text[0] == '#') {
        const std::string heading = lowerCopy(l.text);
        remediation = heading.find("remediation") != std::string::npos ||
                      heading.find("action") != std::string::npos ||
                      heading.find("what changes") != std::string::npos ||
                      heading.find("fix") != std::string::npos;
        continue;
      }
      if (facts_.summary.empty() && l.text.size() > 40) facts_.summary = summaryOf(l.text, 400);
      if (remediation) continue;  // what should change, not what ran
      for (const std::string& clause : splitClauses(l.text)) {
        deployed(clause, "", l.line, kPriorityProse);
        const std::size_t t0 = clause.find("t=0 is ");
        if (t0 != std::string::npos)
          if (auto c = clockTime(std::string_view(clause).substr(t0 + 7))) facts_.t0_clock = *c;
      }
    }
  }

  std::string_view text_;
  std::string file_name_;
  PostmortemFacts facts_;
  std::size_t values_ = 0;      // YAML values of the blocks read so far
  std::size_t hint_count_ = 0;  // phrases recognised so far
  std::vector<FactEvent> timeline_events_;
};

}  // namespace

std::string hintsLimitMessage() {
  return "more than " + std::to_string(kMaxPostmortemHints) +
         " recognised phrases (settings, traffic and numbers the document states)";
}

PostmortemFacts readFencedPostmortem(std::string_view text, const std::string& file_name) {
  return Reader(text, file_name).read();
}

}  // namespace breakerlab::data_detail
