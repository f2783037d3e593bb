#include "start_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "bundled_incidents.h"

namespace breakerlab::app {

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
  auto* title =
      new QLabel(tr("<h2>BreakerLab</h2><p>Replay an incident, tune the breaker, "
                    "timeout and cache, and export the config you will deploy.</p>"));
  title->setWordWrap(true);
  auto* open = new QPushButton(tr("Open incident…"));
  open->setToolTip(tr("Ctrl+O; or drop an incident file on the window"));
  connect(open, &QPushButton::clicked, this, &StartPage::browseRequested);

  bundled_ = new QListWidget;
  bundled_->setWordWrap(true);
  bundled_->setSpacing(2);
  for (const BundledIncident& b : bundledIncidents()) {
    auto* item = new QListWidgetItem(QStringLiteral("%1 — %2\n%3").arg(b.id, b.title, b.summary));
    item->setData(Qt::UserRole, b.path);
    item->setToolTip(b.path);
    bundled_->addItem(item);
  }
  recent_ = new QListWidget;
  workspaces_ = new QListWidget;
  workspaces_->setObjectName(QStringLiteral("recent-workspaces"));
  connect(workspaces_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    emit openWorkspaceRequested(item->data(Qt::UserRole).toString());
  });
  for (QListWidget* list : {bundled_, recent_}) {
    connect(list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
      emit openRequested(item->data(Qt::UserRole).toString());
    });
  }

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(32, 24, 32, 24);
  layout->addWidget(title);
  layout->addWidget(open, 0, Qt::AlignLeft);
  layout->addSpacing(12);
  layout->addWidget(new QLabel(tr("<b>Bundled incidents</b> (double-click or Enter to open)")));
  layout->addWidget(bundled_, 2);
  layout->addWidget(new QLabel(tr("<b>Recent files</b>")));
  layout->addWidget(recent_, 1);
  auto* workspaces_title =
      new QLabel(tr("<b>Recent workspaces</b> (configs, runs and notes "
                    "kept together; File ▸ New Workspace… makes one)"));
  workspaces_title->setWordWrap(true);  // a sentence must not hold the window wide
  layout->addWidget(workspaces_title);
  layout->addWidget(workspaces_, 1);
}

void StartPage::setRecentFiles(const QStringList& files) {
  recent_->clear();
  for (const QString& path : files) {
    auto* item = new QListWidgetItem(QFileInfo(path).fileName() + QStringLiteral("   ") + path);
    item->setData(Qt::UserRole, path);
    recent_->addItem(item);
  }
}

void StartPage::setRecentWorkspaces(const QStringList& files) {
  workspaces_->clear();
  for (const QString& path : files) {
    auto* item = new QListWidgetItem(QFileInfo(path).fileName() + QStringLiteral("   ") + path);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
    workspaces_->addItem(item);
  }
}

}  // namespace breakerlab::app
