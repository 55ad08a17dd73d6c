// files.h: the file operations the plugin needs, each failing with a
// CniException (io_failure) that names the syscall, the path and errno.
#pragma once

#include <sys/types.h>

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
void write_all(int fd, const std::string& data, const std::string& path);
// A single-line sysctl under /proc/sys, in the network namespace the
// calling thread is in when it opens the file.
std::optional<std::string> read_sysctl(const std::string& name);
// Writes `value`; false when the file does not exist (no such device or
// no IPv6), other failures throw.
bool write_sysctl(const std::string& name, const std::string& value);

}  // namespace brisk::cni::detail
