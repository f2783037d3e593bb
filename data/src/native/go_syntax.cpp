#include "go_syntax.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "breakerlab/data/values.h"

namespace breakerlab::data_detail {

namespace {

using Kind = GoToken::Kind;

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentChar(char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

[[noreturn]] void failAtToken(const GoToken& t, const std::string& message) {
  throw GoSyntaxError{t.line, t.column, message};
}

std::string describe(const GoToken& t) {
  if (t.kind == Kind::end) return "the end of the expression";
  std::string text = t.text.size() > 30 ? t.text.substr(0, 30) + "..." : t.text;
  return "\"" + text + "\"";
}

}  // namespace

std::vector<GoToken> tokenizeGo(std::string_view text) {
  std::vector<GoToken> out;
  int line = 1, column = 1;
  std::size_t i = 0;
  auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n && i < text.size(); ++k, ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      advance(1);
      continue;
    }
    if (text.substr(i, 2) == "//") {
      while (i < text.size() && text[i] != '\n') advance(1);
      continue;
    }
    if (text.substr(i, 2) == "/*") {
      const int l = line, col = column;
      const std::size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos) throw GoSyntaxError{l, col, "unclosed /* comment"};
      advance(close + 2 - i);
      continue;
    }
    // A token takes some 50 bytes: a 64 MB file of "((((" would take 3 GB.
    if (out.size() >= kMaxGoTokens)
      throw GoSyntaxError{line, column,
                          "more than " + std::to_string(kMaxGoTokens) +
                              " tokens: more Go than a file of breaker settings holds"};
    GoToken t;
    t.line = line;
    t.column = column;
    const std::size_t start = i;
    if (isIdentStart(c)) {
      // Dotted names stay together: c.Requests, time.Second, gobreaker.Settings.
      while (i < text.size() && (isIdentChar(text[i]) || (text[i] == '.' && i + 1 < text.size() &&
                                                          isIdentStart(text[i + 1]))))
        advance(1);
      t.kind = Kind::identifier;
    } else if (isDigit(c) || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
      while (i < text.size() &&
             (isIdentChar(text[i]) || text[i] == '.' ||
              ((text[i] == '+' || text[i] == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E'))))
        advance(1);
      t.kind = Kind::number;
    } else if (c == '"' || c == '`' || c == '\'') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c && !(c != '`' && text[j] == '\n')) {
        if (c != '`' && text[j] == '\\') ++j;
        ++j;
      }
      if (j >= text.size() || text[j] != c) throw GoSyntaxError{line, column, "unclosed string"};
      advance(j + 1 - i);
      t.kind = Kind::string;
    } else {
      static constexpr std::string_view kOps[] = {":=", "&&", "||", ">=", "<=", "==", "!=", "..."};
      std::size_t n = 0;
      for (std::string_view op : kOps)
        if (text.substr(i, op.size()) == op) n = op.size();
      if (n == 0) {
        if (std::string_view("+-*/%<>=!(){}[],;:.&|^").find(c) == std::string_view::npos)
          throw GoSyntaxError{line, column,
                              std::string("unexpected character '") + c + "' in Go source"};
        n = 1;
      }
      advance(n);
      t.kind = Kind::op;
    }
    t.text = std::string(text.substr(start, i - start));
    out.push_back(std::move(t));
  }
  GoToken end;
  end.line = line;
  end.column = column;
  out.push_back(end);
  return out;
}

std::optional<double> goNumber(const std::string& text) {
  std::string clean;
  for (char c : text)
    if (c != '_') clean += c;
  if (clean.size() > 2 && clean[0] == '0') {
    const char prefix = static_cast<char>(clean[1] | 0x20);
    const int base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 0;
    if (base != 0) {
      std::uint64_t value = 0;
      const char* first = clean.data() + 2;
      const char* last = clean.data() + clean.size();
      const auto [end, ec] = std::from_chars(first, last, value, base);
      if (ec != std::errc() || end != last) return std::nullopt;
      return static_cast<double>(value);
    }
  }
  return parseNumber(clean);
}

namespace {

// Bounds the recursion of nested parentheses (and !) for any input.
constexpr int kMaxNesting = 64;
class Nesting {
 public:
  Nesting(int& depth, const GoToken& at) : depth_(depth) {
    if (++depth_ > kMaxNesting) failAtToken(at, "the expression is nested more than 64 deep");
  }
  ~Nesting() { --depth_; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;

 private:
  int& depth_;
};

class DurationParser {
 public:
  DurationParser(const std::vector<GoToken>& t, std::size_t& pos, std::size_t end,
                 const std::map<std::string, Micros>& constants)
      : t_(t), pos_(pos), end_(end), constants_(constants) {}

  // Nanoseconds.
  double sum() {
    double v = product();
    while (pos_ < end_ && (t_[pos_].text == "+" || t_[pos_].text == "-")) {
      const bool plus = t_[pos_++].text == "+";
      const double r = product();
      v = plus ? v + r : v - r;
    }
    return v;
  }

 private:
  double product() {
    double v = factor();
    while (pos_ < end_ && (t_[pos_].text == "*" || t_[pos_].text == "/")) {
      const bool times = t_[pos_].text == "*";
      const GoToken& op = t_[pos_++];
      const double r = factor();
      if (!times && r == 0) failAtToken(op, "division by zero in a duration");
      v = times ? v * r : v / r;
    }
    return v;
  }

  double factor() {
    if (pos_ >= end_) failAtToken(t_[pos_], "expected a duration such as 10 * time.Second");
    const GoToken& tok = t_[pos_];
    const Nesting nesting(depth_, tok);
    if (tok.kind == Kind::number) {
      ++pos_;
      const auto n = goNumber(tok.text);
      if (!n) failAtToken(tok, "not a number: " + describe(tok));
      return *n;
    }
    if (tok.text == "(") {
      ++pos_;
      const double v = sum();
      expect(")");
      return v;
    }
    if (tok.kind == Kind::identifier) {
      static const std::map<std::string, double> kUnits = {
          {"time.Nanosecond", 1}, {"time.Microsecond", 1e3}, {"time.Millisecond", 1e6},
          {"time.Second", 1e9},   {"time.Minute", 60e9},     {"time.Hour", 3600e9}};
      if (auto u = kUnits.find(tok.text); u != kUnits.end()) {
        ++pos_;
        return u->second;
      }
      if (tok.text == "time.Duration") {
        ++pos_;
        expect("(");
        const double v = sum();
        expect(")");
        return v;
      }
      if (auto c = constants_.find(tok.text); c != constants_.end()) {
        ++pos_;
        return static_cast<double>(c->second) * 1e3;
      }
      failAtToken(tok, "cannot evaluate " + describe(tok) +
                           ": expected a duration such as 10 * time.Second or a constant "
                           "declared in this file");
    }
    failAtToken(tok, "expected a duration such as 10 * time.Second, got " + describe(tok));
  }

  void expect(std::string_view op) {
    if (pos_ >= end_ || t_[pos_].text != op)
      failAtToken(t_[pos_], "expected '" + std::string(op) + "', got " + describe(t_[pos_]));
    ++pos_;
  }

  const std::vector<GoToken>& t_;
  std::size_t& pos_;
  std::size_t end_;
  const std::map<std::string, Micros>& constants_;
  int depth_ = 0;
};

}  // namespace

Micros parseGoDuration(const std::vector<GoToken>& tokens, std::size_t& pos, std::size_t end,
                       const std::map<std::string, Micros>& constants) {
  const GoToken& first = tokens[pos];
  const double ns = DurationParser(tokens, pos, end, constants).sum();
  if (!std::isfinite(ns) || std::abs(ns) > 1e18) failAtToken(first, "the duration is out of range");
  return static_cast<Micros>(std::llround(ns / 1e3));
}

// --- ReadyToTrip ------------------------------------------------------------------------------

namespace {

// A numeric value over Counts: a constant, a uint32 sum of fields, float64(sum), or a ratio.
struct Num {
  enum class Kind { constant, fields, ratio } kind = Kind::constant;
  double value = 0;       // constant
  std::uint8_t mask = 0;  // fields (sum); ratio numerator
  std::uint8_t den = 0;   // ratio denominator
  bool is_float = false;  // converted with float64()
  double scale = 1;       // fields: a constant factor (total*100)
};
using Dnf = std::vector<std::vector<GobreakerCondition>>;

std::uint8_t fieldBit(std::string_view name) {
  for (int f = 0; f < kGobreakerFieldCount; ++f)
    if (goName(static_cast<GobreakerField>(f)) == name) return static_cast<std::uint8_t>(1u << f);
  return 0;
}

Comparison flip(Comparison op) {
  switch (op) {
    case Comparison::lt:
      return Comparison::gt;
    case Comparison::le:
      return Comparison::ge;
    case Comparison::ge:
      return Comparison::le;
    case Comparison::gt:
      return Comparison::lt;
    default:
      return op;
  }
}

// The rule is kept as an OR of ANDs; && over || multiplies the cases, so a body that would
// expand past these limits is refused rather than grown without bound.
constexpr std::size_t kMaxClauses = 256;
constexpr std::size_t kMaxConditions = 4096;

std::size_t conditionCount(const Dnf& d) {
  std::size_t n = 0;
  for (const auto& clause : d) n += clause.size();
  return n;
}

Dnf orOf(Dnf a, const Dnf& b, const GoToken& at) {
  if (a.size() + b.size() > kMaxClauses || conditionCount(a) + conditionCount(b) > kMaxConditions)
    failAtToken(at,
                "ReadyToTrip: too many cases once && is spread over || (BreakerLab reads up "
                "to 256)");
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
Dnf andOf(const Dnf& a, const Dnf& b, const GoToken& at) {
  if (a.size() * b.size() > kMaxClauses ||
      conditionCount(a) * std::max<std::size_t>(b.size(), 1) +
              conditionCount(b) * std::max<std::size_t>(a.size(), 1) >
          kMaxConditions)
    failAtToken(at,
                "ReadyToTrip: too many cases once && is spread over || (BreakerLab reads up "
                "to 256)");
  Dnf out;
  for (const auto& x : a)
    for (const auto& y : b) {
      auto clause = x;
      clause.insert(clause.end(), y.begin(), y.end());
      out.push_back(std::move(clause));
    }
  return out;
}
// !(a || b) == !a && !b; !(x && y) == !x || !y. A negated comparison stays marked as negated:
// with a NaN ratio both x >= k and x < k are false.
Dnf notOf(const Dnf& d, const GoToken& at) {
  Dnf out{{}};  // true
  for (const auto& clause : d) {
    Dnf negated;  // any condition of the clause fails
    for (GobreakerCondition c : clause) {
      c.negated = !c.negated;
      negated.push_back({c});
    }
    out = andOf(out, negated, at);
  }
  return out;
}

class TripParser {
 public:
  TripParser(const std::vector<GoToken>& t, std::size_t pos, std::size_t end, std::string counts,
             const std::map<std::string, double>& constants)
      : t_(t), pos_(pos), end_(end), counts_(std::move(counts)), constants_(constants) {}

  GobreakerTripRule body() {
    // Statements: `name := <number>` definitions, then `return <bool>`.
    for (;;) {
      if (pos_ >= end_) failAtToken(t_[pos_], "ReadyToTrip: expected a return statement");
      if (at().kind == Kind::identifier && at().text == "return") {
        ++pos_;
        const Dnf d = boolOr();
        if (pos_ < end_ && at().text == ";") ++pos_;
        if (pos_ < end_)
          failAtToken(at(),
                      "ReadyToTrip: BreakerLab reads bodies of := definitions and one "
                      "return; found " +
                          describe(at()) + " after the return");
        return {false, d};
      }
      if (at().kind == Kind::identifier && pos_ + 1 < end_ && t_[pos_ + 1].text == ":=") {
        const std::string name = at().text;
        pos_ += 2;
        locals_[name] = num();
        if (pos_ < end_ && at().text == ";") ++pos_;
        continue;
      }
      failAtToken(at(),
                  "ReadyToTrip: BreakerLab reads bodies of := definitions and one "
                  "return statement; cannot read " +
                      describe(at()));
    }
  }

  GobreakerTripRule expression() {
    const Dnf d = boolOr();
    if (pos_ < end_) failAtToken(at(), "ReadyToTrip: unexpected " + describe(at()));
    return {false, d};
  }

 private:
  const GoToken& at() const { return t_[pos_]; }
  bool is(std::string_view op) const { return pos_ < end_ && t_[pos_].text == op; }
  void expect(std::string_view op) {
    if (!is(op)) failAtToken(at(), "expected '" + std::string(op) + "', got " + describe(at()));
    ++pos_;
  }

  Dnf boolOr() {
    Dnf d = boolAnd();
    while (is("||")) {
      const GoToken& op = at();
      ++pos_;
      d = orOf(std::move(d), boolAnd(), op);
    }
    return d;
  }
  Dnf boolAnd() {
    Dnf d = boolAtom();
    while (is("&&")) {
      const GoToken& op = at();
      ++pos_;
      d = andOf(d, boolAtom(), op);
    }
    return d;
  }

  // Whether the parenthesis at pos_ holds a boolean (a comparison or && / || at its depth).
  bool parenthesisIsBoolean() const {
    int depth = 0;
    for (std::size_t i = pos_; i < end_; ++i) {
      const std::string& x = t_[i].text;
      if (x == "(") ++depth;
      if (x == ")" && --depth == 0) return false;
      if (depth == 1 && (x == "&&" || x == "||" || x == ">=" || x == "<=" || x == ">" || x == "<" ||
                         x == "==" || x == "!="))
        return true;
    }
    return false;
  }

  Dnf boolAtom() {
    const Nesting nesting(depth_, at());
    if (is("!")) {
      const GoToken& op = at();
      ++pos_;
      return notOf(boolAtom(), op);
    }
    if (is("(") && parenthesisIsBoolean()) {
      ++pos_;
      Dnf d = boolOr();
      expect(")");
      return d;
    }
    if (is("true")) {
      ++pos_;
      return Dnf{{}};
    }
    if (is("false")) {
      ++pos_;
      return Dnf{};
    }
    const GoToken& left_token = at();
    const Num left = num();
    static const std::map<std::string, Comparison> kOps = {
        {"<", Comparison::lt},  {"<=", Comparison::le}, {"==", Comparison::eq},
        {"!=", Comparison::ne}, {">=", Comparison::ge}, {">", Comparison::gt}};
    const auto op = pos_ < end_ ? kOps.find(at().text) : kOps.end();
    if (op == kOps.end())
      failAtToken(at(), "ReadyToTrip: expected a comparison (>=, >, ...), got " + describe(at()));
    ++pos_;
    const Num right = num();
    Comparison cmp = op->second;
    const Num* subject = &left;
    const Num* bound = &right;
    if (left.kind == Num::Kind::constant && right.kind != Num::Kind::constant) {
      subject = &right;
      bound = &left;
      cmp = flip(cmp);
    }
    GobreakerCondition c;
    if (left.kind == Num::Kind::fields && right.kind == Num::Kind::fields) {
      // a*k1 >= b*k2, as users write a rate without division: compared as the two products
      // (with b == 0 a ratio would be NaN or +Inf where Go compares 0 with a*k1).
      c.op = cmp;
      c.numerator = left.mask;
      c.denominator = right.mask;
      c.product = true;
      c.num_scale = left.scale;
      c.den_scale = right.scale;
      return Dnf{{c}};
    }
    if (bound->kind != Num::Kind::constant)
      failAtToken(left_token,
                  "ReadyToTrip: BreakerLab compares a Counts value with a number, "
                  "or two sums of Counts fields");
    c.op = cmp;
    c.value = bound->value;
    if (subject->kind == Num::Kind::fields && subject->scale != 1) {
      if (subject->scale <= 0)
        failAtToken(left_token, "ReadyToTrip: BreakerLab reads positive factors only");
      c.value = bound->value / subject->scale;
    }
    if (subject->kind == Num::Kind::constant) {
      // A comparison of numbers: always or never true.
      const double a = subject->value, b = bound->value;
      const bool holds = cmp == Comparison::lt   ? a < b
                         : cmp == Comparison::le ? a <= b
                         : cmp == Comparison::eq ? a == b
                         : cmp == Comparison::ne ? a != b
                         : cmp == Comparison::ge ? a >= b
                                                 : a > b;
      return holds ? Dnf{{}} : Dnf{};
    }
    c.numerator = subject->mask;
    c.denominator = subject->kind == Num::Kind::ratio ? subject->den : 0;
    return Dnf{{c}};
  }

  Num num() {
    Num v = term();
    while (is("+")) {
      const GoToken& op = at();
      ++pos_;
      const Num r = term();
      if (v.kind == Num::Kind::constant && r.kind == Num::Kind::constant) {
        v.value += r.value;
      } else if (v.kind == Num::Kind::fields && r.kind == Num::Kind::fields && v.scale == 1 &&
                 r.scale == 1 && !(v.mask & r.mask)) {
        v.mask |= r.mask;
      } else {
        failAtToken(op, "ReadyToTrip: BreakerLab adds Counts fields to each other only");
      }
    }
    return v;
  }

  Num term() {
    Num v = factor();
    while (is("/") || is("*")) {
      const GoToken& op = at();
      const bool divide = op.text == "/";
      ++pos_;
      const Num r = factor();
      if (v.kind == Num::Kind::constant && r.kind == Num::Kind::constant) {
        v.value = divide ? v.value / r.value : v.value * r.value;
        continue;
      }
      if (!divide && (v.kind == Num::Kind::constant) != (r.kind == Num::Kind::constant)) {
        // total*100, 50*total: a constant factor.
        Num fields = v.kind == Num::Kind::constant ? r : v;
        const double k = v.kind == Num::Kind::constant ? v.value : r.value;
        if (fields.kind == Num::Kind::fields) {
          fields.scale *= k;
          v = fields;
          continue;
        }
      }
      if (divide && v.kind == Num::Kind::fields && r.kind == Num::Kind::fields) {
        if (!v.is_float || !r.is_float)
          failAtToken(op,
                      "ReadyToTrip: integer division of Counts truncates and panics at 0; "
                      "BreakerLab reads float64(a) / float64(b)");
        Num ratio;
        ratio.kind = Num::Kind::ratio;
        ratio.mask = v.mask;
        ratio.den = r.mask;
        v = ratio;
        continue;
      }
      failAtToken(op,
                  "ReadyToTrip: BreakerLab reads a ratio float64(a) / float64(b) of Counts "
                  "fields, not this arithmetic");
    }
    return v;
  }

  Num factor() {
    if (pos_ >= end_) failAtToken(at(), "ReadyToTrip: unexpected end of the expression");
    const GoToken& tok = at();
    const Nesting nesting(depth_, tok);
    if (tok.kind == Kind::number) {
      ++pos_;
      const auto n = goNumber(tok.text);
      if (!n) failAtToken(tok, "not a number: " + describe(tok));
      return Num{Num::Kind::constant, *n};
    }
    if (tok.text == "(") {
      ++pos_;
      Num v = num();
      expect(")");
      return v;
    }
    if (tok.kind != Kind::identifier) failAtToken(tok, "ReadyToTrip: unexpected " + describe(tok));
    ++pos_;
    if (tok.text == "float64" || tok.text == "uint32" || tok.text == "int" ||
        tok.text == "uint64" || tok.text == "int64") {
      expect("(");
      Num v = num();
      expect(")");
      if (v.kind == Num::Kind::fields) v.is_float = tok.text == "float64";
      return v;
    }
    const std::string prefix = counts_ + ".";
    if (tok.text.rfind(prefix, 0) == 0) {
      const std::uint8_t bit = fieldBit(std::string_view(tok.text).substr(prefix.size()));
      if (bit == 0)
        failAtToken(tok, "ReadyToTrip: gobreaker.Counts has no field " +
                             tok.text.substr(prefix.size()) +
                             " (it has Requests, TotalSuccesses, TotalFailures, "
                             "TotalExclusions, ConsecutiveSuccesses, ConsecutiveFailures)");
      Num v;
      v.kind = Num::Kind::fields;
      v.mask = bit;
      return v;
    }
    if (auto l = locals_.find(tok.text); l != locals_.end()) return l->second;
    if (auto c = constants_.find(tok.text); c != constants_.end())
      return Num{Num::Kind::constant, c->second};
    failAtToken(tok, "ReadyToTrip: cannot evaluate " + describe(tok) + " (expected " + counts_ +
                         ".<field>, a number, or a constant of this file)");
  }

  const std::vector<GoToken>& t_;
  std::size_t pos_;
  std::size_t end_;
  std::string counts_;
  const std::map<std::string, double>& constants_;
  std::map<std::string, Num> locals_;
  int depth_ = 0;
};

std::string termText(std::uint8_t mask, bool as_float) {
  std::string s;
  int n = 0;
  for (int f = 0; f < kGobreakerFieldCount; ++f) {
    if (!(mask & (1u << f))) continue;
    if (n++ > 0) s += "+";
    s += "c." + std::string(goName(static_cast<GobreakerField>(f)));
  }
  return as_float ? "float64(" + s + ")" : s;
}

std::string numberText(double v) {
  return formatNumber(v);
}

// A sum of fields times a factor: c.TotalFailures*100, (c.A+c.B)*2, or over float64 when either
// side's factor is not a whole number (Go compares like types only).
bool wholeFactor(double scale) {
  return scale == std::floor(scale) && scale >= 0 && scale < 4294967296.0;
}
std::string scaledText(std::uint8_t mask, double scale, bool as_float) {
  std::string sum = termText(mask, as_float);
  if (scale == 1) return sum;
  if (!as_float && (mask & (mask - 1)) != 0) sum = "(" + sum + ")";
  return sum + "*" + numberText(scale);
}

}  // namespace

GobreakerTripRule parseReadyToTrip(const std::vector<GoToken>& tokens, std::size_t pos,
                                   std::size_t end, const std::string& counts,
                                   const std::map<std::string, double>& constants) {
  return TripParser(tokens, pos, end, counts, constants).body();
}

GobreakerTripRule parseReadyToTripText(std::string_view text) {
  const std::vector<GoToken> tokens = tokenizeGo(text);
  const std::map<std::string, double> none;
  // A whole func literal: func(c gobreaker.Counts) bool { ... }.
  if (!tokens.empty() && tokens[0].text == "func") {
    std::size_t i = 1;
    if (tokens[i].text != "(" || tokens[i + 1].kind != Kind::identifier)
      failAtToken(tokens[i], "expected func(c gobreaker.Counts) bool { ... }");
    const std::string counts = tokens[i + 1].text;
    while (tokens[i].kind != Kind::end && tokens[i].text != "{") ++i;
    if (tokens[i].kind == Kind::end) failAtToken(tokens[i], "expected '{'");
    std::size_t close = tokens.size() - 1;
    while (close > i && tokens[close].text != "}") --close;
    if (close <= i) failAtToken(tokens[i], "expected '}' closing the func body");
    return parseReadyToTrip(tokens, i + 1, close, counts, none);
  }
  // A body with `return`, or a bare boolean expression over c.
  for (const auto& t : tokens)
    if (t.text == "return") return parseReadyToTrip(tokens, 0, tokens.size() - 1, "c", none);
  return TripParser(tokens, 0, tokens.size() - 1, "c", none).expression();
}

std::string formatReadyToTrip(const GobreakerTripRule& rule) {
  if (rule.library_default) return "c.ConsecutiveFailures > 5";
  if (rule.any_of.empty()) return "false";
  std::string out;
  for (std::size_t i = 0; i < rule.any_of.size(); ++i) {
    const auto& clause = rule.any_of[i];
    std::string text;
    for (std::size_t k = 0; k < clause.size(); ++k) {
      const GobreakerCondition& c = clause[k];
      if (k > 0) text += " && ";
      std::string comparison;
      if (c.product) {
        const bool as_float = !wholeFactor(c.num_scale) || !wholeFactor(c.den_scale);
        comparison = scaledText(c.numerator, c.num_scale, as_float) + " " +
                     std::string(goOperator(c.op)) + " " +
                     scaledText(c.denominator, c.den_scale, as_float);
      } else {
        comparison =
            (c.denominator != 0 ? termText(c.numerator, true) + "/" + termText(c.denominator, true)
                                : termText(c.numerator, false)) +
            " " + std::string(goOperator(c.op)) + " " + numberText(c.value);
      }
      text += c.negated ? "!(" + comparison + ")" : comparison;
    }
    if (clause.empty()) text = "true";
    if (rule.any_of.size() > 1 && clause.size() > 1) text = "(" + text + ")";
    if (i > 0) out += " || ";
    out += text;
  }
  return out;
}

std::string formatGoDuration(Micros d) {
  if (d == 0) return "0";
  struct Unit {
    Micros us;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{3600 * kSecond, "time.Hour"},
                                    {60 * kSecond, "time.Minute"},
                                    {kSecond, "time.Second"},
                                    {kMillisecond, "time.Millisecond"},
                                    {1, "time.Microsecond"}};
  for (const Unit& u : kUnits)
    if (d % u.us == 0) return std::to_string(d / u.us) + " * " + u.name;
  return std::to_string(d) + " * time.Microsecond";
}

}  // namespace breakerlab::data_detail
