#include "spawn/program_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace brisk::detail {

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
    struct stat st {};
    if (::stat(candidate.c_str(), &st) < 0 || !S_ISREG(st.st_mode)) continue;
    if (::faccessat(AT_FDCWD, candidate.c_str(), X_OK, AT_EACCESS) == 0) return candidate;
    denied = true;
  }
  return SysError{.code = denied ? EACCES : ENOENT, .call = "execvp", .object = name};
}

}  // namespace brisk::detail
