#pragma once
// What is at a workspace's path, looked at before SQLite opens it: SQLite opens the file and its
// -wal, -shm and -journal with a blocking open(2) that follows symlinks, so a FIFO there hangs
// the program and a directory gives "unable to open database file". These checks say what is
// wrong, and where, first.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace breakerlab::workspace_detail {

struct WorkspaceFile {
  bool exists = false;
  std::uint64_t size = 0;
  // The first 16 bytes are SQLite's (or the file is empty, which SQLite takes for a new
  // database).
  bool sqlite_header = false;
  // Damage seen in the file's size: not a whole number of pages, which SQLite never writes (a
  // copy cut short) but reads, the missing bytes taken for zeros. Empty when none.
  std::string damage;
  // Where SQLite puts the -wal, -shm and -journal: beside the file the path resolves to (the
  // unix VFS follows symlinks), named the way the user named it when the path is no symlink.
  std::filesystem::path companion_base;
  // The -wal's size when it exists: saves that may not be in the file itself yet.
  std::optional<std::uint64_t> wal_size;
};

// Throws WorkspaceError(cannot_open, "PATH: cannot open the workspace: <why>") unless `path` is
// a regular file (or a symlink to one), or a new path whose folder exists and can be written
// (`may_create`); or when a -wal, -shm or -journal beside it is there and is not a regular
// file. Never opens anything but a regular file, and that without blocking.
WorkspaceFile inspectWorkspaceFile(const std::filesystem::path& path, bool may_create);

// Why SQLite could not write the workspace `file` at `path`: "cannot write PATH: Permission
// denied (the file is not writable)", "cannot create PATH-wal in DIR: Permission denied (the
// folder is not writable)"; empty when it can.
std::string whyNotWritable(const std::filesystem::path& path, const WorkspaceFile& file);

// The folder `path` is in, as the user would name it ("." for a bare file name).
std::string folderOf(const std::filesystem::path& path);

}  // namespace breakerlab::workspace_detail
