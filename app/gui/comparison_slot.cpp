#include "comparison_slot.h"

#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

#include "breakerlab/core/replay/simulate.h"

namespace breakerlab::app {

ComparisonSlot::ComparisonSlot(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, [this] {
    running_ = false;
    const Outcome outcome = watcher_.result();
    if (outcome.superseded || !choice_) return;  // a newer B, or B was cleared meanwhile
    if (!outcome.result) {
      const QString name = choice_->name;
      choice_.reset();
      emit failed(
          tr("B (%1) could not be replayed: %2").arg(name, QString::fromStdString(outcome.error)));
      emit changed();
      return;
    }
    result_ = std::move(*outcome.result);
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
  // A what-if as the new incident has it; the incident's own changes as they are now.
  if (!choice_->what_if.empty()) {
    if (const WhatIf* w = incident.whatIf(choice_->what_if)) {
      choice_->config = w->config;
      choice_->changes = w->changes ? *w->changes : incident.changes;
    }
  } else if (choice_->incident_changes) {
    choice_->changes = incident.changes;
  }
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
    Outcome outcome;
    try {
      outcome.result = std::make_shared<Result>(simulate(*copy, choice.config, options));
    } catch (const std::exception& e) {  // superseded (cancelled), or refused
      outcome.superseded = superseded->load();
      outcome.error = e.what();
    }
    return outcome;
  }));
}

QStringList distinctNames(const QStringList& names, const QStringList& reserved) {
  QSet<QString> used(reserved.begin(), reserved.end());
  QStringList out;
  out.reserve(names.size());
  for (const QString& name : names) {
    QString distinct = name;
    // A suffix is not one the list has for another entry, which keeps its own name.
    for (int n = 2; used.contains(distinct); ++n) {
      distinct = QStringLiteral("%1 (%2)").arg(name).arg(n);
      if (names.contains(distinct)) distinct = name;
    }
    used.insert(distinct);
    out << distinct;
  }
  return out;
}

}  // namespace breakerlab::app
