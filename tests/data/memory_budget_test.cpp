// The memory an input asks for is checked before it is allocated: a log the machine (or a
// `ulimit -v`) cannot hold is refused with the count, the need and what to do.
#include "breakerlab/data/memory_budget.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/request_log.h"

// GCC says AddressSanitizer with __SANITIZE_ADDRESS__, clang with __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BREAKERLAB_HAS_ASAN 1
#endif
#endif
#ifndef BREAKERLAB_HAS_ASAN
#define BREAKERLAB_HAS_ASAN 0
#endif

namespace breakerlab {
namespace {

namespace fs = std::filesystem;

TEST(MemoryBudget, MemoryTextReadsInTheBestUnit) {
  const std::pair<std::uint64_t, const char*> cases[] = {
      {0, "0 bytes"},
      {999, "999 bytes"},
      {1000, "1.0 KB"},
      {12'345, "12 KB"},
      {820'000'000, "820 MB"},
      {3'100'000'000ull, "3.1 GB"},
      {9'990'000'000ull, "10.0 GB"},
      {2'000'000'000'000ull, "2.0 TB"},
  };
  for (const auto& [bytes, text] : cases) EXPECT_EQ(memoryText(bytes), text) << bytes;
}

TEST(MemoryBudget, SomeMemoryIsAvailableAndNotAnExabyte) {
  const std::optional<std::uint64_t> available = availableMemoryBytes();
  ASSERT_TRUE(available);
  EXPECT_GT(*available, 1u << 20);
  EXPECT_LT(*available, 1ull << 60);
  EXPECT_NO_THROW(requireMemoryFor(1 << 20, "f", "a little", "never"));
  try {
    requireMemoryFor(3'100'000'000'000'000ull, "log.csv", "a log of 60000001 lines",
                     "split the log by time");
    FAIL() << "3,100 PB were available";
  } catch (const LoadError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("log.csv: not enough memory for a log of 60000001 lines: about "
                         "3100 TB at the peak, ",
                         0),
              0u)
        << what;
    EXPECT_NE(what.find(" available; split the log by time"), std::string::npos) << what;
  }
}

// Sets an address-space limit `room` bytes above what this process has mapped (as
// `prlimit --as` would), reads `log` and exits: 0 read, 2 LoadError (its text on stderr), 3 any
// other exception. For a death test's child: the limit must not outlive it.
[[noreturn]] void readUnderALimitAboveWhatIsMapped(const fs::path& log, std::uint64_t room) {
  std::ifstream status("/proc/self/status");
  std::string line;
  unsigned long long vm_kb = 0;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0) std::sscanf(line.c_str() + 7, "%llu", &vm_kb);
  rlimit limit{};
  limit.rlim_cur = limit.rlim_max = (vm_kb << 10) + room;
  ::setrlimit(RLIMIT_AS, &limit);
  try {
    readRequestLog(log, RequestLogFormat::csv, RequestLogOptions{});
    std::fprintf(stderr, "read");
    std::_Exit(0);
  } catch (const LoadError& e) {
    std::fprintf(stderr, "%s", e.what());
    std::_Exit(2);
  } catch (...) {
    std::fprintf(stderr, "another exception");
    std::_Exit(3);
  }
}

// Under an address-space limit (as `prlimit --as` sets it) a log that needs more than the limit
// leaves is refused before its columns are allocated, with exit 2's LoadError, not bad_alloc.
TEST(MemoryBudget, ALogLargerThanTheAddressSpaceLimitIsRefusedUpFront) {
#if defined(__SANITIZE_ADDRESS__) || BREAKERLAB_HAS_ASAN
  GTEST_SKIP() << "AddressSanitizer maps terabytes of shadow memory: an address-space limit "
                  "stops its allocator, not the reader";
#endif
  const fs::path log =
      fs::temp_directory_path() / ("breakerlab-memory-" + std::to_string(::getpid()) + ".csv");
  {
    std::ofstream out(log);
    out << "start_s,duration_s,outcome\n";
    for (int i = 0; i < 2'000'000; ++i) out << i / 1000 << ".0,0.01,success\n";
  }
  // In a child: the limit must not outlive the test.
  EXPECT_EXIT(readUnderALimitAboveWhatIsMapped(log, 40u << 20), ::testing::ExitedWithCode(2),
              "not enough memory for a log of 2000001 lines: about 112 MB at the peak, "
              "[0-9.]+ MB available; split the log by time");
  fs::remove(log);
}

}  // namespace
}  // namespace breakerlab
