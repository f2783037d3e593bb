#include "workspace_model.h"
#include "breakerlab/views/qt_text.h"

#include <QBrush>
#include <QDateTime>
#include <QLocale>

#include "breakerlab/data/workspace.h"

namespace breakerlab::app {

namespace {

// The workspace keeps UTC; the tree shows the engineer's own clock.
QString localTime(const std::string& utc) {
  QDateTime t = QDateTime::fromString(qs(utc), Qt::ISODateWithMs);
  if (!t.isValid()) return qs(utc);
  return QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString goalsText(const RunSummary& run) {
  QStringList parts;
  if (run.goals_total > 0)
    parts << QObject::tr("%1 %2/%3 goals")
                 .arg(run.goals_met == run.goals_total ? QStringLiteral("✓") : QStringLiteral("✗"))
                 .arg(run.goals_met)
                 .arg(run.goals_total);
  if (run.calibration_passed)
    parts << (*run.calibration_passed ? QObject::tr("calibration ✓")
                                      : QObject::tr("calibration ✗"));
  return parts.join(QStringLiteral(" · "));
}

bool contains(const std::string& text, const QString& filter) {
  return qs(text).contains(filter, Qt::CaseInsensitive);
}

}  // namespace

WorkspaceModel::WorkspaceModel(QObject* parent) : QStandardItemModel(parent) {
  QStringList headers(kColumnCount);
  headers[kName] = tr("Name");
  headers[kFailedCheckouts] = tr("Failed");
  headers[kCachedWhileHealthy] = tr("Cached, healthy");
  headers[kGoals] = tr("Goals");
  headers[kConfig] = tr("Config");
  headers[kLibrary] = tr("Library");
  headers[kSeed] = tr("Seed");
  headers[kTime] = tr("Time");
  setHorizontalHeaderLabels(headers);
  setHeaderData(kFailedCheckouts, Qt::Horizontal, tr("Failed checkouts in the run."),
                Qt::ToolTipRole);
  setHeaderData(kCachedWhileHealthy, Qt::Horizontal,
                tr("Seconds the breaker served cached prices while the dependency was healthy."),
                Qt::ToolTipRole);
  setHeaderData(kGoals, Qt::Horizontal,
                tr("The incident's goals the run met, and whether calibration passed."),
                Qt::ToolTipRole);
}

QList<QStandardItem*> WorkspaceModel::makeRow(const WorkspaceItem& item,
                                              const QStringList& texts) const {
  QList<QStandardItem*> row;
  for (int c = 0; c < kColumnCount; ++c) {
    auto* cell = new QStandardItem(texts.value(c));
    cell->setEditable(false);
    cell->setData(static_cast<int>(item.kind), kKindRole);
    cell->setData(QVariant::fromValue<qlonglong>(item.id), kIdRole);
    cell->setData(QVariant::fromValue<qlonglong>(item.incident_id), kIncidentRole);
    if (c == kFailedCheckouts || c == kCachedWhileHealthy || c == kSeed)
      cell->setData(int(Qt::AlignRight | Qt::AlignVCenter), Qt::TextAlignmentRole);
    row << cell;
  }
  return row;
}

void WorkspaceModel::reload(const Workspace* workspace, const QString& filter) {
  removeRows(0, rowCount());
  if (workspace == nullptr) return;
  const QString text = filter.trimmed();
  using Kind = WorkspaceItem::Kind;
  for (const IncidentSummary& incident : workspace->incidents()) {
    const bool incident_matches =
        text.isEmpty() || contains(incident.name, text) || contains(incident.title, text);
    std::vector<StoredConfig> configs = workspace->configs(incident.id);
    if (!incident_matches)
      std::erase_if(configs, [&](const StoredConfig& c) {
        return !contains(c.name, text) && !contains(c.library, text);
      });
    RunFilter run_filter;
    run_filter.incident_id = incident.id;
    if (!incident_matches) run_filter.text = text.toStdString();
    const std::vector<RunSummary> runs = workspace->runs(run_filter);
    if (!incident_matches && configs.empty() && runs.empty()) continue;

    const QString title = incident.title.empty() ? qs(incident.name)
                                                 : QStringLiteral("%1 — %2").arg(
                                                       qs(incident.name), qs(incident.title));
    QList<QStandardItem*> incident_row =
        makeRow({Kind::incident, incident.id, incident.id}, {title});
    incident_row[0]->setToolTip(
        tr("%1, added %2 from a %3 document.")
            .arg(title, localTime(incident.added_at), qs(incident.source_kind)));

    QList<QStandardItem*> config_group = makeRow({Kind::config_group, 0, incident.id},
                                                 {tr("Named configs (%1)").arg(configs.size())});
    for (const StoredConfig& c : configs) {
      QStringList texts(kColumnCount);
      texts[kName] = texts[kConfig] = qs(c.name);
      texts[kLibrary] = qs(c.library);
      texts[kTime] = localTime(c.saved_at);
      QList<QStandardItem*> row = makeRow({Kind::config, c.id, incident.id}, texts);
      row[0]->setToolTip(tr("Double-click or press Enter to apply this config to A."));
      config_group[0]->appendRow(row);
    }
    incident_row[0]->appendRow(config_group);

    QList<QStandardItem*> run_group =
        makeRow({Kind::run_group, 0, incident.id}, {tr("Runs (%1)").arg(runs.size())});
    for (const RunSummary& r : runs) {
      const QString name = r.name.empty() ? tr("Run %1").arg(r.id) : qs(r.name);
      QStringList texts(kColumnCount);
      texts[kName] = name;
      texts[kConfig] = r.config_name.empty() ? tr("unnamed") : qs(r.config_name);
      texts[kLibrary] = qs(r.library);
      texts[kSeed] = QString::number(r.seed);
      texts[kTime] = localTime(r.created_at);
      if (r.failed_checkouts)
        texts[kFailedCheckouts] = QLocale().toString(*r.failed_checkouts, 'f', 0);
      if (r.cached_while_healthy_s)
        texts[kCachedWhileHealthy] =
            tr("%1 s").arg(QLocale().toString(*r.cached_while_healthy_s, 'f', 1));
      texts[kGoals] = goalsText(r);
      QList<QStandardItem*> row = makeRow({Kind::run, r.id, incident.id}, texts);
      const bool failed = (r.goals_total > 0 && r.goals_met < r.goals_total) ||
                          (r.calibration_passed && !*r.calibration_passed);
      if (r.goals_total > 0 || r.calibration_passed)
        row[kGoals]->setForeground(failed ? QBrush(QColor(0xb0, 0x30, 0x30))
                                          : QBrush(QColor(0x2e, 0x7d, 0x32)));
      row[0]->setToolTip(r.has_note ? tr("This run has a note. Double-click or press Enter to "
                                         "replay it exactly as it was saved.")
                                    : tr("Double-click or press Enter to replay this run exactly "
                                         "as it was saved."));
      run_group[0]->appendRow(row);
    }
    incident_row[0]->appendRow(run_group);
    appendRow(incident_row);
  }
}

WorkspaceItem WorkspaceModel::itemAt(const QModelIndex& index) const {
  if (!index.isValid()) return {};
  const QModelIndex first = index.sibling(index.row(), 0);
  return {static_cast<WorkspaceItem::Kind>(first.data(kKindRole).toInt()),
          first.data(kIdRole).toLongLong(), first.data(kIncidentRole).toLongLong()};
}

QModelIndex WorkspaceModel::indexOf(const WorkspaceItem& item) const {
  const QModelIndexList found = match(index(0, 0), kIdRole, QVariant::fromValue<qlonglong>(item.id),
                                      -1, Qt::MatchExactly | Qt::MatchRecursive);
  for (const QModelIndex& i : found)
    if (itemAt(i) == item) return i;
  return {};
}

}  // namespace breakerlab::app
