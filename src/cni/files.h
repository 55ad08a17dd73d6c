// files.h: the file operations the plugin needs, each failing with a
// CniException (io_failure) that names the syscall, the path and errno.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

#include "brisk/fd.h"

namespace brisk::cni::detail {

[[noreturn]] void fail_io(const char* call, const std::string& path, int error);

// mkdir -p with `mode` for each directory made.
void make_directories(const std::string& path, mode_t mode);
UniqueFd open_file(const std::string& path, int flags, mode_t mode = 0);
// The whole file; nullopt when it does not exist.
std::optional<std::string> read_file(const std::string& path);
// A store file that anyone with write access to the store may have put
// there: the whole file when it is a regular file of at most `limit` bytes,
// else nullopt. It never follows a symlink, never waits on a FIFO or a
// device, and never fails: a file it cannot read is for the caller to count
// as taken, never a reason to stop.
std::optional<std::string> read_store_file(const std::string& path, std::size_t limit = 4096);
void write_all(int fd, const std::string& data, const std::string& path);
// Creates `dir/name` holding `data`, whole or not at all: the bytes are
// written to an unnamed file (O_TMPFILE) that is then linked in. false
// when the name exists (EEXIST), as O_EXCL would say.
bool create_exclusive(const std::string& dir, const std::string& name, const std::string& data, mode_t mode);
// Replaces `dir/name` with `data` atomically (a temporary file renamed over it).
void replace_file(const std::string& dir, const std::string& name, const std::string& data, mode_t mode);
// unlink; false when it did not exist.
bool remove_file(const std::string& path);
struct stat stat_path(const std::string& path);

// A single-line sysctl under /proc/sys, in the network namespace the
// calling thread is in when it opens the file.
std::optional<std::string> read_sysctl(const std::string& name);
// Writes `value`; false when the file does not exist (no such device or
// no IPv6), other failures throw.
bool write_sysctl(const std::string& name, const std::string& value);

}  // namespace brisk::cni::detail
