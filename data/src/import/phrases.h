#pragma once
// Internal: the settings a postmortem states in words ("800 ms per call", "the last 20 calls",
// "3 retries, no backoff", "about 40 requests per second"), read from one clause at a time.
// No regular expressions: std::regex recurses per character and a long line would exhaust the
// stack; this is a tokenizer and a few token patterns.
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/time.h"

namespace breakerlab::data_detail {

// `s` with its ASCII letters in lower case (the documents' words are compared that way).
inline std::string lowerCopy(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct PhraseToken {
  enum class Kind { word, number, duration, percent, symbol } kind = Kind::word;
  std::string text;   // words lower-cased; symbols as written
  double value = 0;   // number, percent (50 for 50%), duration in seconds
  Micros micros = 0;  // duration
  double unit = 0;    // duration: seconds per unit as written (0.001 for "800 ms")
};

// Words, numbers ("1,760", "0.5", "three"), durations ("800 ms", "20s", "5 seconds",
// "2 minutes"), percentages ("50%", "25 percent") and symbols (× : , . ( ) /).
std::vector<PhraseToken> tokenizePhrase(std::string_view clause);

// A setting read from the text, as the key and value `--set` takes ("timeout.attempt",
// "800ms"), or an incident key ("traffic.rps"), with the words it came from.
struct PhraseHint {
  std::string key;
  std::string value;
  std::string quote;  // the clause, shortened
};

// What a clause states. `context` is the label of a spec row ("Call timeout") or "" for prose;
// it decides what a bare number means ("Open interval: Fixed 20 s").
std::vector<PhraseHint> recognisePhrases(std::string_view clause, std::string_view context = {});

// Splits prose into clauses at sentence ends (". ", "; ") outside numbers ("0.5").
std::vector<std::string> splitClauses(std::string_view text);

// "about 40 requests per second", "40 rps", "40 req/s": the rate, if the clause states one.
std::optional<double> requestRate(const std::vector<PhraseToken>& tokens);

// "14:02:00", "09:41", "14:02": seconds since midnight.
std::optional<double> clockTime(std::string_view text);

// At most `limit` characters of `text` for a report, with an ellipsis when cut (UTF-8 safe).
std::string shortQuote(std::string_view text, std::size_t limit = 80);

// A document's paragraph as an incident's summary, at most `limit` bytes: its whole sentences
// that fit, or, when the first is longer, its words that fit and "...": never cut inside a word
// ("stayed ope...", issue #33).
std::string summaryOf(std::string_view text, std::size_t limit = 400);

}  // namespace breakerlab::data_detail
