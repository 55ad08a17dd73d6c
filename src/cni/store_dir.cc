#include "cni/store_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "brisk/cni/error.h"
#include "cni/files.h"

namespace brisk::cni::detail {
namespace {

int open_at(int dir, const char* name, int flags, mode_t mode = 0) {
  int fd;
  do fd = ::openat(dir, name, flags | O_CLOEXEC, mode);
  while (fd < 0 && errno == EINTR);
  return fd;
}

std::string temp_name() {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}{}-{}", kTempPrefix, ::getpid(), counter++);
}

}  // namespace

StoreDir StoreDir::open_top(const std::string& path, mode_t mode) {
  make_directories(path, mode);
  int fd = open_at(AT_FDCWD, path.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) fail_io("open", path, errno);
  return StoreDir(UniqueFd(fd), path);
}

StoreDir StoreDir::subdirectory(const std::string& name, mode_t mode) const {
  std::string path = path_of(name);
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
    fail(ErrorCode::io_failure, fmt::format("{}: not a name for a directory of the lease store", path));
  if (::mkdirat(fd_.get(), name.c_str(), mode) != 0 && errno != EEXIST) fail_io("mkdir", path, errno);
  int fd = open_at(fd_.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (fd >= 0) return StoreDir(UniqueFd(fd), path);
  int error = errno;
  struct stat st {};
  if ((error == ELOOP || error == ENOTDIR) &&
      ::fstatat(fd_.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
    fail(ErrorCode::io_failure,
         fmt::format("{} is {}, not a directory: the lease store's own directories are never followed "
                     "elsewhere; remove it",
                     path, S_ISLNK(st.st_mode) ? "a symlink" : "another kind of file"));
  fail_io("open", path, error);
}

std::vector<std::string> StoreDir::list() const {
  int fd = open_at(fd_.get(), ".", O_RDONLY | O_DIRECTORY);
  if (fd < 0) fail_io("open", path_, errno);
  DIR* d = ::fdopendir(fd);
  if (!d) {
    int error = errno;
    ::close(fd);
    fail_io("fdopendir", path_, error);
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(std::move(n));
  }
  ::closedir(d);
  return names;
}

struct stat StoreDir::status() const {
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0) fail_io("fstat", path_, errno);
  return st;
}

UniqueFd StoreDir::open(const std::string& name, int flags, mode_t mode) const {
  int fd = open_at(fd_.get(), name.c_str(), flags | O_NOFOLLOW, mode);
  if (fd < 0) fail_io("open", path_of(name), errno);
  return UniqueFd(fd);
}

std::optional<std::string> StoreDir::read(const std::string& name, std::size_t limit) const {
  int fd = open_at(fd_.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  UniqueFd owned(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::size_t>(st.st_size) > limit)
    return std::nullopt;
  std::string out;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return out;
    out.append(buffer, static_cast<std::size_t>(n));
    if (out.size() > limit) return std::nullopt;  // grew since the fstat
  }
}

std::string StoreDir::write_temp(const std::string& data, mode_t mode) const {
  std::string temp = temp_name();
  UniqueFd t = open(temp, O_WRONLY | O_CREAT | O_EXCL, mode);
  try {
    write_all(t.get(), data, path_of(temp));
  } catch (...) {
    ::unlinkat(fd_.get(), temp.c_str(), 0);
    throw;
  }
  return temp;
}

bool StoreDir::create_exclusive(const std::string& name, const std::string& data, mode_t mode) const {
  int fd = open_at(fd_.get(), ".", O_TMPFILE | O_WRONLY, mode);
  if (fd >= 0) {
    UniqueFd owned(fd);
    write_all(fd, data, path_of(name));
    // linkat(AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; the /proc link does not.
    std::string self = fmt::format("/proc/self/fd/{}", fd);
    if (::linkat(AT_FDCWD, self.c_str(), fd_.get(), name.c_str(), AT_SYMLINK_FOLLOW) == 0) return true;
    if (errno == EEXIST) return false;
    if (errno != ENOENT) fail_io("linkat", path_of(name), errno);  // ENOENT: no /proc; take the path below
  } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    fail_io("open O_TMPFILE", path_, errno);
  }
  // No O_TMPFILE here: a named temporary file, hard-linked into place.
  std::string temp = write_temp(data, mode);
  int rc = ::linkat(fd_.get(), temp.c_str(), fd_.get(), name.c_str(), 0);
  int error = errno;
  ::unlinkat(fd_.get(), temp.c_str(), 0);
  if (rc == 0) return true;
  if (error == EEXIST) return false;
  fail_io("link", path_of(name), error);
}

void StoreDir::replace(const std::string& name, const std::string& data, mode_t mode) const {
  std::string temp = write_temp(data, mode);
  if (::renameat(fd_.get(), temp.c_str(), fd_.get(), name.c_str()) != 0) {
    int error = errno;
    ::unlinkat(fd_.get(), temp.c_str(), 0);
    fail_io("rename", path_of(name), error);
  }
}

bool StoreDir::remove(const std::string& name) const {
  if (::unlinkat(fd_.get(), name.c_str(), 0) == 0) return true;
  if (errno == ENOENT) return false;
  fail_io("unlink", path_of(name), errno);
}

}  // namespace brisk::cni::detail
