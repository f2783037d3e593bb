#include "workspace_panel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "workspace_controller.h"

namespace breakerlab::app {

namespace {

using Kind = WorkspaceItem::Kind;

std::pair<int, qlonglong> foldKey(const WorkspaceItem& item) {
  const bool group = item.kind == Kind::config_group || item.kind == Kind::run_group;
  return {static_cast<int>(item.kind), group ? item.incident_id : item.id};
}

std::optional<NoteTarget> noteTargetOf(const WorkspaceItem& item) {
  if (item.kind == Kind::incident) return NoteTarget{NoteTarget::Kind::incident, item.id};
  if (item.kind == Kind::run) return NoteTarget{NoteTarget::Kind::run, item.id};
  return std::nullopt;
}

}  // namespace

QString notesPlaceholder(NotesSelection selection, const QString& name, bool read_only) {
  switch (selection) {
    case NotesSelection::nothing:
      return WorkspacePanel::tr("Select an incident or a run to write a note on it.");
    case NotesSelection::several:
      return WorkspacePanel::tr(
          "Several items are selected: select one incident or run to read or write its note.");
    case NotesSelection::without_notes:
      return WorkspacePanel::tr(
          "Only incidents and runs have notes: select one to write a note on it.");
    case NotesSelection::one:
      break;
  }
  if (read_only) return WorkspacePanel::tr("No note on %1. The workspace is read-only.").arg(name);
  return WorkspacePanel::tr("No note on %1 yet. Type one here; it is saved as you type.").arg(name);
}

WorkspacePanel::WorkspacePanel(WorkspaceController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller) {
  model_ = new WorkspaceModel(this);

  empty_ = new QLabel;
  empty_->setObjectName(QStringLiteral("workspace-empty"));
  empty_->setWordWrap(true);
  empty_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  empty_->setMargin(8);

  filter_ = new QLineEdit;
  filter_->setObjectName(QStringLiteral("workspace-filter"));
  filter_->setPlaceholderText(tr("Filter by incident, config, run or library"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, &WorkspacePanel::reload);

  tree_ = new QTreeView;
  tree_->setObjectName(QStringLiteral("workspace-tree"));
  tree_->setModel(model_);
  tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
  tree_->installEventFilter(this);
  connect(tree_, &QTreeView::doubleClicked, this,
          [this](const QModelIndex& index) { controller_->openItem(model_->itemAt(index)); });
  connect(tree_, &QTreeView::customContextMenuRequested, this, &WorkspacePanel::showContextMenu);
  connect(tree_, &QTreeView::collapsed, this,
          [this](const QModelIndex& index) { folded_.insert(foldKey(model_->itemAt(index))); });
  connect(tree_, &QTreeView::expanded, this,
          [this](const QModelIndex& index) { folded_.erase(foldKey(model_->itemAt(index))); });
  connect(tree_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &WorkspacePanel::onSelectionChanged);

  notes_label_ = new QLabel(tr("Notes"));
  notes_label_->setObjectName(QStringLiteral("workspace-notes-title"));
  notes_label_->setWordWrap(true);  // a long run name must not widen the dock
  notes_ = new QPlainTextEdit;
  notes_->setObjectName(QStringLiteral("workspace-notes"));
  notes_->setEnabled(false);
  notes_->setPlaceholderText(notesPlaceholder(NotesSelection::nothing, {}, false));
  notes_->installEventFilter(this);
  note_timer_ = new QTimer(this);
  note_timer_->setSingleShot(true);
  note_timer_->setInterval(kNoteIdleMs);
  connect(note_timer_, &QTimer::timeout, this, &WorkspacePanel::saveNote);
  connect(notes_, &QPlainTextEdit::textChanged, this, [this] {
    if (!note_target_) return;
    note_dirty_ = true;
    note_timer_->start();
  });

  auto* notes_box = new QWidget;
  auto* notes_layout = new QVBoxLayout(notes_box);
  notes_layout->setContentsMargins(0, 4, 0, 0);
  notes_layout->addWidget(notes_label_);
  notes_layout->addWidget(notes_);
  auto* split = new QSplitter(Qt::Vertical);
  split->setChildrenCollapsible(false);
  split->addWidget(tree_);
  split->addWidget(notes_box);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);

  auto* content = new QWidget;
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->addWidget(filter_);
  content_layout->addWidget(split, 1);

  pages_ = new QStackedWidget;
  pages_->addWidget(empty_);
  pages_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(pages_);

  connect(controller_, &WorkspaceController::changed, this, &WorkspacePanel::reload);
  reload();
}

QString WorkspacePanel::emptyText() const {
  return pages_->currentWidget() == empty_ ? empty_->text() : QString();
}

void WorkspacePanel::updateEmptyState() {
  if (!controller_->isOpen()) {
    empty_->setText(
        tr("Open or create a workspace (File ▸ New Workspace…) to keep configs and "
           "runs."));
    pages_->setCurrentWidget(empty_);
  } else if (model_->rowCount() == 0 && filter_->text().trimmed().isEmpty()) {
    empty_->setText(
        tr("The workspace is empty. Open an incident to add it, then keep what you "
           "tune with File ▸ Save Config As… and File ▸ Save Run."));
    pages_->setCurrentWidget(empty_);
  } else {
    pages_->setCurrentWidget(pages_->widget(1));
  }
}

void WorkspacePanel::fitColumns() {
  // Incidents and groups span the row, so their long titles leave the name column as wide as
  // the configs' and runs' names and the run columns in view.
  const QFontMetrics metrics = tree_->fontMetrics();
  int name_width = metrics.horizontalAdvance(model_->headerData(0, Qt::Horizontal).toString());
  for (int r = 0; r < model_->rowCount(); ++r) {
    const QModelIndex incident = model_->index(r, 0);
    tree_->setFirstColumnSpanned(r, QModelIndex(), true);
    for (int g = 0; g < model_->rowCount(incident); ++g) {
      const QModelIndex group = model_->index(g, 0, incident);
      tree_->setFirstColumnSpanned(g, incident, true);
      name_width = std::max(
          name_width, metrics.horizontalAdvance(group.data().toString()) - tree_->indentation());
      for (int i = 0; i < model_->rowCount(group); ++i)
        name_width = std::max(
            name_width, metrics.horizontalAdvance(model_->index(i, 0, group).data().toString()) +
                            2 * tree_->indentation());  // a config or run is two levels in
    }
  }
  tree_->setColumnWidth(0, std::min(name_width + tree_->indentation() + 16, 320));
  for (int c = 1; c < WorkspaceModel::kColumnCount; ++c) tree_->resizeColumnToContents(c);
}

void WorkspacePanel::reload() {
  saveNote();
  const std::vector<WorkspaceItem> selected = selectedItems();
  {
    const QSignalBlocker block(tree_->selectionModel());
    const QSignalBlocker quiet(tree_);  // unfolding to the rows the user left is not a choice
    try {
      model_->reload(controller_->workspace(), filter_->text());
    } catch (const std::exception& e) {
      // A row this version cannot read (edited by hand, written by a newer one): the tree stays
      // empty and says why rather than the workbench stopping.
      model_->reload(nullptr, QString());
      emit controller_->failed(tr("Could not read the workspace"), QString::fromUtf8(e.what()));
    }
    tree_->expandAll();
    for (int r = 0; r < model_->rowCount(); ++r) {
      const QModelIndex incident = model_->index(r, 0);
      for (const QModelIndex& i :
           {incident, model_->index(0, 0, incident), model_->index(1, 0, incident)})
        if (folded_.count(foldKey(model_->itemAt(i)))) tree_->collapse(i);
    }
  }
  fitColumns();
  // Another incident on the workbench: the selection (and the notes under it) follows it, rather
  // than keep the previous incident's run ("Notes on fast probe 500ms", issue #33).
  const std::optional<std::int64_t> current = controller_->currentIncident();
  if (current && current != shown_incident_ &&
      std::any_of(selected.begin(), selected.end(),
                  [&current](const WorkspaceItem& i) { return i.incident_id != *current; }))
    select({{WorkspaceItem::Kind::incident, *current, *current}});
  else
    select(selected);
  shown_incident_ = current;
  onSelectionChanged();
  updateEmptyState();
}

std::vector<WorkspaceItem> WorkspacePanel::selectedItems() const {
  std::vector<WorkspaceItem> items;
  for (const QModelIndex& index : tree_->selectionModel()->selectedRows(0))
    items.push_back(model_->itemAt(index));
  return items;
}

void WorkspacePanel::select(const std::vector<WorkspaceItem>& items) {
  QItemSelection selection;
  for (const WorkspaceItem& item : items) {
    const QModelIndex index = model_->indexOf(item);
    if (!index.isValid()) continue;
    selection.select(index, index.sibling(index.row(), WorkspaceModel::kColumnCount - 1));
    if (&item == &items.front()) tree_->setCurrentIndex(index);
  }
  tree_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void WorkspacePanel::onSelectionChanged() {
  saveNote();
  const std::vector<WorkspaceItem> items = selectedItems();
  note_target_ = items.size() == 1 ? noteTargetOf(items.front()) : std::nullopt;
  const QSignalBlocker block(notes_);
  if (!note_target_) {
    notes_label_->setText(tr("Notes"));
    notes_->clear();
    notes_->setEnabled(false);
    notes_->setPlaceholderText(notesPlaceholder(items.empty()      ? NotesSelection::nothing
                                                : items.size() > 1 ? NotesSelection::several
                                                                   : NotesSelection::without_notes,
                                                {}, false));
    return;
  }
  const QModelIndex index = model_->indexOf(items.front());
  const QString name = index.data().toString();
  const bool read_only = controller_->workspace()->readOnly();
  notes_label_->setText(tr("Notes on %1").arg(name));
  notes_->setPlaceholderText(notesPlaceholder(NotesSelection::one, name, read_only));
  notes_->setPlainText(QString::fromStdString(controller_->note(*note_target_)));
  notes_->setEnabled(!read_only);
  note_dirty_ = false;
}

void WorkspacePanel::saveNote() {
  note_timer_->stop();
  if (!note_dirty_ || !note_target_) return;
  note_dirty_ = false;
  controller_->setNote(*note_target_, notes_->toPlainText());
}

bool WorkspacePanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == notes_ && event->type() == QEvent::FocusOut) saveNote();
  if (watched == tree_ && event->type() == QEvent::KeyPress) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      openSelected();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

bool WorkspacePanel::openSelected() {
  const std::vector<WorkspaceItem> items = selectedItems();
  if (items.empty()) return false;
  return controller_->openItem(items.front());
}

bool WorkspacePanel::compareSelectedWithCurrent() {
  const std::vector<WorkspaceItem> items = selectedItems();
  return items.size() == 1 && controller_->compareWithCurrent(items.front());
}

bool WorkspacePanel::compareSelectedPair() {
  const std::vector<WorkspaceItem> items = selectedItems();
  if (items.size() != 2) return false;
  // The one the user picked first (the current row) is A.
  const WorkspaceItem current = model_->itemAt(tree_->currentIndex());
  const bool swapped = current == items[1];
  return controller_->compareTwo(swapped ? items[1] : items[0], swapped ? items[0] : items[1]);
}

void WorkspacePanel::showContextMenu(const QPoint& at) {
  const QModelIndex under = tree_->indexAt(at);
  if (!under.isValid()) return;
  if (!tree_->selectionModel()->isRowSelected(under.row(), under.parent()))
    select({model_->itemAt(under)});
  const std::vector<WorkspaceItem> items = selectedItems();
  const auto comparable = [](const WorkspaceItem& i) {
    return i.kind == Kind::config || i.kind == Kind::run;
  };
  QMenu menu(this);
  if (items.size() == 1) {
    const WorkspaceItem item = items.front();
    const QString open = item.kind == Kind::run      ? tr("Open Run (Replay It)")
                         : item.kind == Kind::config ? tr("Apply Config to A")
                                                     : tr("Open Incident");
    if (item.kind == Kind::run || item.kind == Kind::config || item.kind == Kind::incident)
      menu.addAction(open, this, [this] { openSelected(); });
    if (comparable(item)) {
      QAction* compare = menu.addAction(tr("Compare with Current (B)"), this,
                                        [this] { compareSelectedWithCurrent(); });
      compare->setEnabled(controller_->currentIncident() == item.incident_id);
    }
  }
  if (items.size() == 2) {
    QAction* pair =
        menu.addAction(tr("Compare These Two"), this, [this] { compareSelectedPair(); });
    pair->setEnabled(comparable(items[0]) && comparable(items[1]) &&
                     items[0].incident_id == items[1].incident_id);
  }
  if (!menu.isEmpty()) menu.exec(tree_->viewport()->mapToGlobal(at));
}

}  // namespace breakerlab::app
