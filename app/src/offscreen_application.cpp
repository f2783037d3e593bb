#include "offscreen_application.h"

namespace breakerlab::cli {

namespace {

QtMessageHandler qt_messages = nullptr;

void quietOffscreenNotes(QtMsgType type, const QMessageLogContext& context, const QString& text) {
  if (type == QtDebugMsg || type == QtInfoMsg ||
      text.contains(QLatin1String("propagateSizeHints")) ||
      text.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
    return;
  if (qt_messages != nullptr) qt_messages(type, context, text);
}

}  // namespace

std::unique_ptr<QApplication> offscreenApplication() {
  if (QCoreApplication::instance() != nullptr) return nullptr;
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  qt_messages = qInstallMessageHandler(quietOffscreenNotes);
  static int argc = 1;
  static char name[] = "breakerlab-cli";
  static char* argv[] = {name, nullptr};
  return std::make_unique<QApplication>(argc, argv);
}

}  // namespace breakerlab::cli
