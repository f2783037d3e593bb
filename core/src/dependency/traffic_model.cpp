#include "dependency/traffic_model.h"

#include <algorithm>
#include <cmath>

namespace breakerlab {

namespace {
double pieceSeconds(const RatePiece& p) {
  return toSeconds(p.to - p.from);
}
double pieceArea(const RatePiece& p) {
  return 0.5 * (p.rps_from + p.rps_to) * pieceSeconds(p);
}
}  // namespace

ArrivalStream::ArrivalStream(ArrivalProcess process, const std::vector<RatePiece>& rate,
                             Micros from, Micros to, const CounterRng& rng, Stream stream)
    : process_(process), from_(from), to_(to), rng_(&rng), stream_(stream) {
  double total = 0;
  for (const auto& p : rate) {
    const double duration = pieceSeconds(p);
    const double slope = duration > 0 ? (p.rps_to - p.rps_from) / duration : 0;
    const bool constant = std::abs(slope) < 1e-12;
    pieces_.push_back({p.from, duration, total, total + pieceArea(p), p.rps_from,
                       constant ? 0.0 : slope,
                       constant && p.rps_from > 0 ? 1.0 / p.rps_from : 0.0});
    total += pieceArea(p);
  }
}

ArrivalStream::ArrivalStream(const std::vector<Micros>& recorded, Micros from, Micros to)
    : process_(ArrivalProcess::recorded), from_(from), to_(to), recorded_(&recorded) {
  recorded_index_ = static_cast<std::size_t>(
      std::lower_bound(recorded.begin(), recorded.end(), from) - recorded.begin());
}

Micros ArrivalStream::invert(double cumulative) {
  while (piece_ < pieces_.size() && cumulative > pieces_[piece_].cumulative_end) ++piece_;
  if (piece_ >= pieces_.size()) return kNever;
  const Piece& p = pieces_[piece_];
  const double x = cumulative - p.cumulative_start;
  double tau;
  if (p.slope == 0.0) {
    tau = x * p.inverse_rps;
  } else {
    // rps_from * tau + slope * tau^2 / 2 = x
    const double disc = std::max(0.0, p.rps_from * p.rps_from + 2 * p.slope * x);
    tau = (std::sqrt(disc) - p.rps_from) / p.slope;
  }
  tau = std::clamp(tau, 0.0, p.duration_s);
  return p.from + fromSeconds(tau);
}

Micros ArrivalStream::next() {
  Micros t = kNever;
  switch (process_) {
    case ArrivalProcess::recorded:
      if (recorded_index_ < recorded_->size()) t = (*recorded_)[recorded_index_++];
      break;
    case ArrivalProcess::uniform:
      t = invert(static_cast<double>(produced_) + 0.5);
      break;
    case ArrivalProcess::poisson: {
      const double u = rng_->uniform(stream_, produced_, 0, Purpose::arrival_gap);
      target_ += -std::log1p(-u);
      t = invert(target_);
      break;
    }
  }
  if (t < from_ || t >= to_) return kNever;
  ++produced_;
  return t;
}

std::vector<RatePiece> leadInRate(const Traffic& traffic, Micros window_start, Micros window_end) {
  if (traffic.lead_in <= 0) return {};
  double rps = 0;
  if (traffic.arrivals == ArrivalProcess::recorded) {
    const auto in_window =
        std::count_if(traffic.recorded.begin(), traffic.recorded.end(),
                      [&](Micros t) { return t >= window_start && t < window_end; });
    rps = static_cast<double>(in_window) / toSeconds(window_end - window_start);
  } else {
    for (const auto& p : traffic.rate) {
      if (p.from <= window_start && window_start < p.to) {
        const double f = toSeconds(window_start - p.from) / pieceSeconds(p);
        rps = p.rps_from + f * (p.rps_to - p.rps_from);
        break;
      }
    }
  }
  if (rps <= 0) return {};
  return {RatePiece{window_start - traffic.lead_in, window_start, rps, rps}};
}

KeySampler::KeySampler(const KeyDistribution& keys)
    : count_(std::max<std::uint32_t>(keys.count, 1)), uniform_(keys.zipf == 0.0) {
  if (uniform_) return;
  std::vector<double> weight(count_);
  double total = 0;
  for (std::uint32_t k = 0; k < count_; ++k) {
    weight[k] = 1.0 / std::pow(static_cast<double>(k + 1), keys.zipf);
    total += weight[k];
  }
  probability_.assign(count_, 0);
  alias_.assign(count_, 0);
  std::vector<std::uint32_t> small, large;
  std::vector<double> scaled(count_);
  for (std::uint32_t k = 0; k < count_; ++k) {
    scaled[k] = weight[k] * count_ / total;
    (scaled[k] < 1.0 ? small : large).push_back(k);
  }
  while (!small.empty() && !large.empty()) {
    const auto s = small.back();
    small.pop_back();
    const auto l = large.back();
    probability_[s] = scaled[s];
    alias_[s] = l;
    scaled[l] = (scaled[l] + scaled[s]) - 1.0;
    if (scaled[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  for (auto k : large) probability_[k] = 1.0;
  for (auto k : small) probability_[k] = 1.0;  // rounding leftovers
}

bool WindowArrivals::applies(const Incident& incident) {
  const Traffic& traffic = incident.traffic;
  return traffic.arrivals != ArrivalProcess::recorded && traffic.recorded_keys.empty();
}

std::shared_ptr<const WindowArrivals> WindowArrivals::draw(const Incident& incident) {
  const Traffic& traffic = incident.traffic;
  auto drawn = std::make_shared<WindowArrivals>();
  drawn->process = traffic.arrivals;
  drawn->rate = traffic.rate;
  drawn->key_distribution = traffic.keys;
  drawn->from = incident.start;
  drawn->to = incident.end;
  drawn->seed = incident.seed;
  const CounterRng rng(incident.seed);
  const KeySampler sampler(traffic.keys);
  ArrivalStream stream(traffic.arrivals, traffic.rate, incident.start, incident.end, rng,
                       Stream::window);
  for (Micros t = stream.next(); t != kNever; t = stream.next()) {
    const std::uint64_t request = stream.produced() - 1;
    drawn->times.push_back(t);
    drawn->keys.push_back(sampler.sample(rng.uniform(Stream::window, request, 0, Purpose::key)));
  }
  return drawn;
}

bool WindowArrivals::drawnFor(const Incident& incident) const {
  const Traffic& traffic = incident.traffic;
  return applies(incident) && process == traffic.arrivals && rate == traffic.rate &&
         key_distribution.count == traffic.keys.count &&
         key_distribution.zipf == traffic.keys.zipf && from == incident.start &&
         to == incident.end && seed == incident.seed;
}

}  // namespace breakerlab
