// The fallback cache's one rule: a price is served while its age is strictly below the TTL.
#include <gtest/gtest.h>

#include "replay/parts/price_cache.h"

namespace breakerlab {
namespace {

TEST(PriceCache, AKeyNeverFetchedIsNeverServed) {
  const PriceCache cache(3);
  EXPECT_EQ(cache.fetchedAt(2), kNever);
  EXPECT_FALSE(cache.servableAge(2, 0, 60 * kSecond));
  EXPECT_FALSE(cache.servableAge(2, kNever / 2, kNever / 4));
}

TEST(PriceCache, ServedWhileItsAgeIsBelowTheTtlAndNotAtIt) {
  PriceCache cache(2);
  const Micros ttl = 60 * kSecond, fetched = 5 * kSecond;
  cache.store(1, fetched);
  struct Case {
    Micros now;
    std::optional<Micros> age;
  };
  for (const Case& c : {Case{fetched, 0}, Case{fetched + 1, 1}, Case{fetched + ttl - 1, ttl - 1},
                        Case{fetched + ttl, std::nullopt}, Case{fetched + ttl + 1, std::nullopt}}) {
    EXPECT_EQ(cache.servableAge(1, c.now, ttl), c.age) << c.now;
  }
  EXPECT_FALSE(cache.servableAge(0, fetched, ttl)) << "the other key was never fetched";
}

TEST(PriceCache, ANewerFetchRestartsTheAge) {
  PriceCache cache(1);
  cache.store(0, 0);
  cache.store(0, 50 * kSecond);
  EXPECT_EQ(cache.servableAge(0, 70 * kSecond, 60 * kSecond), 20 * kSecond);
}

}  // namespace
}  // namespace breakerlab
