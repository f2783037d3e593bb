// GoogleTest main for widget tests: a QApplication must exist before any widget, and test
// discovery runs the binary too, so the offscreen platform is chosen here when none is set.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFontDatabase>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true);  // settings go to a test location, not the user's
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("BreakerLabTests"));
  QApplication::setApplicationName(QStringLiteral("BreakerLabTests"));
  // ctest runs each test in its own process, two at a time: each process gets settings of its
  // own, so one test's clear() or saved layout never lands in another's.
  const QTemporaryDir settings_dir;
  for (auto format : {QSettings::NativeFormat, QSettings::IniFormat})
    QSettings::setPath(format, QSettings::UserScope, settings_dir.path());
  QSettings().clear();  // every run starts without remembered files or layout
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
