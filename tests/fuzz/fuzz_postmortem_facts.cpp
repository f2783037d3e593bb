// Any bytes as a postmortem, read into its facts (fenced Markdown blocks, or plain text with its
// timeline and phrases) without building an incident or replaying: the reading alone, so that
// the fuzzer spends its time where the input drives the work. fuzz_postmortem runs the whole
// import.
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/data/load_error.h"
#include "import/postmortem_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)data_detail::readFencedPostmortem(text, "postmortem.md");
  } catch (const LoadError&) {
  }
  try {
    (void)data_detail::readTextPostmortem(text, "postmortem.txt");
  } catch (const LoadError&) {
  }
  return 0;
}
