#pragma once
// Text of the model that people read (a scenario key's label, its meaning), marked so that Qt's
// lupdate finds it although core has no Qt: run lupdate with
// `-tr-function-alias QT_TRANSLATE_NOOP+=BREAKERLAB_TR_NOOP`. Here the macro is the text itself;
// the views show it through QCoreApplication::translate(context, text) with the same context.
#define BREAKERLAB_TR_NOOP(context, text) text

namespace breakerlab {
// The contexts the views translate the model's text in.
inline constexpr const char* kScenarioTrContext = "breakerlab::Scenario";
}  // namespace breakerlab
