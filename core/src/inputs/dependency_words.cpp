#include "breakerlab/core/inputs/dependency_words.h"

#include <algorithm>
#include <cctype>

namespace breakerlab {

DependencyWords dependencyWords(std::string_view dependency_name) {
  std::string lower(dependency_name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string_view name = dependency_name;
  const auto first = name.find_first_not_of(" \t");
  if (first == std::string_view::npos || lower == "dependency") return {"answer", "answers"};
  // A word of the name that starts with "pric" (Pricing, Price service, prices-api).
  for (std::size_t at = lower.find("pric"); at != std::string::npos;
       at = lower.find("pric", at + 1))
    if (at == 0 || !std::isalpha(static_cast<unsigned char>(lower[at - 1]))) return {};
  const auto last = name.find_last_not_of(" \t");
  const std::string trimmed(name.substr(first, last - first + 1));
  return {trimmed + " answer", trimmed + " answers"};
}

std::string inDependencyWords(std::string_view text, const DependencyWords& words) {
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  out.reserve(text.size() + 16);
  std::size_t i = 0;
  while (i < text.size()) {
    if (!letter(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && letter(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    const std::string* replacement = nullptr;
    if (word == "price" || word == "Price") replacement = &words.answer;
    if (word == "prices" || word == "Prices") replacement = &words.answers;
    if (replacement == nullptr) {
      out += word;
    } else {
      std::string put = *replacement;
      // "Price ..." at the start of a sentence keeps its capital.
      if (!put.empty() && std::isupper(static_cast<unsigned char>(word[0])))
        put[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(put[0])));
      out += put;
    }
    i = end;
  }
  return out;
}

}  // namespace breakerlab
