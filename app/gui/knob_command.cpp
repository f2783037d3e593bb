#include "knob_command.h"

namespace breakerlab::app {

KnobCommand::KnobCommand(const QString& knob_id, const Config& before, const Config& after,
                         Apply apply)
    : id_(static_cast<int>(qHash(knob_id) & 0x3fffffff)),
      before_(before),
      after_(after),
      apply_(std::move(apply)) {
  setText(QObject::tr("change %1").arg(knob_id));
}

void KnobCommand::redo() {
  if (first_) {
    first_ = false;
    return;
  }
  apply_(after_);
}

bool KnobCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const KnobCommand*>(other);
  if (next->id_ != id_ || !(next->before_ == after_)) return false;
  after_ = next->after_;
  if (after_ == before_) setObsolete(true);  // dragged back to where it started
  return true;
}

}  // namespace breakerlab::app
