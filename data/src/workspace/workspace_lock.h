#pragma once
// One program at a time saves into a workspace. SQLite's own locks are POSIX record locks, which
// a process loses on every one of its files' descriptors when it closes any descriptor of the
// file: a file dialog that reads the workspace to show its type, or a second Workspace::open in
// the same process, drops the workbench's locks without a word. A second program then takes
// itself for the last one, checkpoints and deletes the -wal and -shm the workbench still uses,
// and the workbench's next save finds the file "malformed" (the third walkthrough of issue #33:
// `breakerlab --grab` beside an open workbench). flock(2) locks belong to the descriptor that
// took them and survive that, so a workspace is held with one: exclusive while writable, shared
// while read-only. Inside one process every open of a file shares the one lock and descriptor
// (SQLite shares its own connections' locks the same way).
#include <filesystem>
#include <memory>

namespace breakerlab::workspace_detail {

class WorkspaceLock;

// Holds `path`'s lock until the last holder in this process lets go: exclusive when `writer`.
// Throws WorkspaceError(in_use) when another process holds it in a way that excludes this one.
std::shared_ptr<const WorkspaceLock> lockWorkspace(const std::filesystem::path& path, bool writer);

// The descriptor this process holds `path`'s lock with, or -1: reading the file through it,
// instead of opening and closing another, keeps SQLite's POSIX locks.
int heldDescriptor(const std::filesystem::path& path);

}  // namespace breakerlab::workspace_detail
