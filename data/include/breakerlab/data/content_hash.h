#pragma once
#include <string>
#include <string_view>

namespace breakerlab {

// FNV-1a, 64 bits, as 16 hex digits: tells whether two documents are the same (the workspace's
// stored incidents, the incidents of a sharded search's parts). Not for security.
std::string contentHash(std::string_view text);

}  // namespace breakerlab
