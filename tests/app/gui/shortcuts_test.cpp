// Every key of the workbench does one thing: a sequence bound twice in the window (by two
// actions, or twice by one) is ambiguous to Qt, which then triggers neither and only logs
// "Ambiguous shortcut overload". A user saw Ctrl+Shift+Z do nothing that way.
#include <gtest/gtest.h>

#include <QAction>
#include <QKeySequence>
#include <QMap>

#include "main_window.h"

namespace breakerlab::app {
namespace {

TEST(Shortcuts, NoKeySequenceIsBoundTwiceInTheWindow) {
  MainWindow window;
  window.setInteractive(false);
  QMap<QString, QStringList> owners;  // sequence -> the actions that take it
  for (const QAction* a : window.findChildren<QAction*>()) {
    if (a->shortcutContext() == Qt::WidgetShortcut) continue;  // only while its widget has focus
    for (const QKeySequence& k : a->shortcuts())
      owners[k.toString(QKeySequence::PortableText)] << a->objectName();
  }
  EXPECT_FALSE(owners.isEmpty());
  for (auto it = owners.cbegin(); it != owners.cend(); ++it)
    EXPECT_EQ(it.value().size(), 1)
        << it.key().toStdString() << " is bound by " << it.value().join(", ").toStdString();
}

TEST(Shortcuts, RedoTakesCtrlShiftZAndCtrlY) {
  MainWindow window;
  window.setInteractive(false);
  const auto* redo = window.findChild<QAction*>("redo");
  ASSERT_NE(redo, nullptr);
  EXPECT_TRUE(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
  EXPECT_TRUE(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Y)));
}

}  // namespace
}  // namespace breakerlab::app
