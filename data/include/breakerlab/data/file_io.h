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

// Outputs are written with writeOutputFile / OutputFile (breakerlab/data/output_file.h).

}  // namespace breakerlab
