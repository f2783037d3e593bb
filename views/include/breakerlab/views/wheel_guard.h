#pragma once
// A value widget (slider, spin box, combo box) inside a scrolling panel takes the mouse wheel only
// once it has focus (clicked or tabbed to): scrolling the panel over it otherwise changed a knob
// without the user noticing (cache TTL 60 -> 51 s). The enclosing scroll area, if there is one,
// scrolls instead. Qt's own StrongFocus policy does not stop it: spin boxes, sliders and combo
// boxes take the wheel whether or not they have focus.
#include <QWidget>

namespace breakerlab::views {

void takeWheelOnlyWithFocus(QWidget* value_widget);

}  // namespace breakerlab::views
