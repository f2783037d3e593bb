#pragma once
// The incident's timed changes (what the operators did), one row each: a check box to make it
// or not ("what if this change had not been made") and its time, to move it ("what if it had
// come 20 minutes earlier"). Hidden for an incident without changes.
#include <QWidget>
#include <vector>

#include "breakerlab/core/inputs/incident.h"

class QTableWidget;

namespace breakerlab::views {

class ChangesPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChangesPanel(QWidget* parent = nullptr);

  // Shows `changes` of `incident` without reporting an edit (load, undo).
  void setChanges(const Incident& incident, const std::vector<TimedChange>& changes);
  const std::vector<TimedChange>& changes() const { return changes_; }

  // The text of a time on the incident's clock: "10:26:00" with a clock, else "86.0 s".
  static QString timeText(const Incident& incident, Micros t);

 signals:
  void changesEdited(const std::vector<TimedChange>& before, const std::vector<TimedChange>& after);

 private:
  void edit(std::size_t row, bool enabled, Micros at);

  QTableWidget* table_;
  std::vector<TimedChange> changes_;
  const Incident* incident_ = nullptr;  // the session's, alive while it is shown
  Micros from_ = 0, to_ = 0;
  bool updating_ = false;
};

}  // namespace breakerlab::views
