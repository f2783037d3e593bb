#pragma once
// The fallback cache of prices: when each key's price was last fetched, and whether it may be
// served. One rule for every reader (a failed call's fallback, cache-first pricing): a price is
// served while its age is strictly below the TTL (docs/model.md).
#include <cstdint>
#include <optional>
#include <vector>

#include "breakerlab/core/basics/time.h"
#include "breakerlab/core/inputs/config.h"

namespace breakerlab {

class PriceCache {
 public:
  explicit PriceCache(std::size_t keys) : fetched_at_(keys, kNever) {}

  void store(std::uint32_t key, Micros fetched_at) { fetched_at_[key] = fetched_at; }
  // When the key's price was fetched; kNever before the first fetch.
  Micros fetchedAt(std::uint32_t key) const { return fetched_at_[key]; }
  // The age of the key's price at `now` if it may be served then.
  std::optional<Micros> servableAge(std::uint32_t key, Micros now, Micros ttl) const {
    const Micros fetched = fetched_at_[key];
    if (fetched == kNever || now - fetched >= ttl) return std::nullopt;
    return now - fetched;
  }

 private:
  std::vector<Micros> fetched_at_;
};

}  // namespace breakerlab
