#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace breakerlab {

// The largest document (incident, config, native config) read whole into memory. Far above any
// real one; a bigger file is refused before a byte of it is read.
inline constexpr std::uint64_t kMaxDocumentBytes = 64ull << 20;

// The whole file. Only a regular file is read: a FIFO, a device (/dev/zero) or a socket is
// refused without blocking, and so is a file larger than `max_bytes`. Throws
// LoadError("PATH", 0, 0, "cannot read: <reason>").
std::string readTextFile(const std::filesystem::path& path,
                         std::uint64_t max_bytes = kMaxDocumentBytes);

// Opens `path` for reading as readTextFile does (without blocking on a FIFO, refusing anything
// but a regular file) and returns the descriptor, positioned at the start, and the file's size.
// The caller closes it. Throws LoadError like readTextFile.
int openRegularFile(const std::filesystem::path& path, std::uint64_t& size);

// Writes to a temporary file in the same directory, fsyncs it and renames it over `path`, so
// readers see the old or the new contents, never a mix. Throws LoadError("PATH", 0, 0, "cannot
// write: <OS reason>") (or "cannot create a temporary file in DIR: ...", "cannot replace: ...").
void writeFileAtomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace breakerlab
