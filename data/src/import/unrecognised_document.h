#pragma once
// Internal: what a document that no reader takes looks like, and what to do with it, for the
// error of Open Incident and `breakerlab-cli replay/import` (issue #33: a lesson whose breaker
// is a Go file was refused as "not a document" with no hint).
#include <string>
#include <string_view>

namespace breakerlab::data_detail {

struct UnrecognisedDocument {
  int line = 0;  // of what it was told by (0: the whole file)
  int column = 0;
  std::string message;
};

// Tells a breaker config written in Go (a file that starts with `package`) from a write-up that
// shows one (prose around gobreaker code, such as the circuit-breaker lesson), and says what the
// importer needs and where the config goes instead; anything else gets the list of formats.
UnrecognisedDocument describeUnrecognisedDocument(std::string_view text);

}  // namespace breakerlab::data_detail
