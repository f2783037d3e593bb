// A Go file holding a gobreaker.Settings{...} literal, as users write it (the lesson of source
// 003): durations like 10 * time.Second, constants of the file, ReadyToTrip as a func literal or
// a named func, and the lesson's countsAsFailure classification by gRPC code.
#include <map>

#include "breakerlab/data/values.h"
#include "go_syntax.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {

using Kind = GoToken::Kind;

struct GoFile {
  const Source& src;
  std::vector<ImportNote>& notes;
  std::vector<GoToken> t;
  std::string package = "gobreaker";
  std::map<std::string, Micros> durations;
  std::map<std::string, double> numbers;
  // For each bracket token, the index of the one that closes it (0: never closed). Found once:
  // a scan from each opening bracket is quadratic in nested brackets ("const ( const ( ...").
  std::vector<std::size_t> closes;

  void matchBrackets() {
    closes.assign(t.size(), 0);
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].kind != Kind::op) continue;
      const std::string& x = t[i].text;
      if (x == "(" || x == "{" || x == "[") {
        open.push_back(i);
      } else if ((x == ")" || x == "}" || x == "]") && !open.empty()) {
        // Any closing bracket closes the innermost one, as the scan by depth did.
        closes[open.back()] = i;
        open.pop_back();
      }
    }
  }

  [[noreturn]] void failAtToken(const GoToken& tok, const std::string& message) const {
    failAt(src, {tok.line, tok.column}, message);
  }
  void note(const GoToken& tok, const std::string& message) {
    notes.push_back({tok.line, tok.column, message});
  }

  // The index of the token closing the bracket opened at `open`.
  std::size_t matching(std::size_t open) const {
    if (closes[open] == 0) failAtToken(t[open], "'" + t[open].text + "' is never closed");
    return closes[open];
  }

  // The end of a composite literal's element: the ',' or '}' at depth 0.
  std::size_t elementEnd(std::size_t from) const {
    int depth = 0;
    for (std::size_t i = from; i < t.size(); ++i) {
      const std::string& x = t[i].text;
      if (t[i].kind == Kind::end) return i;
      if (t[i].kind != Kind::op) continue;
      if (x == "(" || x == "{" || x == "[") ++depth;
      if (x == ")" || x == "}" || x == "]") {
        if (depth == 0) return i;
        --depth;
      }
      if (x == "," && depth == 0) return i;
    }
    return t.size() - 1;
  }

  void findPackageAlias() {
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      if (t[i].kind != Kind::string ||
          t[i].text.find("github.com/sony/gobreaker") == std::string::npos)
        continue;
      if (t[i].text.find("gobreaker/v2") == std::string::npos)
        note(t[i],
             "imports gobreaker v1; BreakerLab replays v2.4, whose state machine v1 "
             "shares (v1 has no BucketPeriod and no IsExcluded)");
      if (i > 0 && t[i - 1].kind == Kind::identifier && t[i - 1].text != "import")
        package = t[i - 1].text;
      return;
    }
  }

  // `const NAME [TYPE] = EXPR`, alone or in a const ( ... ) block.
  void collectConstants() {
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      if (t[i].text != "const") continue;
      std::size_t j = i + 1;
      std::size_t block_end = 0;
      if (t[j].text == "(") {
        block_end = matching(j);
        ++j;
      }
      do {
        if (t[j].kind != Kind::identifier) break;
        const std::string name = t[j].text;
        std::size_t k = j + 1;
        if (t[k].kind == Kind::identifier) ++k;  // a type
        if (t[k].text != "=") break;
        ++k;
        bool has_unit = false;
        const std::size_t expr_start = k;
        std::size_t pos = k;
        try {
          // Not a copy of the map per constant: quadratic in the constants of the file.
          const Micros us =
              parseGoDuration(t, pos, block_end ? block_end : t.size() - 1, durations);
          for (std::size_t x = expr_start; x < pos; ++x)
            has_unit =
                has_unit || t[x].text.rfind("time.", 0) == 0 || durations.count(t[x].text) > 0;
          if (has_unit) {
            durations[name] = us;
          } else {
            const auto n = goNumber(t[expr_start].text);
            if (pos == expr_start + 1 && n) numbers[name] = *n;
          }
        } catch (const GoSyntaxError&) {
          // Not a number or a duration (a string, an error value): not needed.
          pos = expr_start + 1;
        }
        j = pos;
      } while (block_end != 0 && j < block_end);
    }
  }

  // func NAME(PARAM PACKAGE.Counts) bool { ... } declared in the file.
  std::size_t findFunc(const std::string& name) const {
    for (std::size_t i = 0; i + 2 < t.size(); ++i)
      if (t[i].text == "func" && t[i + 1].text == name && t[i + 2].text == "(") return i + 1;
    return 0;
  }

  // At `(` of a func's parameters: reads the Counts parameter name and the body's range.
  GobreakerTripRule readTripFunc(std::size_t open_paren) {
    if (t[open_paren].text != "(") failAtToken(t[open_paren], "expected '(' of the func");
    const std::size_t close_paren = matching(open_paren);
    if (close_paren != open_paren + 3 || t[open_paren + 2].text != package + ".Counts")
      failAtToken(t[open_paren], "expected func(c " + package + ".Counts) bool");
    const std::string param = t[open_paren + 1].text;
    std::size_t brace = close_paren + 1;
    while (t[brace].kind != Kind::end && t[brace].text != "{") ++brace;
    if (t[brace].kind == Kind::end) failAtToken(t[close_paren], "expected the func body");
    const std::size_t end = matching(brace);
    try {
      return parseReadyToTrip(t, brace + 1, end, param, numbers);
    } catch (const GoSyntaxError& e) {
      failAt(src, {e.line, e.column}, e.message);
    }
  }

  // The lesson's classifier: switch status.Code(err) { case codes.A, codes.B: return true }.
  std::optional<OutcomeSet> grpcClassifier(std::size_t& at) const {
    for (std::size_t i = 0; i + 3 < t.size(); ++i) {
      if (t[i].text != "switch" || t[i + 1].text != "status.Code" || t[i + 2].text != "(") continue;
      // switch status.Code(err) {: the brace after the call's parenthesis (a scan for the next
      // brace from each switch would be quadratic in switches without one).
      if (closes[i + 2] == 0) return std::nullopt;
      const std::size_t brace = closes[i + 2] + 1;
      if (t[brace].text != "{") continue;
      if (closes[brace] == 0) return std::nullopt;
      const std::size_t end = matching(brace);
      OutcomeSet failures;
      bool any = false;
      for (std::size_t k = brace + 1; k < end; ++k) {
        // A nested block (another switch among them) has no case of this switch: skipped, so
        // that nested switches are not each read to their end.
        if (t[k].kind == Kind::op && (t[k].text == "{" || t[k].text == "(" || t[k].text == "[")) {
          k = matching(k);
          continue;
        }
        if (t[k].text != "case") continue;
        std::vector<std::string> codes;
        std::size_t m = k + 1;
        while (m < end && t[m].text != ":") {
          if (t[m].kind == Kind::identifier) codes.push_back(t[m].text);
          ++m;
        }
        if (m + 2 < end && t[m + 1].text == "return" && t[m + 2].text == "true") {
          for (const std::string& c : codes) {
            any = true;
            if (c == "codes.Unavailable") {
              failures.insert(CallOutcome::refused);
              failures.insert(CallOutcome::server_error);
            } else if (c == "codes.DeadlineExceeded") {
              failures.insert(CallOutcome::timeout);
            } else if (c == "codes.Internal" || c == "codes.Unknown") {
              failures.insert(CallOutcome::server_error);
            } else if (c == "codes.ResourceExhausted") {
              failures.insert(CallOutcome::pool_exhausted);
            }
          }
        }
      }
      if (!any) return std::nullopt;
      failures.insert(CallOutcome::failure);
      at = i;
      return failures;
    }
    return std::nullopt;
  }
};

std::string unquote(const std::string& s) {
  if (s.size() >= 2) return s.substr(1, s.size() - 2);
  return s;
}

}  // namespace

void readGobreakerGo(const Source& src, std::string_view text, GobreakerSettings& g,
                     std::vector<ImportNote>& notes) {
  GoFile f{src, notes, {}, "gobreaker", {}, {}, {}};
  try {
    f.t = tokenizeGo(text);
  } catch (const GoSyntaxError& e) {
    failAt(src, {e.line, e.column}, e.message);
  }
  f.matchBrackets();
  f.findPackageAlias();
  f.collectConstants();

  std::size_t literal = 0;
  for (std::size_t i = 0; i + 1 < f.t.size(); ++i) {
    // A composite literal, not a func's result type (`func f() gobreaker.Settings {`).
    if (f.t[i].text == f.package + ".Settings" && f.t[i + 1].text == "{" &&
        !(i > 0 && f.t[i - 1].text == ")")) {
      if (literal != 0) {
        f.note(f.t[i], "a second " + f.package + ".Settings literal; BreakerLab reads the first");
        break;
      }
      literal = i + 1;
    }
  }
  if (literal == 0)
    failAt(src, {1, 1}, "no " + f.package + ".Settings{...} literal in this Go file");

  const std::size_t close = f.matching(literal);
  std::size_t i = literal + 1;
  std::size_t window_token = literal;
  while (i < close) {
    const GoToken& key = f.t[i];
    if (key.kind != Kind::identifier || f.t[i + 1].text != ":")
      f.failAtToken(
          key, "expected Field: value in the Settings literal, got \"" + clipText(key.text) + "\"");
    const std::size_t value = i + 2;
    const std::size_t end = f.elementEnd(value);
    const std::string& k = key.text;
    try {
      if (k == "Name") {
        if (f.t[value].kind == Kind::string) {
          g.name = unquote(f.t[value].text);
        } else {
          f.note(f.t[value], "Name: not a string literal; left empty");
        }
      } else if (k == "MaxRequests") {
        double n = 0;
        if (f.t[value].kind == Kind::number && end == value + 1) {
          const auto literal = goNumber(f.t[value].text);
          if (!literal) f.failAtToken(f.t[value], "MaxRequests: expected a whole number");
          n = *literal;
        } else if (auto c = f.numbers.find(f.t[value].text); c != f.numbers.end()) {
          n = c->second;
        } else {
          f.failAtToken(f.t[value], "MaxRequests: expected a whole number");
        }
        if (n < 0 || n > 4294967295.0 || n != static_cast<double>(static_cast<std::uint64_t>(n)))
          f.failAtToken(f.t[value], "MaxRequests: expected a whole number from 0 to 4294967295");
        g.max_requests = static_cast<std::uint32_t>(n);
      } else if (k == "Interval" || k == "BucketPeriod" || k == "Timeout") {
        std::size_t pos = value;
        const Micros d = parseGoDuration(f.t, pos, end, f.durations);
        if (pos != end)
          f.failAtToken(f.t[pos], k + ": unexpected \"" + clipText(f.t[pos].text) + "\"");
        (k == "Interval" ? g.interval : k == "BucketPeriod" ? g.bucket_period : g.timeout) = d;
        if (k != "Timeout") window_token = value;
      } else if (k == "ReadyToTrip") {
        if (f.t[value].text == "nil") {
          g.ready_to_trip = {};
        } else if (f.t[value].text == "func") {
          g.ready_to_trip = f.readTripFunc(value + 1);
        } else if (const std::size_t fn = f.findFunc(f.t[value].text); fn != 0) {
          g.ready_to_trip = f.readTripFunc(fn + 1);
        } else {
          f.failAtToken(f.t[value],
                        "ReadyToTrip: expected a func literal or the name of a func "
                        "of this file");
        }
      } else if (k == "IsSuccessful" || k == "IsExcluded") {
        f.note(f.t[value], k + ": Go code BreakerLab does not evaluate; the replay uses the "
                               "classification of the breakerlab lists (every error class is a "
                               "failure unless said otherwise)");
      } else if (k == "OnStateChange") {
        // A callback: no effect on decisions, but code an export does not write back.
        f.note(key,
               "OnStateChange: a callback, no effect on the breaker's decisions; an export "
               "does not write it back");
      } else {
        f.note(key, clipText(k) + ": not a gobreaker v2 Settings field BreakerLab models; ignored");
      }
    } catch (const GoSyntaxError& e) {
      failAt(src, {e.line, e.column}, clipText(k) + ": " + e.message);
    }
    i = end;
    if (f.t[i].text == ",") ++i;
  }
  if (const std::string problem = gobreakerWindowProblem(g); !problem.empty())
    f.failAtToken(f.t[window_token], problem);

  // BreakerLab's own export writes the classification it replayed as comments.
  auto marker = [&](std::string_view name, OutcomeSet& out) {
    const std::string key = "breakerlab:" + std::string(name) + "=";
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) return false;
    std::size_t end = text.find('\n', at);
    const std::string_view value =
        text.substr(at + key.size(), end == std::string_view::npos ? end : end - at - key.size());
    OutcomeSet set;
    std::size_t from = 0;
    while (from <= value.size()) {
      std::size_t comma = value.find(',', from);
      std::string item(value.substr(from, comma == std::string_view::npos ? comma : comma - from));
      while (!item.empty() && (item.back() == ' ' || item.back() == '\r')) item.pop_back();
      if (const auto o = callOutcomeFromString(item)) set.insert(*o);
      if (comma == std::string_view::npos) break;
      from = comma + 1;
    }
    set.insert(CallOutcome::failure);
    out = set;
    return true;
  };
  if (marker("Failures", g.classification.failures)) {
    OutcomeSet excluded;
    if (marker("Excluded", excluded)) {
      OutcomeSet ignored;
      for (int i = 0; i < kCallOutcomeCount; ++i) {
        const auto o = static_cast<CallOutcome>(i);
        if (o != CallOutcome::failure && excluded.contains(o)) ignored.insert(o);
      }
      g.classification.ignored = ignored;
    }
    return;
  }

  std::size_t classifier_at = 0;
  if (auto failures = f.grpcClassifier(classifier_at)) {
    g.classification.failures = *failures;
    f.notes.push_back(
        {f.t[classifier_at].line, f.t[classifier_at].column,
         "the breaker counts only the gRPC codes this switch returns true for: "
         "codes.Unavailable is a refused call or a server error, codes.DeadlineExceeded a "
         "timeout; business errors (NotFound, InvalidArgument) pass as results and count as "
         "successes"});
  }
}

}  // namespace breakerlab::data_detail
