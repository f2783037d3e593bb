#include "breakerlab/views/changes_panel.h"
#include "breakerlab/views/qt_text.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "breakerlab/views/wheel_guard.h"

namespace breakerlab::views {

ChangesPanel::ChangesPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* title = new QLabel(tr("<b>Operator changes</b>"));
  title->setToolTip(
      tr("What the operators changed during the incident, replayed at its time. Untick one to "
         "replay as if it had not been made; change its time to move it."));
  layout->addWidget(title);
  table_ = new QTableWidget(0, 3, this);
  table_->setObjectName(QStringLiteral("changes"));
  table_->setHorizontalHeaderLabels({tr("Change"), tr("At (s)"), tr("Clock")});
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
  table_->verticalHeader()->hide();
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  layout->addWidget(table_);
  setVisible(false);
}

QString ChangesPanel::timeText(const Incident& incident, Micros t) {
  if (!incident.clock_start)
    return QStringLiteral("%1 s").arg(toSeconds(t), 0, 'f', t % kSecond == 0 ? 0 : 3);
  const QDateTime at = QDateTime::fromMSecsSinceEpoch((*incident.clock_start + t) / 1000, Qt::UTC);
  return at.toString(QStringLiteral("HH:mm:ss"));
}

void ChangesPanel::setChanges(const Incident& incident, const std::vector<TimedChange>& changes) {
  updating_ = true;
  changes_ = changes;
  from_ = incident.start;
  to_ = incident.end;
  table_->setRowCount(static_cast<int>(changes_.size()));
  for (std::size_t row = 0; row < changes_.size(); ++row) {
    const TimedChange& c = changes_[row];
    QString what = QString::fromStdString(c.label);
    QString keys;
    for (const ConfigEdit& e : c.edits) {
      if (!keys.isEmpty()) keys += QStringLiteral(", ");
      keys += qs(timedKeyInfo(e.key).name);
    }
    if (what.isEmpty()) what = keys;
    auto* box = new QCheckBox(what);
    box->setChecked(c.enabled);
    box->setToolTip(tr("Sets %1").arg(keys));
    connect(box, &QCheckBox::toggled, this,
            [this, row](bool on) { edit(row, on, changes_[row].at); });
    table_->setCellWidget(static_cast<int>(row), 0, box);
    auto* at = new QDoubleSpinBox;
    at->setDecimals(1);
    at->setRange(toSeconds(from_), toSeconds(to_));
    at->setSingleStep(60);
    at->setKeyboardTracking(false);
    takeWheelOnlyWithFocus(at);
    at->setValue(toSeconds(c.at));
    at->setToolTip(tr("When the change is made, in seconds of the incident (arrows: a minute)"));
    connect(at, &QDoubleSpinBox::valueChanged, this, [this, row](double seconds) {
      edit(row, changes_[row].enabled, std::clamp(fromSeconds(seconds), from_, to_));
    });
    table_->setCellWidget(static_cast<int>(row), 1, at);
    auto* clock = new QTableWidgetItem(timeText(incident, c.at));
    clock->setFlags(Qt::ItemIsEnabled);
    table_->setItem(static_cast<int>(row), 2, clock);
  }
  incident_ = &incident;
  table_->setFixedHeight(std::min<int>(6, static_cast<int>(changes_.size())) * 30 + 30);
  setVisible(!changes_.empty());
  updating_ = false;
}

void ChangesPanel::edit(std::size_t row, bool enabled, Micros at) {
  if (updating_ || row >= changes_.size()) return;
  const std::vector<TimedChange> before = changes_;
  changes_[row].enabled = enabled;
  changes_[row].at = at;
  if (changes_ == before) return;
  if (incident_ != nullptr)
    table_->item(static_cast<int>(row), 2)->setText(timeText(*incident_, at));
  emit changesEdited(before, changes_);
}

}  // namespace breakerlab::views
