#pragma once
// What the window shows with no incident open: the bundled incidents, the recent files
// and the recent workspaces.
#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace breakerlab::app {

class StartPage : public QWidget {
  Q_OBJECT
 public:
  explicit StartPage(QWidget* parent = nullptr);
  void setRecentFiles(const QStringList& files);
  void setRecentWorkspaces(const QStringList& files);
  QListWidget* bundledList() const { return bundled_; }
  QListWidget* recentWorkspaceList() const { return workspaces_; }

 signals:
  void openRequested(const QString& path);
  void browseRequested();
  void openWorkspaceRequested(const QString& path);

 private:
  QListWidget* bundled_ = nullptr;
  QListWidget* recent_ = nullptr;
  QListWidget* workspaces_ = nullptr;
};

}  // namespace breakerlab::app
