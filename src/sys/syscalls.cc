#include "sys/syscalls.h"

#include <dirent.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>

#include "sys/fault.h"

namespace brisk::sys {

Result<UniqueFd> open(const std::string& path, int flags, mode_t mode) {
  return openat(AT_FDCWD, path, flags, mode);
}

Result<UniqueFd> openat(int dirfd, const std::string& path, int flags, mode_t mode) {
  int fd = fail_injected("open") ? -1 : ::openat(dirfd, path.c_str(), flags | O_CLOEXEC, mode);
  if (fd < 0) return last_error("open", path);
  return UniqueFd(fd);
}

Result<Pipe> pipe(int extra_flags) {
  int fds[2];
  if (fail_injected("pipe2") || ::pipe2(fds, O_CLOEXEC | extra_flags) < 0) return last_error("pipe2");
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Result<size_t> read(int fd, std::span<char> buffer) {
  for (;;) {
    ssize_t n = fail_injected("read") ? -1 : ::read(fd, buffer.data(), buffer.size());
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return last_error("read");
  }
}

Result<size_t> write(int fd, std::span<const char> data) {
  for (;;) {
    ssize_t n = fail_injected("write") ? -1 : ::write(fd, data.data(), data.size());
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return last_error("write");
  }
}

Result<void> write_all(int fd, std::span<const char> data) {
  while (!data.empty()) {
    auto n = write(fd, data);
    if (!n) return n.error();
    data = data.subspan(*n);
  }
  return {};
}

Result<int> poll(std::span<pollfd> fds, int timeout_ms) {
  int n = fail_injected("poll") ? -1 : ::poll(fds.data(), fds.size(), timeout_ms);
  if (n < 0) return last_error("poll");
  return n;
}

Result<UniqueFd> dup(int fd) {
  int copy = fail_injected("dup") ? -1 : ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return last_error("fcntl(F_DUPFD_CLOEXEC)");
  return UniqueFd(copy);
}

Result<UniqueFd> eventfd(int extra_flags) {
  int fd = ::eventfd(0, EFD_CLOEXEC | extra_flags);
  if (fd < 0) return last_error("eventfd");
  return UniqueFd(fd);
}

Result<UniqueFd> signalfd(const sigset_t& mask) {
  int fd = ::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd < 0) return last_error("signalfd");
  return UniqueFd(fd);
}

Result<void> signal_mask(int how, const sigset_t& mask) {
  int rc = ::pthread_sigmask(how, &mask, nullptr);  // returns the error, sets no errno
  if (rc != 0) return SysError{.code = rc, .call = "pthread_sigmask"};
  return {};
}

Result<int> get_fd_flags(int fd) {
  int flags = ::fcntl(fd, F_GETFD);
  if (flags < 0) return last_error("fcntl(F_GETFD)", std::to_string(fd));
  return flags;
}

Result<struct stat> stat(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) < 0) return last_error("stat", path);
  return st;
}

Result<std::vector<std::string>> list_dir(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());  // glibc opens it O_CLOEXEC
  if (!dir) return last_error("opendir", path);
  std::vector<std::string> names;
  for (;;) {
    errno = 0;  // readdir's end and its failure differ only in errno
    dirent* entry = ::readdir(dir);
    if (!entry) break;
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  SysError failed = last_error("readdir", path);
  ::closedir(dir);
  if (failed.code != 0) return failed;
  return names;
}

Result<struct stat> fstat(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) < 0) return last_error("fstat");
  return st;
}

Result<UniqueFd> pidfd_open(pid_t pid) {
  long fd = fail_injected("pidfd_open") ? -1 : ::syscall(SYS_pidfd_open, pid, 0);
  if (fd < 0) return last_error("pidfd_open", std::to_string(pid));
  return UniqueFd(static_cast<int>(fd));
}

Result<void> pidfd_send_signal(int pidfd, int signal) {
  if (::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0) < 0) return last_error("pidfd_send_signal");
  return {};
}

Result<WaitResult> waitid_pidfd(int pidfd, int options) {
#ifndef P_PIDFD
  constexpr int P_PIDFD = 3;
#endif
  WaitResult result;
  for (;;) {
    // glibc's waitid() has no rusage argument; the syscall has.
    long rc = fail_injected("waitid")
                  ? -1
                  : ::syscall(SYS_waitid, P_PIDFD, pidfd, &result.info, options, &result.usage);
    if (rc == 0) return result;
    if (errno != EINTR) return last_error("waitid");
  }
}

Result<void> execv(const std::string& path, char* const argv[]) {
  ::execv(path.c_str(), argv);
  return last_error("execv", path);
}

Result<rlimit> getrlimit(int resource) {
  rlimit limit{};
  if (::getrlimit(static_cast<__rlimit_resource>(resource), &limit) < 0) return last_error("getrlimit");
  return limit;
}

Result<void> setrlimit(int resource, const rlimit& limit) {
  if (::setrlimit(static_cast<__rlimit_resource>(resource), &limit) < 0) return last_error("setrlimit");
  return {};
}

}  // namespace brisk::sys
