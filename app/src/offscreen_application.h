#pragma once
// The QApplication a CLI command needs to draw with Qt's widgets (the report's lanes, a sweep's
// map): on the offscreen platform unless QT_QPA_PLATFORM says otherwise, with Qt's notes about a
// headless run (no runtime folder, window-manager hints) kept off stderr, which is for the
// command's own errors. Null when an application exists already.
#include <QApplication>
#include <memory>

namespace breakerlab::cli {

std::unique_ptr<QApplication> offscreenApplication();

}  // namespace breakerlab::cli
