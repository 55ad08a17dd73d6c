#include "cni/files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

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

void write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_io("write", path, errno);
    done += static_cast<std::size_t>(n);
  }
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
