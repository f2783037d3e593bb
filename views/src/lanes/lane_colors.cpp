#include "breakerlab/views/lane_colors.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

#include "breakerlab/core/breakers/breaker_types.h"
#include "breakerlab/core/outcome/fleet.h"

namespace breakerlab::views {

namespace {
bool contains(std::string_view text, std::string_view word) {
  return text.find(word) != std::string_view::npos;
}
}  // namespace

namespace palette {
QColor blend(const QColor& from, const QColor& to, double share) {
  const double t = std::clamp(share, 0.0, 1.0);
  auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
  return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()),
                mix(from.blue(), to.blue()));
}

namespace {
struct Lab {
  double l, a, b;
};
Lab toLab(const QColor& c) {
  const auto linear = [](double v) {
    return v > 0.04045 ? std::pow((v + 0.055) / 1.055, 2.4) : v / 12.92;
  };
  const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}
}  // namespace

double perceivedDistance(const QColor& a, const QColor& b) {
  const Lab p = toLab(a), q = toLab(b);
  return std::sqrt((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) +
                   (p.b - q.b) * (p.b - q.b));
}
}  // namespace palette

namespace {
// "6 of 8 pods" (the pods lane's states): 6 in rotation of 8.
struct PodsInRotation {
  std::uint32_t in = 0, of = 0;
};
std::optional<PodsInRotation> podsInRotation(std::string_view state) {
  PodsInRotation pods;
  const char* end = state.data() + state.size();
  auto [p, ec] = std::from_chars(state.data(), end, pods.in);
  constexpr std::string_view kOf = " of ";
  if (ec != std::errc() || !std::string_view(p, static_cast<std::size_t>(end - p)).starts_with(kOf))
    return std::nullopt;
  if (std::from_chars(p + kOf.size(), end, pods.of).ec != std::errc()) return std::nullopt;
  return pods;
}
}  // namespace

std::string_view legendName(std::string_view lane, std::string_view state) {
  if (lane == "fleet") {
    if (state.ends_with(" half-open")) return "some half-open";
    if (state != "all open" && state.ends_with(" open")) return "some open";
  }
  if (lane == "pods") {
    // "k of N pods" between all and none: one entry, not one per count (8 pods made nine
    // entries and two lines of legend at 1024 px, issue #33).
    if (const auto pods = podsInRotation(state); pods && pods->in > 0 && pods->in < pods->of)
      return "some ejected";
  }
  return state;
}

QColor stateColor(std::string_view lane, std::string_view state) {
  // "pod": one pod's breaker in the fleet's expanded rows (FleetBreakers::lanes).
  if (lane == "breaker" || lane == "pod") {
    if (state == "closed") return palette::kGood;
    if (state == "open") return palette::kBad;
    if (state == "half-open") return palette::kProbing;
    if (state == kBreakerDisabled || state == kPodOutOfService) return palette::kIdle;
  }
  if (lane == "checkout") {
    if (state == "fresh") return palette::kGood;
    if (state == "cached") return palette::kCached;
    if (state == "slow") return palette::kWarn;
    if (state == "failed") return palette::kBad;
    if (state == "idle") return palette::kIdle;
  }
  if (lane == "health") return state == "green" ? palette::kGood : palette::kBad;
  if (lane == "fleet") {
    // FleetBreakers::shareLane: every pod closed, every one open, some open, some half-open.
    if (state == "closed") return palette::kGood;
    if (state == "all open") return palette::kBad;
    if (state.ends_with(" half-open")) return palette::kProbing;
    if (state.ends_with(" open")) return palette::kWarn;
  }
  if (lane == "pods") {
    // "k of N pods": all in rotation is good, none is bad, anything between a warning.
    if (const auto pods = podsInRotation(state); pods && pods->of > 0) {
      if (pods->in >= pods->of) return palette::kGood;
      if (pods->in == 0) return palette::kBad;
      // Amber with one pod out, most of the way to red with one left; never red itself, which
      // says none.
      const double ejected = static_cast<double>(pods->of - pods->in) / pods->of;
      return palette::blend(palette::kWarn, palette::kBad, 0.8 * ejected);
    }
  }
  // Dependency states are free text from the incident: read them like an engineer would.
  for (auto word : {"refused", "down", "error", "fail", "outage", "unavailable"})
    if (contains(state, word)) return palette::kBad;
  for (auto word : {"timing out", "timeout", "timed out", "hang", "stall"})
    if (contains(state, word)) return palette::kSevere;
  for (auto word : {"slow", "warm", "degraded", "partial", "latency"})
    if (contains(state, word)) return palette::kWarn;
  for (auto word : {"healthy", "ok", "up", "normal", "recovered"})
    if (contains(state, word)) return palette::kGood;
  static constexpr std::array<QRgb, 4> kOthers = {0x4aa3a3, 0xa3774a, 0x7a8a99, 0x6b8e9a};
  const auto hash = std::hash<std::string_view>{}(state);
  return QColor::fromRgb(kOthers[hash % kOthers.size()]);
}

}  // namespace breakerlab::views
