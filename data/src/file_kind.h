#pragma once
// How a file that is not a regular file is named in messages ("a FIFO", "a character device"),
// and the system's reason for a failed call on a file.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace breakerlab {

inline std::string fileKindName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// The text of an errno value ("No such file or directory").
inline std::string osReason(int error) {
  return std::strerror(error);
}

}  // namespace breakerlab
