#pragma once
// One knob change on the undo stack. Consecutive changes of the same knob (a slider drag, spin
// box steps) merge into one entry, so undo takes the knob back to where the drag started.
#include <QUndoCommand>
#include <functional>

#include "breakerlab/core/config.h"

namespace breakerlab::app {

class KnobCommand : public QUndoCommand {
 public:
  using Apply = std::function<void(const Config&)>;
  KnobCommand(const QString& knob_id, const Config& before, const Config& after, Apply apply);

  void undo() override { apply_(before_); }
  // The first redo() runs when the command is pushed; the change is already shown then.
  void redo() override;
  int id() const override { return id_; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  int id_;
  Config before_;
  Config after_;
  Apply apply_;
  bool first_ = true;
};

}  // namespace breakerlab::app
