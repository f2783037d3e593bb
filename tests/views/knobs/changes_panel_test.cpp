// The timed-changes panel names each change's keys from the one table of timed keys
// (timedKeys()), the dependency's among them, and edits them as it edits any: a change left out
// or moved.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTableWidget>

#include "breakerlab/views/changes_panel.h"
#include "breakerlab/views/qt_text.h"

namespace breakerlab::views {
namespace {

TEST(ChangesPanel, ShowsEveryTimedKeyByItsNameAndLeavesOutOrMovesAChangeOfAnyKey) {
  Incident incident;
  incident.end = 120 * kSecond;
  // One unlabelled change per key of the table, each at its own second.
  std::vector<TimedChange> changes;
  for (const TimedKeyInfo& k : timedKeys())
    changes.push_back(
        {static_cast<Micros>(changes.size() + 1) * kSecond, {{k.key, 1}}, "", true, 0});
  ChangesPanel panel;
  panel.setChanges(incident, changes);
  auto* table = panel.findChild<QTableWidget*>(QStringLiteral("changes"));
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rowCount(), static_cast<int>(timedKeys().size()));
  for (int row = 0; row < table->rowCount(); ++row) {
    const auto* box = qobject_cast<QCheckBox*>(table->cellWidget(row, 0));
    ASSERT_NE(box, nullptr);
    const QString name = qs(timedKeys()[static_cast<std::size_t>(row)].name);
    EXPECT_EQ(box->text(), name);
    EXPECT_TRUE(box->toolTip().contains(name)) << box->toolTip().toStdString();
  }

  // The dependency's keys: a capacity cut from 60 s to 90 s, labelled.
  const std::vector<TimedChange> cut{
      {60 * kSecond, {{TimedKey::dependency_capacity_scale, 0.5}}, "capacity cut", true, 0},
      {90 * kSecond,
       {{TimedKey::dependency_capacity_scale, 1}, {TimedKey::dependency_latency_scale, 1}},
       "",
       true,
       0}};
  panel.setChanges(incident, cut);
  ASSERT_EQ(table->rowCount(), 2);
  const auto* labelled = qobject_cast<QCheckBox*>(table->cellWidget(0, 0));
  EXPECT_EQ(labelled->text(), QStringLiteral("capacity cut"));
  EXPECT_EQ(labelled->toolTip(), QStringLiteral("Sets dependency.capacity.scale"));
  EXPECT_EQ(qobject_cast<QCheckBox*>(table->cellWidget(1, 0))->text(),
            QStringLiteral("dependency.capacity.scale, dependency.latency.scale"));

  QSignalSpy edited(&panel, &ChangesPanel::changesEdited);
  qobject_cast<QCheckBox*>(table->cellWidget(0, 0))->setChecked(false);
  ASSERT_EQ(edited.count(), 1);
  EXPECT_FALSE(panel.changes()[0].enabled);
  qobject_cast<QDoubleSpinBox*>(table->cellWidget(1, 1))->setValue(100);
  ASSERT_EQ(edited.count(), 2);
  EXPECT_EQ(panel.changes()[1].at, 100 * kSecond);
  EXPECT_EQ(panel.changes()[1].edits, cut[1].edits);  // moved, with what it sets
}

}  // namespace
}  // namespace breakerlab::views
