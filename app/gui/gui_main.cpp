// breakerlab: the workbench GUI.
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPalette>
#include <QPixmap>
#include <QStyleFactory>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "breakerlab/data/output_file.h"
#include "breakerlab/data/workspace.h"
#include "breakerlab/views/lanes_view.h"
#include "bundled_incidents.h"
#include "main_window.h"
#include "replay_session.h"
#include "sensitivity_panel.h"
#include "tune_panel.h"
#include "workspace_controller.h"

namespace {
// Whether the command line asks only for the help or the version: answered without a display.
bool asksHelpOrVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "-?" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
        arg == "--version")
      return true;
  }
  return false;
}

// Whether QApplication could start: a display, or a platform chosen (offscreen).
bool hasDisplay() {
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return true;
  return false;
}
// --grab's picture, in the format its suffix names (PNG without one), written as every output
// is: a regular file atomically, a device, FIFO or - through. The exit code: 0, or 1 with the
// reason on stderr.
int saveGrab(const QPixmap& picture, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  const QByteArray format = suffix.isEmpty() || path == "-" ? QByteArray("PNG") : suffix.toLatin1();
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!picture.save(&buffer, format.constData())) {
    std::fprintf(stderr, "breakerlab: %s: cannot write a picture of type '%s'\n",
                 path.toLocal8Bit().constData(), format.constData());
    return 1;
  }
  try {
    breakerlab::writeOutputFile(path.toStdString(),
                                std::string_view(bytes.constData(), bytes.size()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "breakerlab: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication::setOrganizationName(QStringLiteral("BreakerLab"));
  QCoreApplication::setApplicationName(QStringLiteral("BreakerLab"));
  QCoreApplication::setApplicationVersion(QStringLiteral(BREAKERLAB_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Replay an incident and tune its breaker, timeout and cache."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("incident"),
                               QStringLiteral("An incident file to open, or a bundled "
                                              "incident's name (optional)."));
  QCommandLineOption grab(QStringLiteral("grab"),
                          QStringLiteral("Render the window to a PNG file and quit."),
                          QStringLiteral("png"));
  QCommandLineOption what_if(QStringLiteral("whatif"),
                             QStringLiteral("Start with the incident's named what-if applied."),
                             QStringLiteral("name"));
  QCommandLineOption dark(
      QStringLiteral("dark"),
      QStringLiteral("Use a dark palette (Fusion style) whatever the desktop."));
  QCommandLineOption policy(QStringLiteral("policy"),
                            QStringLiteral("Start with the breaker of a library's own config file "
                                           "(application.yml, a Go file, appsettings.json, ...)."),
                            QStringLiteral("file"));
  QCommandLineOption size(QStringLiteral("size"),
                          QStringLiteral("The window's size, as WIDTHxHEIGHT."),
                          QStringLiteral("size"));
  QCommandLineOption range(QStringLiteral("range"),
                           QStringLiteral("Show FROM:TO (seconds from the incident's start)."),
                           QStringLiteral("from:to"));
  QCommandLineOption compare(QStringLiteral("compare"),
                             QStringLiteral("Compare with the incident's named what-if as B."),
                             QStringLiteral("name"));
  QCommandLineOption workspace(
      QStringLiteral("workspace"),
      QStringLiteral("Open a workspace (*.breakerlab; created when missing) and show its panel."),
      QStringLiteral("file"));
  QCommandLineOption sensitivity(
      QStringLiteral("sensitivity"),
      QStringLiteral("Open the Sensitivity dock and compute the map of KNOB[,KNOB2] (config keys; "
                     "'-': the dock's default knobs)."),
      QStringLiteral("knobs"));
  QCommandLineOption sensitivity_points(
      QStringLiteral("sensitivity-points"),
      QStringLiteral("With --sensitivity: values per knob (2 to 50; default 25)."),
      QStringLiteral("n"));
  QCommandLineOption tune(
      QStringLiteral("tune"),
      QStringLiteral("Open the Tune dock and search with its default knobs, goals and budget, in "
                     "LIBRARY's breaker (a library's key, 'generic', or '-': the config's own)."),
      QStringLiteral("library"));
  QCommandLineOption pods(QStringLiteral("pods"),
                          QStringLiteral("Show the breakers by pod expanded (a breaker per pod)."));
  parser.addOption(pods);
  parser.addOption(tune);
  parser.addOption(sensitivity);
  parser.addOption(sensitivity_points);
  parser.addOption(workspace);
  parser.addOption(range);
  parser.addOption(compare);
  parser.addOption(grab);
  parser.addOption(what_if);
  parser.addOption(policy);
  parser.addOption(size);
  parser.addOption(dark);
  if (asksHelpOrVersion(argc, argv) && !hasDisplay()) {
    // On a machine without a display (a server, CI), QApplication would abort before printing.
    // With one, QApplication answers: it knows its own options (-platform, -style).
    QCoreApplication text_only(argc, argv);
    parser.process(text_only);  // prints and exits
  }
  QApplication app(argc, argv);
  QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("breakerlab")));
  parser.process(app);
  if (parser.isSet(dark)) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    p.setColor(QPalette::WindowText, QColor(0xe4, 0xe6, 0xea));
    p.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    p.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2d, 0x31));
    p.setColor(QPalette::Text, QColor(0xe4, 0xe6, 0xea));
    p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3d));
    p.setColor(QPalette::ButtonText, QColor(0xe4, 0xe6, 0xea));
    p.setColor(QPalette::Highlight, QColor(0x3b, 0x7d, 0xd8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x38, 0x3d));
    p.setColor(QPalette::ToolTipText, QColor(0xe4, 0xe6, 0xea));
    // Examples in empty fields stay grey, never as bright as what the user typed.
    p.setColor(QPalette::PlaceholderText, QColor(0x80, 0x84, 0x8a));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x84, 0x8a));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x84, 0x8a));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x84, 0x8a));
    QApplication::setPalette(p);
  }

  const bool grabbing = parser.isSet(grab);
  using LastWorkspace = breakerlab::app::MainWindow::LastWorkspace;
  breakerlab::app::MainWindow window(nullptr,
                                     grabbing ? LastWorkspace::leave : LastWorkspace::reopen);
  if (grabbing) {
    // No one to click a message box away: errors go to stderr.
    window.setInteractive(false);
    window.setErrorReporter([](const QString& title, const QString& text) {
      qWarning("%s: %s", qPrintable(title), qPrintable(text));
    });
  }
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
  }
  window.show();
  QStringList files = parser.positionalArguments();
  // A workspace given as the file (the desktop's "open with" of a *.breakerlab) opens as one.
  QString workspace_file = parser.value(workspace);
  if (!files.isEmpty() && files.front().endsWith(QString::fromLatin1(
                              breakerlab::kWorkspaceSuffix.data(),
                              static_cast<qsizetype>(breakerlab::kWorkspaceSuffix.size()))))
    workspace_file = files.takeFirst();
  const bool workspace_opened =
      !workspace_file.isEmpty() && window.workspace().open(workspace_file);
  if (workspace_opened)
    // In front of the knobs once the window has its layout (the incident opened below).
    QTimer::singleShot(0, &window, [&window] { window.workspaceDock()->raise(); });
  // A workspace refused (a FIFO, a damaged file): the screenshot would show none. The reason is
  // on stderr.
  if (grabbing && !workspace_file.isEmpty() && !workspace_opened) return 2;
  const bool opened =
      !files.isEmpty() && window.openIncident(breakerlab::app::incidentArgumentPath(files.front()));
  if (grabbing && !files.isEmpty() && !opened) return 2;  // the reason is on stderr
  // A workspace alone opens onto the incident it was last used on, as from the start page.
  if (workspace_opened && files.isEmpty()) window.workspace().openLastIncident();
  // An option that cannot be followed: the window shows the rest, but a screenshot would
  // silently show something else than asked for.
  bool option_refused = false;
  if (opened && parser.isSet(policy)) window.importConfigFrom(parser.value(policy));
  if (opened && parser.isSet(what_if)) {
    const auto* w = window.session().incident().whatIf(parser.value(what_if).toStdString());
    if (w == nullptr) {
      qWarning("no what-if named '%s' in this incident", qPrintable(parser.value(what_if)));
      option_refused = true;
    } else {
      const auto actions = window.findChildren<QAction*>();
      for (QAction* a : actions)
        if (a->text() == parser.value(what_if)) a->trigger();
    }
  }
  if (opened && parser.isSet(compare)) {
    bool found = false;
    for (const auto& choice : window.comparisonChoices())
      if (choice.name == QStringLiteral("what-if ") + parser.value(compare)) {
        window.compareWith(choice);
        found = true;
      }
    if (!found) {
      qWarning("no what-if named '%s' to compare with", qPrintable(parser.value(compare)));
      option_refused = true;
    }
  }
  if (opened && parser.isSet(pods)) window.lanes()->setPodsExpanded(true);
  if (opened && parser.isSet(range)) {
    const QStringList ft = parser.value(range).split(':');
    bool ok_from = false, ok_to = false;
    const double from = ft.value(0).toDouble(&ok_from), to = ft.value(1).toDouble(&ok_to);
    if (ft.size() == 2 && ok_from && ok_to && from < to)
      window.lanes()->showRange(from, to);
    else {
      qWarning("--range takes FROM:TO in seconds, FROM < TO");
      option_refused = true;
    }
  }
  if (opened && parser.isSet(sensitivity)) {
    window.showSensitivity();
    breakerlab::app::SensitivityPanel* panel = window.sensitivityPanel();
    const QStringList knobs = parser.value(sensitivity).split(',');
    if (parser.value(sensitivity) != QStringLiteral("-") &&
        !panel->chooseKnobs(knobs.value(0), knobs.value(1))) {
      qWarning("--sensitivity: '%s' is not one or two knobs the config shows",
               qPrintable(parser.value(sensitivity)));
      option_refused = true;
    }
    if (parser.isSet(sensitivity_points))
      panel->setPoints(parser.value(sensitivity_points).toInt());
    // Once the window has its layout, so the map is drawn at its size.
    QTimer::singleShot(0, panel, [panel] { panel->compute(); });
  }
  if (opened && parser.isSet(tune)) {
    window.showTune();
    breakerlab::app::TunePanel* panel = window.tunePanel();
    const std::string name = parser.value(tune).toStdString();
    const auto library = name == "generic" ? std::optional(breakerlab::BreakerLibrary::breakerlab)
                                           : breakerlab::breakerLibraryFromString(name);
    if (name != "-" && !(library && panel->chooseLibrary(*library))) {
      qWarning("--tune: '%s' is not a breaker library (generic, resilience4j, gobreaker, ...)",
               qPrintable(parser.value(tune)));
      option_refused = true;
    }
    QTimer::singleShot(0, panel, [panel] { panel->start(); });
  }
  if (grabbing && option_refused) return 2;  // the reason is on stderr
  if (grabbing) {
    // After the whole answer (and B's replay, and a map), not a progressive one.
    QTimer::singleShot(400, &window, [&] {
      QElapsedTimer waited;
      waited.start();
      while ((window.session().busy() || window.comparison().busy() ||
              window.sensitivityPanel()->busy() || window.tunePanel()->busy()) &&
             waited.elapsed() < 600'000)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
      QApplication::processEvents();
      window.lanes()->replotNow();
      QApplication::exit(saveGrab(window.grab(), parser.value(grab)));
    });
  }
  return QApplication::exec();
}
