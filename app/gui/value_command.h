#pragma once
// The workbench's undo steps that set one value (the config, the timed changes, the scenario,
// what B compares with): undo applies the value before, redo the value after. The first redo()
// runs when the command is pushed, and the caller has shown the change already then, so it
// applies nothing. A step that merges with the next of its kind (a slider drag, spin box
// arrows) derives from this and takes the next one's value after.
#include <QUndoCommand>
#include <functional>
#include <utility>

namespace breakerlab::app {

template <typename Value>
class ValueCommand : public QUndoCommand {
 public:
  using Apply = std::function<void(const Value&)>;

  ValueCommand(const QString& text, Value before, Value after, Apply apply)
      : QUndoCommand(text),
        before_(std::move(before)),
        after_(std::move(after)),
        apply_(std::move(apply)) {}

  void undo() override { apply_(before_); }
  void redo() override {
    if (!first_) apply_(after_);
    first_ = false;
  }

  const Value& before() const { return before_; }
  const Value& after() const { return after_; }

 protected:
  // Merging: this step now ends where `next` ends.
  void takeAfterOf(const ValueCommand& next) { after_ = next.after_; }

 private:
  Value before_;
  Value after_;
  Apply apply_;
  bool first_ = true;
};

}  // namespace breakerlab::app
