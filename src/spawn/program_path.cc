#include "spawn/program_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "brisk/spawn.h"

namespace brisk {
namespace {

// 0 when `path` is a regular file this process may execute, else the errno
// execvp would report for it.
int executable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) < 0 || !S_ISREG(st.st_mode)) return ENOENT;
  return ::faccessat(AT_FDCWD, path.c_str(), X_OK, AT_EACCESS) == 0 ? 0 : EACCES;
}

}  // namespace

Result<std::string> find_program(const std::string& name, const std::optional<std::string>& path) {
  if (name.find('/') != std::string::npos) {
    if (int err = executable(name)) return SysError{.code = err, .call = "execvp", .object = name};
    return name;
  }
  std::optional<std::string> value = path;
  if (!value)
    if (const char* own = ::getenv("PATH")) value = own;
  return detail::find_executable(name, detail::split_search_path(value));
}

namespace detail {

std::vector<std::string> split_search_path(const std::optional<std::string>& path) {
  const std::string value = path.value_or("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
  std::vector<std::string> dirs;
  size_t start = 0;
  for (;;) {
    size_t colon = value.find(':', start);
    std::string dir = value.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    dirs.push_back(dir.empty() ? "." : dir);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return dirs;
}

std::string join_path(const std::string& dir, const std::string& name) {
  if (!dir.empty() && dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

Result<std::string> find_executable(const std::string& name, const std::vector<std::string>& dirs) {
  bool denied = false;
  for (const auto& dir : dirs) {
    std::string candidate = join_path(dir, name);
    int err = executable(candidate);
    if (!err) return candidate;
    denied |= err == EACCES;
  }
  return SysError{.code = denied ? EACCES : ENOENT, .call = "execvp", .object = name};
}

}  // namespace detail
}  // namespace brisk
