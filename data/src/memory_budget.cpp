#include "breakerlab/data/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "breakerlab/data/load_error.h"

namespace breakerlab {

namespace {

// A "Key:   1234 kB" line of a /proc file, in bytes.
std::optional<std::uint64_t> procKilobytes(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0 || line.size() <= key.size() ||
        line[key.size()] != ':')
      continue;
    unsigned long long kb = 0;
    if (std::sscanf(line.c_str() + key.size() + 1, "%llu", &kb) != 1) return std::nullopt;
    return static_cast<std::uint64_t>(kb) * 1024;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> availableMemoryBytes() {
  std::optional<std::uint64_t> available = procKilobytes("/proc/meminfo", "MemAvailable");
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t mapped = procKilobytes("/proc/self/status", "VmSize").value_or(0);
    const std::uint64_t cap = static_cast<std::uint64_t>(limit.rlim_cur);
    const std::uint64_t left = cap > mapped ? cap - mapped : 0;
    available = available ? std::min(*available, left) : left;
  }
  return available;
}

std::string memoryText(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1000 && unit < 4) {
    value /= 1000;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
  return text;
}

void requireMemoryFor(std::uint64_t bytes, const std::string& file, const std::string& what,
                      const std::string& advice) {
  const std::optional<std::uint64_t> available = availableMemoryBytes();
  if (!available || bytes <= *available) return;
  throw LoadError(file, 0, 0,
                  "not enough memory for " + what + ": about " + memoryText(bytes) +
                      " at the peak, " + memoryText(*available) + " available; " + advice);
}

}  // namespace breakerlab
