// Any bytes as the postmortem import's state-name table (YAML the user edits): read, written
// back and read again, which must give the same table.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/state_table.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const StateTable table = parseStateTable(text, "states.yaml");
    const std::string written = stateTableToYaml(table);
    const StateTable again = parseStateTable(written, "written.yaml");
    if (stateTableToYaml(again) != written) std::abort();  // the round trip lost something
  } catch (const LoadError&) {
  }
  return 0;
}
