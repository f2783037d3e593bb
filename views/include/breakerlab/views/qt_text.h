#pragma once
// The one conversion of the model's UTF-8 text (std::string, std::string_view) to Qt's.
#include <QString>
#include <string_view>

namespace breakerlab {

inline QString qs(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace breakerlab
