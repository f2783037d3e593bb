#include "comparison_slot.h"

#include <QtConcurrent/QtConcurrentRun>

#include "breakerlab/core/simulate.h"

namespace breakerlab::app {

ComparisonSlot::ComparisonSlot(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<std::shared_ptr<Result>>::finished, this, [this] {
    running_ = false;
    const std::shared_ptr<Result> replay = watcher_.result();
    if (!replay || !choice_) return;  // superseded, cancelled, or B was cleared meanwhile
    result_ = std::move(*replay);
    emit changed();
  });
}

ComparisonSlot::~ComparisonSlot() {
  if (superseded_) superseded_->store(true);
  watcher_.waitForFinished();
}

QString ComparisonSlot::name() const {
  return choice_ ? choice_->name : tr("deployed");
}

void ComparisonSlot::set(std::optional<Choice> choice, const Incident& incident) {
  choice_ = std::move(choice);
  result_.reset();
  if (!choice_) {
    if (superseded_) superseded_->store(true);
    emit changed();
    return;
  }
  start(incident);
}

void ComparisonSlot::replayOn(const Incident& incident) {
  if (!choice_) return;
  result_.reset();
  start(incident);
}

void ComparisonSlot::clear() {
  set(std::nullopt, Incident{});
}

void ComparisonSlot::start(const Incident& incident) {
  if (superseded_) superseded_->store(true);
  watcher_.waitForFinished();  // a superseded replay stops within a few thousand events
  running_ = true;
  superseded_ = std::make_shared<std::atomic<bool>>(false);
  auto superseded = superseded_;
  auto copy = std::make_shared<const Incident>(incident);
  watcher_.setFuture(QtConcurrent::run([copy, choice = *choice_, superseded] {
    SimulateOptions options;
    options.changes = &choice.changes;
    options.progress = [&superseded](const ReplayProgress&) { return !superseded->load(); };
    options.progress_every_events = 4096;
    try {
      return std::make_shared<Result>(simulate(*copy, choice.config, options));
    } catch (const std::exception&) {  // superseded (cancelled) or refused: nothing to show
      return std::shared_ptr<Result>();
    }
  }));
}

}  // namespace breakerlab::app
