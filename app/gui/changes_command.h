#pragma once
// A timed change toggled or moved, on the undo stack. Steps of the same change's time (spin
// box arrows) merge into one entry.
#include <optional>
#include <vector>

#include "breakerlab/core/inputs/timed_change.h"
#include "value_command.h"

namespace breakerlab::app {

class ChangesCommand : public ValueCommand<std::vector<TimedChange>> {
 public:
  ChangesCommand(std::vector<TimedChange> before, std::vector<TimedChange> after, Apply apply)
      : ValueCommand(QObject::tr("change the operator changes"), std::move(before),
                     std::move(after), std::move(apply)) {}

  int id() const override { return 0x43484e47; }  // "CHNG"
  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = static_cast<const ChangesCommand*>(other);
    // Moves of the same change in a row merge; a toggle stays its own step.
    const auto moved = movedIndex(before(), after());
    if (!moved || moved != movedIndex(next->before(), next->after())) return false;
    takeAfterOf(*next);
    return true;
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
};

}  // namespace breakerlab::app
