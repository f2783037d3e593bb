#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace breakerlab {

// The whole file; throws LoadError("PATH", 0, 0, "cannot read: <OS reason>").
std::string readTextFile(const std::filesystem::path& path);

// Writes to a temporary file in the same directory, fsyncs it and renames it over `path`, so
// readers see the old or the new contents, never a mix. Throws std::runtime_error naming the
// path and the OS reason.
void writeFileAtomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace breakerlab
