#pragma once
// B of the A/B comparison. A is the config being tuned (the session's); B is what it is compared
// against: the deployed config by default, or a what-if, a config file, or a tuning pinned
// earlier, each with its own timed changes. B is replayed once when chosen (on a worker: a long
// incident takes a second), not on every knob step; the lanes draw it as the ghost and the
// metrics' deltas are against it.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/core/outcome/result.h"
#include "value_command.h"

namespace breakerlab::app {

class ComparisonSlot : public QObject {
  Q_OBJECT
 public:
  struct Choice {
    QString name;  // "what-if scale-to-40-pods", "pinned tuning", "config.yaml"
    Config config;
    std::vector<TimedChange> changes;
    // Where config and changes come from when the incident changes (a scenario moves its
    // changes and its what-ifs'): a what-if by name, or the incident's own changes.
    std::string what_if;
    bool incident_changes = false;
  };
  explicit ComparisonSlot(QObject* parent = nullptr);
  ~ComparisonSlot() override;

  // B is `choice` replayed on `incident` (a copy is kept). nullopt: the deployed config, whose
  // replay the session has already; result() is then nullptr.
  void set(std::optional<Choice> choice, const Incident& incident);
  // The incident changed (a scenario): B is replayed on the new one.
  void replayOn(const Incident& incident);
  // Back to the deployed config (a new incident).
  void clear();

  bool isDeployed() const { return !choice_.has_value(); }
  const std::optional<Choice>& choice() const { return choice_; }
  QString name() const;
  // B's replay, once it is done; nullptr when B is the deployed config or still replaying.
  const Result* result() const { return result_ ? &*result_ : nullptr; }
  bool busy() const { return running_; }

 signals:
  // B's replay is done (or B went back to deployed).
  void changed();
  // B's replay failed (refused or too large): B is the deployed config again.
  void failed(const QString& reason);

 private:
  void start(const Incident& incident);
  std::optional<Choice> choice_;
  std::optional<Result> result_;
  struct Outcome {
    std::shared_ptr<Result> result;  // null: failed or superseded
    bool superseded = false;
    std::string error;
  };
  QFutureWatcher<Outcome> watcher_;
  std::shared_ptr<std::atomic<bool>> superseded_;
  bool running_ = false;
};

// B of the comparison set as an undo step (part of Swap A and B, and of a tuned config applied).
using ComparisonCommand = ValueCommand<std::optional<ComparisonSlot::Choice>>;

// `names` made distinct for a list that finds an entry by its name: an entry whose name came
// before, or is one of `reserved` (the list's own entries), gets " (2)", " (3)", ... (the first
// of those not taken); the others keep theirs. The same order and count.
QStringList distinctNames(const QStringList& names, const QStringList& reserved);

}  // namespace breakerlab::app
