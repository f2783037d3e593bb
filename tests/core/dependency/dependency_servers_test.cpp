// DependencyServers' FIFO discipline: c servers, first come first served. The waits its heap of
// free times gives are those of a plain multiset model of the same servers, call for call, for
// server counts that fill the heap's levels exactly and those that leave the last one partial;
// and under a ceiling that timed changes move (dependency.capacity.scale), those of the rule the
// key states: a call starts once fewer calls than the ceiling in force at its arrival are
// unfinished ahead of it, and what was admitted keeps its start and end.
#include "dependency/dependency_servers.h"

#include <gtest/gtest.h>

#include <iterator>
#include <set>

#include "dependency/random.h"

namespace breakerlab {
namespace {

TEST(DependencyServers, WaitsAreThoseOfCServersServingInArrivalOrder) {
  const CounterRng rng(7);
  for (const std::uint32_t servers : {1u, 2u, 3u, 4u, 5u, 6u, 17u, 21u, 40u, 85u}) {
    DependencyCapacity capacity;
    capacity.concurrency = servers;
    DependencyServers model(capacity);
    std::multiset<Micros> free_at;  // the reference: when each busy server comes free
    Micros t = 0;
    for (std::uint64_t call = 0; call < 20000; ++call) {
      // Bursts and lulls: the servers fill up, queue, and drain again.
      const double gap = rng.uniform(Stream::window, call, 0, Purpose::arrival_gap);
      t += static_cast<Micros>(gap * gap * 4000);
      const auto service = static_cast<Micros>(
          1 + 20000 * servers * rng.uniform(Stream::window, call, 0, Purpose::latency) / 8);
      Micros begins = t;
      if (free_at.size() >= servers) {
        begins = std::max(t, *free_at.begin());
        free_at.erase(free_at.begin());
      }
      free_at.insert(begins + service);
      const DependencyServers::Admission a = model.admit(t, service, kNever);
      ASSERT_FALSE(a.queue_full);
      ASSERT_EQ(a.wait, begins - t) << servers << " servers, call " << call;
    }
  }
}

TEST(DependencyServers, UnderAMovingCeilingACallStartsOnceFewerThanItAreUnfinishedAheadOfIt) {
  const CounterRng rng(11);
  for (const std::uint32_t most : {1u, 2u, 5u, 17u, 40u}) {
    DependencyCapacity capacity;
    capacity.concurrency = most;
    DependencyServers model(capacity, true);
    // The reference: when every call admitted so far ends (its start was fixed at its arrival).
    std::multiset<Micros> ends;
    std::uint32_t ceiling = most;
    std::size_t waited_over_first = 0;  // calls that waited under a ceiling above the first
    Micros t = 0;
    for (std::uint64_t call = 0; call < 20000; ++call) {
      const double gap = rng.uniform(Stream::window, call, 0, Purpose::arrival_gap);
      t += static_cast<Micros>(gap * gap * 4000);
      if (call % 97 == 0) {
        // A new ceiling from 1 to twice the first, down as often as up.
        const double u = rng.uniform(Stream::window, call, 0, Purpose::outcome);
        ceiling = 1 + static_cast<std::uint32_t>(u * 2 * most);
        model.setCeiling(t, ceiling);
      }
      const auto service = static_cast<Micros>(
          1 + 20000 * most * rng.uniform(Stream::window, call, 0, Purpose::latency) / 8);
      // The earliest time from t at which fewer than `ceiling` calls ahead are unfinished.
      ends.erase(ends.begin(), ends.upper_bound(t));
      Micros begins = t;
      if (ends.size() >= ceiling) begins = *std::prev(ends.end(), ceiling);
      ends.insert(begins + service);
      const DependencyServers::Admission a = model.admit(t, service, kNever);
      ASSERT_FALSE(a.queue_full);
      ASSERT_EQ(a.wait, begins - t)
          << most << " servers at first, ceiling " << ceiling << ", call " << call;
      waited_over_first += a.wait > 0 && ceiling > most;
    }
    EXPECT_GT(waited_over_first, 100u) << most;
  }
}

TEST(DependencyServers, CallsInServiceWhenTheCeilingIsCutFinishAndTheNextWaitsForFewerThanIt) {
  DependencyCapacity capacity;
  capacity.concurrency = 4;
  DependencyServers model(capacity, true);
  constexpr Micros s = kSecond;
  // Three calls of 1 s at 0, 0.1 s and 0.2 s: under a ceiling of 4 each starts at once.
  for (const Micros at : {0 * s, s / 10, 2 * s / 10}) EXPECT_EQ(model.admit(at, s, kNever).wait, 0);
  model.setCeiling(s / 2, 2);
  // The three keep running; a call at 0.5 s waits until only one of them is unfinished: 1.1 s.
  EXPECT_EQ(model.admit(s / 2, s, kNever).wait, 11 * s / 10 - s / 2);
  // Back to 4 at 0.6 s: four calls are unfinished (the queued one keeps its start at 1.1 s), so
  // a call at 0.6 s waits for the first to end (1 s); the next, at 0.7 s, for the second (1.1 s).
  model.setCeiling(6 * s / 10, 4);
  EXPECT_EQ(model.admit(6 * s / 10, s, kNever).wait, 4 * s / 10);
  EXPECT_EQ(model.admit(7 * s / 10, s, kNever).wait, 4 * s / 10);
  // Once they are over, calls start at once up to the ceiling.
  for (const Micros at : {5 * s, 5 * s + 1, 5 * s + 2, 5 * s + 3})
    EXPECT_EQ(model.admit(at, s, kNever).wait, 0);
  EXPECT_EQ(model.admit(5 * s + 4, s, kNever).wait, s - 4);
}

TEST(DependencyServers, UtilizationIsAShareOfTheCeilingInForce) {
  DependencyCapacity capacity;
  capacity.concurrency = 4;
  DependencyServers model(capacity, true);
  constexpr Micros s = kSecond;
  model.recordUsage(0, 3 * s);
  model.admit(0, 3 * s, kNever);   // one server busy throughout
  model.setCeiling(s + s / 2, 2);  // halved half-way through the second second
  model.setCeiling(2 * s, 1);
  const std::vector<double> u = model.utilization();
  ASSERT_EQ(u.size(), 3u);
  EXPECT_DOUBLE_EQ(u[0], 1.0 / 4);
  EXPECT_DOUBLE_EQ(u[1], 1.0 / (0.5 * 4 + 0.5 * 2));
  EXPECT_DOUBLE_EQ(u[2], 1.0);
}

}  // namespace
}  // namespace breakerlab
