#pragma once
// The one conversion of the model's UTF-8 text (std::string, std::string_view) to Qt's.
#include <QString>
#include <string_view>

namespace breakerlab {

inline QString qs(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace breakerlab

namespace breakerlab::views {

// "1 knob" or "3 knobs": the plural by hand, because no translation file is loaded and tr()'s %n
// alone shows "knob(s)". `one` is the text for 1; `many` holds %1 for the count.
inline QString countText(long long count, const QString& one, const QString& many) {
  return count == 1 ? one : many.arg(count);
}

}  // namespace breakerlab::views
