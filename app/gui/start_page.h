#pragma once
// What the window shows with no incident open: the bundled incidents and the recent files.
#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace breakerlab::app {

class StartPage : public QWidget {
  Q_OBJECT
 public:
  explicit StartPage(QWidget* parent = nullptr);
  void setRecentFiles(const QStringList& files);
  QListWidget* bundledList() const { return bundled_; }

 signals:
  void openRequested(const QString& path);
  void browseRequested();

 private:
  QListWidget* bundled_ = nullptr;
  QListWidget* recent_ = nullptr;
};

}  // namespace breakerlab::app
