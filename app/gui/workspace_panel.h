#pragma once
// The workspace dock: the incidents with their named configs and runs (newest first), a filter,
// and the notes of the selected incident or run. Enter or a double-click opens an item; its
// context menu compares it with A, or two selected items with each other.
#include <QWidget>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "breakerlab/data/workspace.h"
#include "workspace_model.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace breakerlab::app {

class WorkspaceController;

// What is selected in the tree, as the notes editor sees it.
enum class NotesSelection {
  nothing,
  several,
  without_notes,  // a named config or a group: only incidents and runs have notes
  one,            // an incident or a run
};
// The notes editor's placeholder, shown while it is empty: what to select while nothing (or no
// incident or run) is; for an incident or run, that it has no note yet and how to write one, never
// "select ..." while one is selected (issue #33). `name` is the selected item's.
QString notesPlaceholder(NotesSelection selection, const QString& name, bool read_only);

class WorkspacePanel : public QWidget {
  Q_OBJECT
 public:
  // Notes are saved this long after the last keystroke (and when the editor loses focus).
  static constexpr int kNoteIdleMs = 800;

  explicit WorkspacePanel(WorkspaceController* controller, QWidget* parent = nullptr);

  QTreeView* tree() const { return tree_; }
  WorkspaceModel* model() const { return model_; }
  QLineEdit* filter() const { return filter_; }
  QPlainTextEdit* notes() const { return notes_; }
  // The sentence shown while no workspace is open (or it is empty), or an empty string.
  QString emptyText() const;

  std::vector<WorkspaceItem> selectedItems() const;
  void select(const std::vector<WorkspaceItem>& items);
  // The actions of the context menu, on the selection.
  bool openSelected();
  bool compareSelectedWithCurrent();
  bool compareSelectedPair();
  // Writes the note being edited now.
  void saveNote();

 public slots:
  void reload();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void showContextMenu(const QPoint& at);
  void onSelectionChanged();
  void updateEmptyState();
  void fitColumns();

  WorkspaceController* controller_;
  WorkspaceModel* model_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  QLabel* empty_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QTreeView* tree_ = nullptr;
  QLabel* notes_label_ = nullptr;
  // The incident on the workbench when the tree was last read: the selection follows a new one.
  std::optional<std::int64_t> shown_incident_;
  QPlainTextEdit* notes_ = nullptr;
  QTimer* note_timer_ = nullptr;
  std::optional<NoteTarget> note_target_;
  bool note_dirty_ = false;
  // The rows the user folded, kept across reloads (everything else starts unfolded).
  std::set<std::pair<int, qlonglong>> folded_;
};

}  // namespace breakerlab::app
