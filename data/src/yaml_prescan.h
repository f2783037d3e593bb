#pragma once
// Internal: a look at YAML text before yaml-cpp parses it, for what yaml-cpp reports badly or not
// at all. yaml-cpp recurses once per nesting level (deep input overflows the stack or ends in
// "bad file"), and it takes a quoted scalar that is never closed to run to the end of the file,
// so the error that follows points somewhere else.
#include <cstddef>
#include <string>
#include <string_view>

#include "breakerlab/data/load_error.h"

namespace breakerlab::data_detail {

// Maps and lists inside one another, block and flow style together. Real documents use fewer
// than ten.
inline constexpr int kMaxYamlNesting = 64;

// Values (scalars, keys, maps and lists) in one document, and what its aliases expand to.
// yaml-cpp holds about 450 bytes per value and reads 200 000 a second: a 32 MB list of numbers
// would take 7 GB and a minute and a half, and ten nested aliases of ten expand to 10^10. Real
// documents have a few thousand.
inline constexpr std::size_t kMaxYamlValues = 1'000'000;

// A document past a limit of these (nesting, values): not a syntax error of one part, which a
// reader may skip, but a reason to stop reading the document.
class YamlLimitError : public LoadError {
 public:
  using LoadError::LoadError;
};

// What the scan counted.
struct YamlPrescan {
  std::size_t values = 0;  // including `values_before`
  bool aliases = false;    // whether any value is an alias (*name), which may expand
};

// Throws LoadError(file, line, column, ...) at the collection that goes deeper than
// kMaxYamlNesting ("nested deeper than 64 levels"), at the value past kMaxYamlValues ("more than
// 1000000 values"), or at the quote that opens a scalar which is never closed. A lexical scan,
// linear in the text: it tracks indentation, flow brackets, quoted, plain and block scalars and
// comments as far as needed to tell where a quote opens a scalar. `values_before` counts values
// of the same document already scanned (the YAML blocks of one postmortem share the limit).
YamlPrescan prescanYaml(std::string_view text, const std::string& file,
                        std::size_t values_before = 0);

}  // namespace breakerlab::data_detail
