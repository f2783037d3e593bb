#pragma once
// A timed change toggled or moved, on the undo stack. Steps of the same change's time (spin
// box arrows) merge into one entry.
#include <QUndoCommand>
#include <functional>
#include <optional>
#include <vector>

#include "breakerlab/core/timed_change.h"

namespace breakerlab::app {

class ChangesCommand : public QUndoCommand {
 public:
  using Apply = std::function<void(const std::vector<TimedChange>&)>;
  ChangesCommand(std::vector<TimedChange> before, std::vector<TimedChange> after, Apply apply)
      : QUndoCommand(QObject::tr("change the operator changes")),
        before_(std::move(before)),
        after_(std::move(after)),
        apply_(std::move(apply)) {}

  void undo() override { apply_(before_); }
  // The first redo() runs when the command is pushed; the edit is already shown then.
  void redo() override {
    if (!first_) apply_(after_);
    first_ = false;
  }
  int id() const override { return 0x43484e47; }  // "CHNG"
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const ChangesCommand*>(other);
    // Moves of the same change in a row merge; a toggle stays its own step.
    const auto moved = movedIndex(before_, after_);
    return moved && moved == movedIndex(next->before_, next->after_) &&
           (after_ = next->after_, true);
  }

 private:
  // The one change whose time alone differs between a and b, if that is all that differs.
  static std::optional<std::size_t> movedIndex(const std::vector<TimedChange>& a,
                                               const std::vector<TimedChange>& b) {
    if (a.size() != b.size()) return std::nullopt;
    std::optional<std::size_t> moved;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;
      TimedChange same_time = b[i];
      same_time.at = a[i].at;
      if (moved || !(same_time == a[i])) return std::nullopt;
      moved = i;
    }
    return moved;
  }

  std::vector<TimedChange> before_;
  std::vector<TimedChange> after_;
  Apply apply_;
  bool first_ = true;
};

}  // namespace breakerlab::app
