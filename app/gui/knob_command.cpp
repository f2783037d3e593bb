#include "knob_command.h"

namespace breakerlab::app {

KnobCommand::KnobCommand(const QString& knob_id, const Config& before, const Config& after,
                         Apply apply)
    : ValueCommand(QObject::tr("change %1").arg(knob_id), before, after, std::move(apply)),
      id_(static_cast<int>(qHash(knob_id) & 0x3fffffff)) {}

bool KnobCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const KnobCommand*>(other);
  if (next->id_ != id_ || !(next->before() == after())) return false;
  takeAfterOf(*next);
  if (after() == before()) setObsolete(true);  // dragged back to where it started
  return true;
}

}  // namespace breakerlab::app
