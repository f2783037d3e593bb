#pragma once
// Memory asked for by an input, checked before it is allocated: a 60 M-call log needs about
// 3 GB, and a machine (or a `ulimit -v`) that cannot give it should say so at the start, with
// what to do, not end in std::bad_alloc half-way.
#include <cstdint>
#include <optional>
#include <string>

namespace breakerlab {

// What this process may still allocate: the smaller of the machine's available memory
// (MemAvailable in /proc/meminfo) and what its address-space limit (RLIMIT_AS: `ulimit -v`,
// `prlimit --as`) leaves above what the process has mapped already. nullopt when neither is
// known.
std::optional<std::uint64_t> availableMemoryBytes();

// "3.1 GB", "820 MB", "12 KB": bytes in the unit that reads best, two or three digits.
std::string memoryText(std::uint64_t bytes);

// Throws LoadError(file, 0, 0, "not enough memory for <what>: about <need> at the peak, <have>
// available; <advice>") when `bytes` is more than availableMemoryBytes().
void requireMemoryFor(std::uint64_t bytes, const std::string& file, const std::string& what,
                      const std::string& advice);

}  // namespace breakerlab
