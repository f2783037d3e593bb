#include "breakerlab/views/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QObject>
#include <QWheelEvent>

namespace breakerlab::views {

namespace {

QAbstractScrollArea* enclosingScrollArea(QWidget* widget) {
  for (QWidget* w = widget->parentWidget(); w != nullptr; w = w->parentWidget())
    if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) return area;
  return nullptr;
}

class WheelGuard : public QObject {
 public:
  using QObject::QObject;
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::Wheel) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (widget == nullptr || widget->hasFocus()) return false;
    // Handed to the panel's scroll area directly: Qt does not pass synthesized wheel events on
    // to parents, and a real one would reach the area only if nothing in between took it.
    if (QAbstractScrollArea* area = enclosingScrollArea(widget)) {
      const auto* wheel = static_cast<QWheelEvent*>(event);
      const QPointF at = area->viewport()->mapFromGlobal(wheel->globalPosition());
      QWheelEvent forwarded(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                            wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
                            wheel->source());
      QCoreApplication::sendEvent(area->viewport(), &forwarded);
    }
    event->accept();
    return true;
  }
};

}  // namespace

void takeWheelOnlyWithFocus(QWidget* value_widget) {
  value_widget->setFocusPolicy(Qt::StrongFocus);  // not the wheel's focus (Qt::WheelFocus)
  value_widget->installEventFilter(new WheelGuard(value_widget));
}

}  // namespace breakerlab::views
