#pragma once
// Runs f(index, worker) for every index below `count` on `threads` threads, each taking the
// next index when it is free. The caller's results must be indexed, not ordered by completion,
// so that they do not depend on the number of threads. The first exception is rethrown after
// every thread has stopped; the others stop taking indices once one has thrown.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace breakerlab {

inline unsigned threadsToUse(unsigned requested, std::size_t work) {
  unsigned n = requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(n, std::max<std::size_t>(1, work)));
}

// Runs f(worker) once on each of `threads` threads (the caller's among them), workers 0 to
// threads - 1. The first exception is rethrown after every thread has stopped.
template <typename F>
void onEachThread(unsigned threads, F&& f) {
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](unsigned worker) {
    try {
      f(worker);
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 1; w < threads; ++w) pool.emplace_back(work, w);
    work(0);
  }
  if (error) std::rethrow_exception(error);
}

template <typename F>
void parallelFor(std::size_t count, unsigned threads, F&& f) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](unsigned worker) {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      try {
        f(i, worker);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
        return;
      }
    }
  };
  const unsigned n = threadsToUse(threads, count);
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 1; w < n; ++w) pool.emplace_back(work, w);
    work(0);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace breakerlab
