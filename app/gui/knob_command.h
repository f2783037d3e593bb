#pragma once
// One knob change on the undo stack. Consecutive changes of the same knob (a slider drag, spin
// box steps) merge into one entry, so undo takes the knob back to where the drag started.
#include "breakerlab/core/inputs/config.h"
#include "value_command.h"

namespace breakerlab::app {

class KnobCommand : public ValueCommand<Config> {
 public:
  KnobCommand(const QString& knob_id, const Config& before, const Config& after, Apply apply);

  int id() const override { return id_; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  int id_;
};

}  // namespace breakerlab::app
