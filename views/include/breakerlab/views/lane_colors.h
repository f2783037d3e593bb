#pragma once
// The colour of a lane state. One place, so the lanes, the legend, the chart and the tests agree.
// A colour means one thing on every lane: green working, red failing, amber degraded, blue
// served from the cache, violet probing (half-open), grey idle or off.
#include <QColor>
#include <string_view>

namespace breakerlab::views {

// `lane` is "breaker", "dependency", "health", "checkout" or "pods" ("k of N pods": all in
// rotation good, none bad, and between them amber turning to red as more are ejected, so that
// "7 of 8" and "1 of 8" differ); unknown states get a stable colour derived from their name.
QColor stateColor(std::string_view lane, std::string_view state);

// The name the legend gives a state: the state itself, but for the states of one colour that
// differ only by a count ("fleet": "3 of 40 open" and "7 of 40 open" are both "some open"), so
// that a fleet of 1,000 pods has four legend entries, not two thousand; "pods": "7 of 8 pods"
// and "1 of 8 pods" are both "some ejected".
std::string_view legendName(std::string_view lane, std::string_view state);

namespace palette {
inline const QColor kGood{0x2e, 0x9d, 0x4f};     // closed, healthy, fresh
inline const QColor kBad{0xd6, 0x45, 0x41};      // open, refused, failed
inline const QColor kWarn{0xf0, 0xa0, 0x20};     // degraded: timing out, slow, pods ejected
inline const QColor kProbing{0x8e, 0x6b, 0xbf};  // half-open: trying the dependency again
inline const QColor kCached{0x3b, 0x7d, 0xd8};   // served from cache
inline const QColor kIdle{0xb8, 0xbc, 0xc4};     // no traffic
// Between degraded and failing: a dependency timing out (worse than one slowing down, so that
// "slowing" then "timing out" are two colours, issue #33).
inline const QColor kSevere{0xe3, 0x72, 0x30};
// The colour `share` (0..1) of the way from `from` to `to`.
QColor blend(const QColor& from, const QColor& to, double share);
// How far apart two colours look: the distance of their CIELAB coordinates (CIE76, D65). About
// 2.3 is the smallest difference anyone notices; lines told apart at a glance need 40 or more.
double perceivedDistance(const QColor& a, const QColor& b);
}  // namespace palette

}  // namespace breakerlab::views
