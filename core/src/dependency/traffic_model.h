#pragma once
// Turns a traffic profile into arrival times and request keys.
#include <cstdint>
#include <memory>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "dependency/random.h"

namespace breakerlab {

// Arrival times of one stream, in order. Uniform arrivals place the n-th request where the
// cumulative rate reaches n + 0.5; Poisson arrivals where it reaches a sum of unit
// exponentials (inverse-transform of a non-homogeneous Poisson process).
class ArrivalStream {
 public:
  ArrivalStream(ArrivalProcess process, const std::vector<RatePiece>& rate, Micros from, Micros to,
                const CounterRng& rng, Stream stream);
  ArrivalStream(const std::vector<Micros>& recorded, Micros from, Micros to);

  // The next arrival time, or kNever when the stream has ended.
  Micros next();
  std::uint64_t produced() const { return produced_; }

 private:
  Micros invert(double cumulative);

  struct Piece {
    Micros from;
    double duration_s;
    double cumulative_start;  // Λ at the piece's start
    double cumulative_end;
    double rps_from;
    double slope;        // rps per second
    double inverse_rps;  // for constant-rate pieces
  };
  ArrivalProcess process_;
  std::vector<Piece> pieces_;
  std::size_t piece_ = 0;
  double target_ = 0;
  Micros from_ = 0;
  Micros to_ = 0;
  const CounterRng* rng_ = nullptr;
  Stream stream_ = Stream::window;
  const std::vector<Micros>* recorded_ = nullptr;
  std::size_t recorded_index_ = 0;
  std::uint64_t produced_ = 0;
};

// Lead-in traffic: the rate in force at the window start, held for `lead_in` before it.
std::vector<RatePiece> leadInRate(const Traffic& traffic, Micros window_start, Micros window_end);

// Draws a key from `count` keys with Zipf weights using Vose's alias table: one uniform
// draw and one comparison per key.
class KeySampler {
 public:
  explicit KeySampler(const KeyDistribution& keys);
  std::uint32_t sample(double u) const {
    const double scaled = u * count_;
    auto i = static_cast<std::uint32_t>(scaled);
    if (i >= count_) i = count_ - 1;
    if (uniform_) return i;
    // Branch-free select: the comparison is a coin flip the predictor cannot learn.
    const std::uint32_t take_alias = (scaled - i) < probability_[i] ? 0u : ~0u;
    return (i & ~take_alias) | (alias_[i] & take_alias);
  }
  std::uint32_t count() const { return count_; }

 private:
  std::uint32_t count_;
  bool uniform_;
  std::vector<double> probability_;
  std::vector<std::uint32_t> alias_;
};

// The window's drawn arrivals and their keys: a pure function of the incident's traffic, window
// and seed, so that the replays of one incident under many configs (a map, a tune) draw them once.
// Only for drawn traffic (uniform or Poisson) with drawn keys; recorded arrivals are read as they
// are.
struct WindowArrivals {
  static bool applies(const Incident& incident);
  // Draws them as the window's ArrivalStream and the key draws of its requests would.
  static std::shared_ptr<const WindowArrivals> draw(const Incident& incident);
  // Whether these are `incident`'s (compared by value: the cache may outlive an edited incident).
  bool drawnFor(const Incident& incident) const;

  ArrivalProcess process = ArrivalProcess::uniform;
  std::vector<RatePiece> rate;
  KeyDistribution key_distribution;
  Micros from = 0, to = 0;
  std::uint64_t seed = 0;
  std::vector<Micros> times;        // of request i, in order
  std::vector<std::uint32_t> keys;  // of request i
};

}  // namespace breakerlab
