#include "cni/files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "brisk/cni/error.h"

namespace brisk::cni::detail {

void fail_io(const char* call, const std::string& path, int error) {
  fail(ErrorCode::io_failure, fmt::format("{} {}: {}", call, path, std::strerror(error)));
}

void make_directories(const std::string& path, mode_t mode) {
  if (::mkdir(path.c_str(), mode) == 0 || errno == EEXIST) return;
  if (errno != ENOENT) fail_io("mkdir", path, errno);
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) fail_io("mkdir", path, ENOENT);
  make_directories(path.substr(0, slash), mode);
  if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST) fail_io("mkdir", path, errno);
}

UniqueFd open_file(const std::string& path, int flags, mode_t mode) {
  int fd;
  do fd = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) fail_io("open", path, errno);
  return UniqueFd(fd);
}

std::optional<std::string> read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail_io("open", path, errno);
  }
  UniqueFd owned(fd);
  std::string out;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_io("read", path, errno);
    if (n == 0) return out;
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

std::optional<std::string> read_store_file(const std::string& path, std::size_t limit) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
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

void write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_io("write", path, errno);
    done += static_cast<std::size_t>(n);
  }
}

namespace {

std::string temp_name() {
  static std::atomic<unsigned> counter{0};
  return fmt::format(".brisk-tmp-{}-{}", ::getpid(), counter++);
}

// A new file `dir/<temp name>` holding data; returns its path.
std::string write_temp(const std::string& dir, const std::string& data, mode_t mode) {
  std::string temp = dir + "/" + temp_name();
  UniqueFd t = open_file(temp, O_WRONLY | O_CREAT | O_EXCL, mode);
  try {
    write_all(t.get(), data, temp);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  return temp;
}

}  // namespace

bool create_exclusive(const std::string& dir, const std::string& name, const std::string& data, mode_t mode) {
  std::string target = dir + "/" + name;
  int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  if (fd >= 0) {
    UniqueFd owned(fd);
    write_all(fd, data, target);
    // linkat(AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; the /proc link does not.
    std::string self = fmt::format("/proc/self/fd/{}", fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) return true;
    if (errno == EEXIST) return false;
    if (errno != ENOENT) fail_io("linkat", target, errno);  // ENOENT: no /proc; take the path below
  } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    fail_io("open O_TMPFILE", dir, errno);
  }
  // No O_TMPFILE here: a named temporary file, hard-linked into place.
  std::string temp = write_temp(dir, data, mode);
  int rc = ::link(temp.c_str(), target.c_str());
  int error = errno;
  ::unlink(temp.c_str());
  if (rc == 0) return true;
  if (error == EEXIST) return false;
  fail_io("link", target, error);
}

void replace_file(const std::string& dir, const std::string& name, const std::string& data, mode_t mode) {
  std::string target = dir + "/" + name;
  std::string temp = write_temp(dir, data, mode);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    int error = errno;
    ::unlink(temp.c_str());
    fail_io("rename", target, error);
  }
}

bool remove_file(const std::string& path) {
  if (::unlink(path.c_str()) == 0) return true;
  if (errno == ENOENT) return false;
  fail_io("unlink", path, errno);
}

struct stat stat_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail_io("stat", path, errno);
  return st;
}

std::optional<std::string> read_sysctl(const std::string& name) {
  auto text = read_file("/proc/sys/" + name);
  if (text && !text->empty() && text->back() == '\n') text->pop_back();
  return text;
}

bool write_sysctl(const std::string& name, const std::string& value) {
  std::string path = "/proc/sys/" + name;
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return false;
    fail_io("open", path, errno);
  }
  UniqueFd owned(fd);
  write_all(fd, value, path);
  return true;
}

}  // namespace brisk::cni::detail
