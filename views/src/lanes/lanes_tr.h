#pragma once
// The lanes' words, translated in the lanes view's context, for the files that compute them
// apart from the widget (annotations, brackets).
#include <QCoreApplication>
#include <QString>

namespace breakerlab::views {

inline QString lanesTr(const char* text) {
  return QCoreApplication::translate("breakerlab::views::LanesView", text);
}

}  // namespace breakerlab::views
