#pragma once
// What a widget shows on screen, against what it would paint now. The offscreen platform's
// screen grab reads the window's backing store: the pixels last painted, so a widget that
// missed a repaint shows there what it showed before, while QWidget::grab() paints it anew.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QScreen>
#include <QWidget>

namespace breakerlab::test {

// Runs the event loop for `ms`: posted updates, timers and the paints they cause.
inline void processEventsFor(int ms) {
  QElapsedTimer waited;
  waited.start();
  do QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  while (waited.elapsed() < ms);
}

inline QImage shownOnScreen(const QWidget* widget) {
  const QWidget* window = widget->window();
  const QImage whole = window->screen()->grabWindow(window->winId()).toImage();
  const qreal ratio = whole.devicePixelRatio();
  const QRect place(widget->mapTo(window, QPoint(0, 0)) * ratio, widget->size() * ratio);
  return whole.copy(place).convertToFormat(QImage::Format_RGB32);
}

inline QImage paintedNow(QWidget* widget) {
  return widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
}

}  // namespace breakerlab::test
