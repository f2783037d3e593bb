#pragma once
// Waits until the window has answered: B's replay (a worker) and the whole answer of A.
#include <QCoreApplication>
#include <QElapsedTimer>

#include "main_window.h"

namespace breakerlab::app {

inline void settleWindow(MainWindow& window) {
  QElapsedTimer waited;
  waited.start();
  while ((window.comparison().busy() || window.session().busy()) && waited.elapsed() < 60'000)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  QCoreApplication::processEvents();
}

}  // namespace breakerlab::app
