#pragma once
// The workspace as a tree: each incident, under it its named configs and its runs (newest
// first), narrowed by a filter on the runs' and configs' names, libraries and the incident's
// name and title.
#include <QStandardItemModel>
#include <cstdint>

namespace breakerlab {
class Workspace;
}

namespace breakerlab::app {

// What a row of the tree stands for.
struct WorkspaceItem {
  enum class Kind { none, incident, config_group, config, run_group, run };
  Kind kind = Kind::none;
  std::int64_t id = 0;           // of the incident, config or run (0 for a group)
  std::int64_t incident_id = 0;  // the incident it belongs to (its own id for an incident)
  bool operator==(const WorkspaceItem&) const = default;
};

class WorkspaceModel : public QStandardItemModel {
  Q_OBJECT
 public:
  // What tells runs apart first (failed checkouts, cached while healthy, goals), so that they
  // are in view in a dock as narrow as the knobs.
  enum Column {
    kName,
    kFailedCheckouts,
    kCachedWhileHealthy,
    kGoals,
    kConfig,
    kLibrary,
    kSeed,
    kTime,
    kColumnCount
  };
  explicit WorkspaceModel(QObject* parent = nullptr);

  // Reads the tree from `workspace` (null: empty) with only what `filter` matches.
  void reload(const Workspace* workspace, const QString& filter = {});

  WorkspaceItem itemAt(const QModelIndex& index) const;
  // The row of `item` in column 0, or an invalid index.
  QModelIndex indexOf(const WorkspaceItem& item) const;
  int incidentCount() const { return rowCount(); }

 private:
  static constexpr int kKindRole = Qt::UserRole + 1;
  static constexpr int kIdRole = Qt::UserRole + 2;
  static constexpr int kIncidentRole = Qt::UserRole + 3;
  QList<QStandardItem*> makeRow(const WorkspaceItem& item, const QStringList& texts) const;
};

}  // namespace breakerlab::app
