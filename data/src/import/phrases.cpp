#include "phrases.h"

#include <array>
#include <cctype>
#include <cmath>

#include "breakerlab/data/values.h"

namespace breakerlab::data_detail {

namespace {

using Kind = PhraseToken::Kind;

struct WordNumber {
  std::string_view word;
  double value;
};
constexpr std::array<WordNumber, 24> kWordNumbers = {{
    {"zero", 0},     {"one", 1},      {"two", 2},        {"three", 3},     {"four", 4},
    {"five", 5},     {"six", 6},      {"seven", 7},      {"eight", 8},     {"nine", 9},
    {"ten", 10},     {"eleven", 11},  {"twelve", 12},    {"thirteen", 13}, {"fourteen", 14},
    {"fifteen", 15}, {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19},
    {"twenty", 20},  {"thirty", 30},  {"forty", 40},     {"fifty", 50},
}};

struct Unit {
  std::string_view name;
  double seconds;
};
constexpr std::array<Unit, 18> kUnits = {{
    {"us", 1e-6},
    {"µs", 1e-6},
    {"microseconds", 1e-6},
    {"ms", 1e-3},
    {"millisecond", 1e-3},
    {"milliseconds", 1e-3},
    {"s", 1},
    {"sec", 1},
    {"secs", 1},
    {"second", 1},
    {"seconds", 1},
    {"min", 60},
    {"mins", 60},
    {"minute", 60},
    {"minutes", 60},
    {"h", 3600},
    {"hour", 3600},
    {"hours", 3600},
}};

std::optional<double> unitSeconds(std::string_view word) {
  for (const Unit& u : kUnits)
    if (u.name == word) return u.seconds;
  return std::nullopt;
}

bool isWordChar(unsigned char c) {
  return std::isalpha(c) || c >= 0x80 || c == '_' || c == '\'';
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Micros toMicros(double seconds) {
  const double us = std::round(seconds * 1e6);
  if (!(us >= 0) || us > static_cast<double>(kMaxDuration)) return -1;
  return static_cast<Micros>(us);
}

bool isWord(const PhraseToken& t, std::string_view w) {
  return t.kind == Kind::word && t.text == w;
}
bool startsWith(const PhraseToken& t, std::string_view prefix) {
  return t.kind == Kind::word && t.text.rfind(prefix, 0) == 0;
}
bool hasWord(const std::vector<PhraseToken>& t, std::string_view w) {
  for (const auto& x : t)
    if (isWord(x, w)) return true;
  return false;
}
bool hasPrefix(const std::vector<PhraseToken>& t, std::string_view prefix) {
  for (const auto& x : t)
    if (startsWith(x, prefix)) return true;
  return false;
}
bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// A whole count: 3, "three", "1,760".
std::optional<std::uint64_t> countAt(const std::vector<PhraseToken>& t, std::size_t i) {
  if (i >= t.size() || t[i].kind != Kind::number) return std::nullopt;
  const double v = t[i].value;
  if (v < 0 || v != std::floor(v) || v > 4e9) return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

std::string countText(std::uint64_t n) {
  return std::to_string(n);
}

}  // namespace

std::vector<PhraseToken> tokenizePhrase(std::string_view s) {
  std::vector<PhraseToken> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    if (std::isdigit(c)) {
      // 1,760 / 0.5 / 20: thousands separators only in groups of three.
      std::string digits;
      std::size_t j = i;
      while (j < s.size()) {
        const char d = s[j];
        if (std::isdigit(static_cast<unsigned char>(d))) {
          digits += d;
          ++j;
        } else if (d == ',' && j + 3 < s.size() + 1 && j + 3 <= s.size() &&
                   std::isdigit(static_cast<unsigned char>(s[j + 1])) &&
                   std::isdigit(static_cast<unsigned char>(s[j + 2])) &&
                   std::isdigit(static_cast<unsigned char>(s[j + 3])) &&
                   (j + 4 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[j + 4])))) {
          j += 1;
        } else if (d == '.' && j + 1 < s.size() &&
                   std::isdigit(static_cast<unsigned char>(s[j + 1])) &&
                   digits.find('.') == std::string::npos) {
          digits += d;
          ++j;
        } else {
          break;
        }
        if (digits.size() > 30) break;  // not a number anyone writes
      }
      PhraseToken t;
      t.kind = Kind::number;
      t.text = std::string(s.substr(i, j - i));
      t.value = parseNumber(digits).value_or(0);
      i = j;
      // An attached unit or percent: 800ms, 20s, 50%.
      if (i < s.size() && s[i] == '%') {
        t.kind = Kind::percent;
        ++i;
      } else {
        std::size_t k = i;
        while (k < s.size() && isWordChar(static_cast<unsigned char>(s[k]))) ++k;
        if (k > i) {
          if (const auto unit = unitSeconds(lower(s.substr(i, k - i)))) {
            t.kind = Kind::duration;
            t.unit = *unit;
            t.value *= *unit;
            t.micros = toMicros(t.value);
            i = k;
          }
        }
      }
      out.push_back(std::move(t));
      continue;
    }
    if (isWordChar(c)) {
      std::size_t j = i;
      while (j < s.size() && (isWordChar(static_cast<unsigned char>(s[j])) || s[j] == '-')) {
        // "price-check-v2" stays a word; "200-connection" was split at the digits above.
        ++j;
      }
      std::string word = lower(s.substr(i, j - i));
      while (!word.empty() && (word.back() == '-' || word.back() == '\'')) word.pop_back();
      i = j;
      PhraseToken t;
      t.text = word;
      for (const WordNumber& n : kWordNumbers)
        if (n.word == word) {
          t.kind = Kind::number;
          t.value = n.value;
        }
      out.push_back(std::move(t));
      continue;
    }
    // "×" is two bytes in UTF-8.
    if (c == 0xC3 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x97) {
      out.push_back({Kind::symbol, "×", 0, 0, 0});
      i += 2;
      continue;
    }
    out.push_back({Kind::symbol, std::string(1, static_cast<char>(c)), 0, 0, 0});
    ++i;
  }
  // A number followed by a unit word ("800 ms", "5 seconds") or "percent".
  std::vector<PhraseToken> merged;
  for (std::size_t k = 0; k < out.size(); ++k) {
    PhraseToken t = out[k];
    if (t.kind == Kind::number && k + 1 < out.size() && out[k + 1].kind == Kind::word) {
      if (const auto unit = unitSeconds(out[k + 1].text)) {
        // "1 s" but not "a 5 m wide": minutes need the spelled unit or "min".
        t.kind = Kind::duration;
        t.unit = *unit;
        t.value *= *unit;
        t.micros = toMicros(t.value);
        ++k;
      } else if (out[k + 1].text == "percent") {
        t.kind = Kind::percent;
        ++k;
      }
    }
    merged.push_back(std::move(t));
  }
  return merged;
}

std::vector<std::string> splitClauses(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool end_mark = c == '.' || c == ';' || c == '!' || c == '?';
    const bool at_break = i + 1 >= text.size() || text[i + 1] == ' ' || text[i + 1] == '\n';
    const bool in_number = c == '.' && i > 0 && i + 1 < text.size() &&
                           std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                           std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (end_mark && at_break && !in_number) {
      if (!current.empty()) out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (current.find_first_not_of(" \t\r\n") != std::string::npos) out.push_back(current);
  return out;
}

std::optional<double> requestRate(const std::vector<PhraseToken>& t) {
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i].kind != Kind::number) continue;
    const double n = t[i].value;
    // 40 rps / 40 req/s / 40 requests per second / 40 checkouts a second
    if (isWord(t[i + 1], "rps") || isWord(t[i + 1], "qps")) return n;
    if ((startsWith(t[i + 1], "req") || startsWith(t[i + 1], "checkout") ||
         startsWith(t[i + 1], "call") || startsWith(t[i + 1], "order")) &&
        i + 3 < t.size()) {
      const auto& a = t[i + 2];
      const auto& b = t[i + 3];
      if ((isWord(a, "per") || isWord(a, "a")) && (isWord(b, "second") || isWord(b, "sec")))
        return n;
      if (a.text == "/" && (isWord(b, "s") || isWord(b, "sec") || isWord(b, "second"))) return n;
      if ((isWord(a, "per") || isWord(a, "a")) && (isWord(b, "minute") || isWord(b, "min")))
        return n / 60;
    }
  }
  return std::nullopt;
}

std::optional<double> clockTime(std::string_view text) {
  // hh:mm or hh:mm:ss, with one or two hour digits.
  std::size_t i = 0;
  auto digits = [&](std::size_t max) {
    std::size_t n = 0;
    int v = 0;
    while (i < text.size() && n < max && std::isdigit(static_cast<unsigned char>(text[i]))) {
      v = v * 10 + (text[i] - '0');
      ++i;
      ++n;
    }
    return std::pair{n, v};
  };
  const auto [hn, h] = digits(2);
  if (hn == 0 || i >= text.size() || text[i] != ':') return std::nullopt;
  ++i;
  const auto [mn, m] = digits(2);
  if (mn != 2 || h > 23 || m > 59) return std::nullopt;
  double seconds = h * 3600.0 + m * 60.0;
  if (i < text.size() && text[i] == ':') {
    ++i;
    const auto [sn, sec] = digits(2);
    if (sn != 2 || sec > 59) return std::nullopt;
    seconds += sec;
  }
  if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  return seconds;
}

std::string shortQuote(std::string_view text, std::size_t limit) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '"')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '"')) text.remove_suffix(1);
  if (text.size() <= limit) return std::string(text);
  std::size_t cut = limit - 3;
  // Never split a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string summaryOf(std::string_view text, std::size_t limit) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '"')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '"')) text.remove_suffix(1);
  if (text.size() <= limit) return std::string(text);
  // The last sentence end (". ", "! ", "? ") that leaves the summary within the limit.
  for (std::size_t end = limit; end > 1; --end)
    if (text[end - 1] == ' ' &&
        (text[end - 2] == '.' || text[end - 2] == '!' || text[end - 2] == '?'))
      return std::string(text.substr(0, end - 1));
  // One long sentence: the words that fit before "...".
  std::size_t cut = limit - 3;
  while (cut > 0 && text[cut] != ' ') --cut;
  while (cut > 0 && (text[cut - 1] == ' ' || text[cut - 1] == ',')) --cut;
  if (cut == 0) return shortQuote(text, limit);  // no space to cut at: one long word
  return std::string(text.substr(0, cut)) + "...";
}

namespace {
// "opens after 50% failures", "opening at 25% errors": but not "opens connections", which a pool
// does.
bool opensLikeABreaker(const std::vector<PhraseToken>& t) {
  for (std::size_t i = 0; i < t.size(); ++i)
    if (startsWith(t[i], "open") &&
        !(i + 1 < t.size() && (startsWith(t[i + 1], "connection") || isWord(t[i + 1], "a"))))
      return true;
  return false;
}
}  // namespace

std::vector<PhraseHint> recognisePhrases(std::string_view clause, std::string_view context_in) {
  const std::vector<PhraseToken> t = tokenizePhrase(clause);
  const std::string context = lower(context_in);
  std::vector<PhraseHint> hints;
  const std::string quote = shortQuote(clause);
  auto hint = [&](std::string key, std::string value) {
    for (const auto& h : hints)
      if (h.key == key) return;  // the first reading of a key in a clause wins
    hints.push_back({std::move(key), std::move(value), quote});
  };
  const bool about_open = contains(context, "open") || contains(context, "interval") ||
                          contains(context, "cooldown") || hasWord(t, "cooldown");
  const bool about_half_open = contains(context, "half-open") || contains(context, "probe") ||
                               contains(context, "trial") || hasPrefix(t, "probe") ||
                               hasWord(t, "half-open") || hasWord(t, "trial");
  const bool about_breaker = hasWord(t, "breaker") || contains(context, "breaker") ||
                             contains(context, "trip") || contains(context, "threshold") ||
                             contains(context, "window") || opensLikeABreaker(t);

  // --- the attempt timeout -------------------------------------------------------------
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != Kind::duration || t[i].micros <= 0) continue;
    const bool next_is_timeout = i + 1 < t.size() && startsWith(t[i + 1], "timeout");
    bool after_timeout = false;
    for (std::size_t back = 1; back <= 2 && back <= i; ++back) {
      const PhraseToken& p = t[i - back];
      if (p.text == "," || p.text == ".") break;
      if (startsWith(p, "timeout")) after_timeout = true;
    }
    const bool per_call = i + 2 < t.size() && isWord(t[i + 1], "per") &&
                          (isWord(t[i + 2], "call") || isWord(t[i + 2], "attempt"));
    // "raised the timeout from two seconds to thirty": the second value is what ran.
    if (i + 2 < t.size() && isWord(t[i + 1], "to") && i >= 1 && isWord(t[i - 1], "from")) {
      bool timeout_before = false;
      for (std::size_t k = 0; k < i; ++k)
        timeout_before = timeout_before || startsWith(t[k], "timeout");
      if (timeout_before) {
        const PhraseToken& to = t[i + 2];
        Micros end = -1;
        if (to.kind == Kind::duration) end = to.micros;
        if (to.kind == Kind::number) end = toMicros(to.value * t[i].unit);  // "to thirty"

        if (end > 0) {
          hint("timeout.attempt", formatDuration(end));
          hint("what_if:timeout.attempt", formatDuration(t[i].micros));
          break;
        }
      }
    }
    if (next_is_timeout || after_timeout ||
        (contains(context, "timeout") && (per_call || i == 0))) {
      hint("timeout.attempt", formatDuration(t[i].micros));
      break;
    }
  }
  if (contains(context, "timeout") && hints.empty()) {
    for (const auto& x : t)
      if (x.kind == Kind::duration && x.micros > 0) {
        hint("timeout.attempt", formatDuration(x.micros));
        break;
      }
  }

  // --- retries -----------------------------------------------------------------------------
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!startsWith(t[i], "retr")) continue;
    // "no retries", "without retries"
    if (i >= 1 && (isWord(t[i - 1], "no") || isWord(t[i - 1], "without"))) {
      hint("retry.max_attempts", "1");
      break;
    }
    // "3 retries", "three retries"
    if (i >= 1) {
      if (auto n = countAt(t, i - 1); n && *n <= 100) {
        hint("retry.max_attempts", countText(*n + 1));
        break;
      }
    }
    // "retry ×3", "retry x3", "retried it three times", "retries 3 times"
    for (std::size_t k = i + 1; k < t.size() && k <= i + 8; ++k) {
      if (t[k].text == "," || t[k].text == ".") break;
      if ((t[k].text == "×" || isWord(t[k], "x")) && countAt(t, k + 1)) {
        hint("retry.max_attempts", countText(*countAt(t, k + 1) + 1));
        break;
      }
      if (auto n = countAt(t, k); n && k + 1 < t.size() && isWord(t[k + 1], "times") && *n <= 100) {
        hint("retry.max_attempts", countText(*n + 1));
        break;
      }
    }
  }
  // "4 Pricing calls per checkout": the attempts per request.
  for (std::size_t i = 0; i + 3 < t.size(); ++i) {
    auto n = countAt(t, i);
    if (!n || *n == 0 || *n > 100) continue;
    std::size_t k = i + 1;
    if (k < t.size() && t[k].kind == Kind::word && !startsWith(t[k], "call")) ++k;
    if (k + 2 < t.size() && startsWith(t[k], "call") && isWord(t[k + 1], "per") &&
        (startsWith(t[k + 2], "checkout") || startsWith(t[k + 2], "request"))) {
      hint("amplification", countText(*n));
      break;
    }
  }
  // Backoff and jitter: the retry's unless the clause is about the open interval.
  const bool about_retry = hasPrefix(t, "retr") || contains(context, "retr");
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if ((isWord(t[i], "no") || isWord(t[i], "without")) && startsWith(t[i + 1], "backoff")) {
      if (about_open && !about_retry) {
        hint("breaker.open.backoff.multiplier", "1");
      } else {
        hint("retry.backoff.kind", "none");
      }
    }
    if (isWord(t[i], "exponential") && startsWith(t[i + 1], "backoff")) {
      hint("retry.backoff.kind", "exponential");
      for (std::size_t k = i + 2; k < t.size() && k <= i + 5; ++k)
        if (t[k].kind == Kind::duration && t[k].micros > 0) {
          hint("retry.backoff.base", formatDuration(t[k].micros));
          break;
        }
    }
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!startsWith(t[i], "jitter")) continue;
    const bool none = i >= 1 && (isWord(t[i - 1], "no") || isWord(t[i - 1], "without"));
    const bool negated_list = i >= 3 && isWord(t[i - 1], "no");
    if (none || negated_list) {
      hint("retry.jitter", "none");
    } else if (i >= 1 && isWord(t[i - 1], "equal")) {
      hint("retry.jitter", "equal");
    } else if (i >= 1 && isWord(t[i - 1], "decorrelated")) {
      hint("retry.jitter", "decorrelated");
    } else {
      hint("retry.jitter", "full");
    }
    break;
  }
  if (hasWord(t, "no") && hasPrefix(t, "jitter") && hasPrefix(t, "backoff")) {
    // "no backoff and no jitter"
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
      if (isWord(t[i], "no") && startsWith(t[i + 1], "jitter")) hint("retry.jitter", "none");
  }

  // --- the breaker's window and threshold ---------------------------------------------------
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (isWord(t[i], "last") && countAt(t, i + 1) && startsWith(t[i + 2], "call")) {
      hint("breaker.window.type", "count");
      hint("breaker.window.size", countText(*countAt(t, i + 1)));
      break;
    }
  }
  const bool trip_words = hasPrefix(t, "fail") || hasPrefix(t, "error") || hasWord(t, "trip") ||
                          hasWord(t, "trips") || contains(context, "threshold") ||
                          contains(context, "trip");
  if (about_breaker && trip_words && !hasWord(t, "traffic")) {
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].kind != Kind::percent || t[i].value <= 0 || t[i].value > 100) continue;
      hint("breaker.failure_rate", formatPercent(t[i].value));
      // "50% failures in 30 s", "25% errors over 30 seconds": a time window.
      for (std::size_t k = i + 1; k < t.size() && k <= i + 4; ++k) {
        if ((isWord(t[k], "in") || isWord(t[k], "over") || isWord(t[k], "within")) &&
            k + 1 < t.size() && t[k + 1].kind == Kind::duration && t[k + 1].micros >= kSecond) {
          hint("breaker.window.type", "time");
          hint("breaker.window.size",
               countText(static_cast<std::uint64_t>(t[k + 1].micros / kSecond)));
          break;
        }
      }
      break;
    }
  }
  // "5 consecutive failures"
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    if (countAt(t, i) && isWord(t[i + 1], "consecutive") && startsWith(t[i + 2], "fail") &&
        about_breaker) {
      hint("breaker.window.type", "consecutive");
      hint("breaker.consecutive_failures", countText(*countAt(t, i)));
    }
  }

  // --- the open interval -----------------------------------------------------------------
  if (about_open && !about_half_open) {
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i].kind == Kind::duration && t[i].micros > 0) {
        hint("breaker.open.interval", formatDuration(t[i].micros));
        break;
      }
  } else {
    // "stays open for 20 s", "a 10 s cooldown"
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      if (isWord(t[i], "open") && i + 2 < t.size() && isWord(t[i + 1], "for") &&
          t[i + 2].kind == Kind::duration && about_breaker && !hasWord(t, "stayed")) {
        hint("breaker.open.interval", formatDuration(t[i + 2].micros));
        break;
      }
      if (t[i].kind == Kind::duration && t[i].micros > 0 && isWord(t[i + 1], "cooldown")) {
        hint("breaker.open.interval", formatDuration(t[i].micros));
        break;
      }
    }
  }
  for (std::size_t i = 0; i + 2 < t.size(); ++i)
    if (isWord(t[i], "no") && isWord(t[i + 1], "early") && startsWith(t[i + 2], "probe"))
      hint("breaker.open.early_probe.enabled", "false");

  // --- half-open probes -------------------------------------------------------------------
  if (about_half_open) {
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      auto n = countAt(t, i);
      if (!n || *n == 0 || *n > 1000) continue;
      const PhraseToken& next = t[i + 1];
      const bool calls_pass = startsWith(next, "call") && i + 2 < t.size() &&
                              (isWord(t[i + 2], "pass") || isWord(t[i + 2], "go") ||
                               isWord(t[i + 2], "allowed") || isWord(t[i + 2], "through"));
      // "N calls" or "N requests" where the context already says these are the probes (a spec
      // row labelled "Half-open probes: 3 calls, 500 ms apart").
      const bool counted_in_probe_context =
          (contains(context, "probe") || contains(context, "trial")) &&
          (startsWith(next, "call") || startsWith(next, "request"));
      const bool probes = startsWith(next, "probe") || startsWith(next, "trial") ||
                          counted_in_probe_context ||
                          (isWord(next, "half-open") && i + 2 < t.size() &&
                           (startsWith(t[i + 2], "trial") || startsWith(t[i + 2], "probe")));
      if (calls_pass || probes) {
        hint("breaker.half_open.probes", countText(*n));
        break;
      }
    }
    // Their spacing: "500 ms apart", "spaced 500 ms", "one every 500 ms", "500 ms between them".
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].kind != Kind::duration || t[i].micros <= 0) continue;
      const bool after =
          i + 1 < t.size() && (isWord(t[i + 1], "apart") || isWord(t[i + 1], "between"));
      const bool before = i >= 1 && (startsWith(t[i - 1], "spaced") || isWord(t[i - 1], "every"));
      if (after || before) {
        hint("breaker.half_open.spacing", formatDuration(t[i].micros));
        break;
      }
    }
    // "all 3 must return 200", "all 3 must succeed"
    for (std::size_t i = 0; i + 2 < t.size(); ++i)
      if (isWord(t[i], "all") && countAt(t, i + 1) && isWord(t[i + 2], "must"))
        hint("breaker.half_open.close_when", "all_succeed");
  }

  // --- the fallback cache -----------------------------------------------------------------
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!isWord(t[i], "ttl")) continue;
    const PhraseToken* d = nullptr;
    if (i + 1 < t.size() && t[i + 1].kind == Kind::duration) d = &t[i + 1];
    if (!d && i + 2 < t.size() && (t[i + 1].text == ":" || isWord(t[i + 1], "of")) &&
        t[i + 2].kind == Kind::duration)
      d = &t[i + 2];
    if (!d && i >= 1 && t[i - 1].kind == Kind::duration) d = &t[i - 1];
    if (d && d->micros > 0) {
      hint("fallback.cache.enabled", "true");
      hint("fallback.cache.ttl", formatDuration(d->micros));
      break;
    }
  }

  // --- connection pools -------------------------------------------------------------------
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    auto n = countAt(t, i);
    if (!n || *n == 0 || *n > 1'000'000) continue;
    std::size_t k = i + 1;
    if (t[k].text == "-") ++k;
    if (k >= t.size() || !startsWith(t[k], "connection")) continue;
    // "20 connections per Pricing pod": the words before "pod" name whose pods they are.
    std::string owner;
    bool per_pod = false;
    for (std::size_t j = k + 1; j < t.size() && j <= k + 4; ++j) {
      if (startsWith(t[j], "pod")) {
        per_pod = true;
        break;
      }
      if (t[j].kind == Kind::word && !isWord(t[j], "per") && !isWord(t[j], "each"))
        owner = t[j].text;
    }
    const bool pool_words =
        per_pod || (k + 1 < t.size() && startsWith(t[k + 1], "pool")) || hasWord(t, "pool");
    if (!pool_words) continue;
    if (!owner.empty()) {
      hint("dependency.pool_per_pod:" + owner, countText(*n));
    } else {
      hint("pool.size", countText(*n));
    }
    break;
  }

  // --- pods and the load balancer ---------------------------------------------------------
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    // "6 of 8 Orders pods", "scales pods from 12 to 40"
    if (countAt(t, i) && isWord(t[i + 1], "of") && countAt(t, i + 2)) {
      for (std::size_t k = i + 3; k < t.size() && k <= i + 5; ++k)
        if (startsWith(t[k], "pod")) {
          hint("load_balancer.pods", countText(*countAt(t, i + 2)));
          break;
        }
    }
    if (startsWith(t[i], "pod") && isWord(t[i + 1], "from") && countAt(t, i + 2) &&
        i + 4 < t.size() && isWord(t[i + 3], "to") && countAt(t, i + 4)) {
      hint("load_balancer.pods", countText(*countAt(t, i + 2)));
      hint("what_if:load_balancer.pods", countText(*countAt(t, i + 4)));
    }
  }
  const bool lb = (hasWord(t, "load") && hasWord(t, "balancer")) || hasWord(t, "lb");
  if (lb && (hasPrefix(t, "unhealthy") || hasPrefix(t, "remov") || hasWord(t, "health"))) {
    hint("load_balancer.health_check.enabled", "true");
  }

  // --- the breaker at all, the early probe --------------------------------------------------
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    const bool negation = isWord(t[i], "no") || isWord(t[i], "without");
    if (negation && ((isWord(t[i + 1], "circuit") && startsWith(t[i + 2], "breaker")) ||
                     startsWith(t[i + 1], "breaker"))) {
      hint("breaker.enabled", "false");
      break;
    }
    if (i + 3 < t.size() && negation && isWord(t[i + 1], "a") && isWord(t[i + 2], "circuit") &&
        startsWith(t[i + 3], "breaker")) {
      hint("breaker.enabled", "false");
      break;
    }
  }
  // "Add backoff, jitter, and a circuit breaker": a remediation that adds one.
  if ((hasWord(t, "add") || hasWord(t, "adds") || hasWord(t, "introduce")) &&
      hasPrefix(t, "breaker") && !hasWord(t, "no"))
    hint("breaker.enabled", "true");
  // "Separate the health check thread pool", "its own pool"
  if (hasPrefix(t, "separat") && hasWord(t, "health") && hasWord(t, "pool"))
    hint("load_balancer.health_check.pool", "separate");
  if (hasWord(t, "health") && hasWord(t, "shared") && hasWord(t, "pool"))
    hint("load_balancer.health_check.pool", "shared");
  // "Orders reads a cached price and enqueues a verification job": cache-first pricing.
  if ((hasWord(t, "reads") || hasWord(t, "serves")) && hasWord(t, "cached") &&
      hasPrefix(t, "price")) {
    hint("pricing.mode", "cache_first");
    hint("fallback.cache.enabled", "true");
  }
  // "Probe within 2 s of health green", "probe early when the health check turns green"
  if (hasPrefix(t, "probe") && hasWord(t, "health") && !hasWord(t, "no") &&
      (hasWord(t, "green") || hasWord(t, "check") || hasWord(t, "checks"))) {
    hint("breaker.open.early_probe.enabled", "true");
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
      if (isWord(t[i], "within") && t[i + 1].kind == Kind::duration && t[i + 1].micros > 0) {
        hint("breaker.open.early_probe.poll", formatDuration(t[i + 1].micros));
        break;
      }
  }

  // --- what the document reports ------------------------------------------------------------
  // "No checkout failed", "no failed checkouts", "0 failed checkouts"
  for (std::size_t i = 0; i + 2 < t.size(); ++i) {
    const bool none =
        isWord(t[i], "no") || (t[i].kind == Kind::number && t[i].value == 0 && t[i].text == "0");
    if (none && ((startsWith(t[i + 1], "checkout") && startsWith(t[i + 2], "fail")) ||
                 (startsWith(t[i + 1], "fail") && startsWith(t[i + 2], "checkout")))) {
      hint("expect:failed_checkouts", "0");
      break;
    }
  }

  // "18.6% of purchase attempts failed", "12% of checkouts failed"
  for (std::size_t i = 0; i + 3 < t.size(); ++i) {
    if (t[i].kind != Kind::percent || t[i].value < 0 || t[i].value > 100 || !isWord(t[i + 1], "of"))
      continue;
    bool failed = false, checkouts = false;
    for (std::size_t j = i + 2; j < t.size() && j <= i + 5; ++j) {
      if (startsWith(t[j], "checkout") || startsWith(t[j], "purchase") ||
          startsWith(t[j], "attempt") || startsWith(t[j], "order") || startsWith(t[j], "request"))
        checkouts = true;
      if (isWord(t[j], "failed") || isWord(t[j], "fail")) failed = true;
    }
    if (failed && checkouts) {
      hint("expect:failed_pct", formatNumber(t[i].value));
      break;
    }
  }

  // "Failed checkouts are counted once per session": the document's count is of sessions, and
  // BreakerLab counts checkout requests, so the two cannot be compared.
  if (hasPrefix(t, "checkout") && hasWord(t, "counted") && hasWord(t, "per") &&
      (hasPrefix(t, "session") || hasPrefix(t, "customer") || hasPrefix(t, "user")))
    hint("count_unit:failed_checkouts", "session");

  // --- traffic ------------------------------------------------------------------------------
  // Any stated rate is a hint: one past the incident's limit is then an error at its line, not
  // dropped for "the document states no request rate; 40 assumed".
  if (const auto rps = requestRate(t); rps && *rps > 0) hint("traffic.rps", formatNumber(*rps));
  return hints;
}

}  // namespace breakerlab::data_detail
