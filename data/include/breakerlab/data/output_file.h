#pragma once
// Every output BreakerLab writes (-o, --png, --partial, --calls-out, --markdown, reports,
// exports from the workbench) goes through OutputFile, so that what a path names decides how
// it is written, once:
//   - a regular file, or a path where nothing is yet: written to a temporary file in the
//     target's own folder, flushed and renamed over it, so readers see the old or the new
//     contents, never a mix. A symlink is followed first: its target is replaced and the link
//     stays a link.
//   - a character device (/dev/null, /dev/stdout, a terminal) or a FIFO: written through, as
//     `cat > PATH` would. Renaming over them would replace the device node itself. A FIFO that
//     no one opens for reading within kFifoReaderWait is an error, not a wait without end.
//   - "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (or a symlink to one): the
//     descriptor this process already holds, duplicated. Opened again by name it would be a new
//     file description (or, for a regular file, replaced): `cli -o /dev/stdout >> log` must
//     append to the log.
//   - anything else (a directory, a socket, a block device): refused before anything is written.
// Errors are LoadErrors naming the path (exit 2 in the CLI), with the OS's reason.
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

namespace breakerlab {

// How long an output waits for a FIFO's reader to open it.
inline constexpr std::chrono::seconds kFifoReaderWait{10};

enum class OutputKind {
  replaceFile,          // a regular file or a new one: temporary file, then rename
  writeThrough,         // a character device or a FIFO
  inheritedDescriptor,  // "-" (standard output), /dev/stdout, /proc/self/fd/N
};

struct OutputTarget {
  OutputKind kind = OutputKind::replaceFile;
  // replaceFile: the file to replace, every symlink resolved (its folder holds the temporary
  // file). writeThrough: the path as given (the kernel follows its links when it is opened).
  std::filesystem::path path;
  int descriptor = -1;  // inheritedDescriptor: which one
  bool fifo = false;    // writeThrough: a FIFO (its reader is waited for), not a device
};

// What `path` names and how an output to it is written. Throws LoadError("PATH", 0, 0, ...)
// for a directory, a socket, a block device, a symlink loop or a path that cannot be looked at.
OutputTarget resolveOutputTarget(const std::filesystem::path& path);

// An output being written. Nothing reaches a regular file until commit(); an OutputFile
// destroyed without commit() removes its temporary file and leaves the target as it was (what
// was already written through to a device or FIFO cannot be taken back).
class OutputFile {
 public:
  explicit OutputFile(const std::filesystem::path& path,
                      std::chrono::milliseconds fifo_reader_wait = kFifoReaderWait);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes);
  // Flushes, and for a regular file fsyncs and renames the temporary file over the target.
  void commit();

  OutputKind kind() const { return target_.kind; }

 private:
  [[noreturn]] void fail(const std::string& what, int error);
  void openWriteThrough(std::chrono::milliseconds reader_wait);
  void writeAll(const char* data, std::size_t size);

  std::string name_;  // the path as the user gave it, for messages
  OutputTarget target_;
  std::string temp_;  // replaceFile: the temporary file
  int fd_ = -1;
};

// The whole of `contents` to `path`, as OutputFile writes it.
void writeOutputFile(const std::filesystem::path& path, std::string_view contents);

}  // namespace breakerlab
