// sys/syscalls.h: one thin wrapper per syscall the library uses in the parent.
//
// Each returns Result<T>, whose SysError names the syscall and carries errno.
// EINTR policy, stated per call: calls that block and can be restarted safely
// (read, write, poll, waitid) retry on EINTR unless noted; calls that do not
// block never see it. Descriptors are always opened O_CLOEXEC.
//
// Code that runs in a vfork child must not use these: see spawn/raw_syscall.h.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "brisk/fd.h"
#include "brisk/result.h"

namespace brisk::sys {

Result<UniqueFd> open(const std::string& path, int flags, mode_t mode = 0);
Result<UniqueFd> openat(int dirfd, const std::string& path, int flags, mode_t mode = 0);

struct Pipe {
  UniqueFd read;
  UniqueFd write;
};
// Both ends O_CLOEXEC, plus any extra flags (O_NONBLOCK).
Result<Pipe> pipe(int extra_flags = 0);

// Retries EINTR. Returns the byte count (0 at end of file).
Result<size_t> read(int fd, std::span<char> buffer);
// Retries EINTR. May write less than asked on a non-blocking fd.
Result<size_t> write(int fd, std::span<const char> data);
// Writes all of data, retrying short writes and EINTR (blocking fds only).
Result<void> write_all(int fd, std::span<const char> data);

// Does not retry EINTR: the caller owns the deadline. Returns the ready count.
Result<int> poll(std::span<pollfd> fds, int timeout_ms);

Result<UniqueFd> dup(int fd);                   // F_DUPFD_CLOEXEC
Result<UniqueFd> eventfd(int extra_flags = 0);  // EFD_CLOEXEC plus extra_flags
// SFD_CLOEXEC | SFD_NONBLOCK: the signals in `mask`, read as signalfd_siginfo.
Result<UniqueFd> signalfd(const sigset_t& mask);
// pthread_sigmask(how, mask): blocks (SIG_BLOCK) or unblocks signals in this thread.
Result<void> signal_mask(int how, const sigset_t& mask);
Result<int> get_fd_flags(int fd);  // F_GETFD: fails with EBADF on a closed fd
Result<struct stat> stat(const std::string& path);
// The entries of a directory in readdir order, without "." and "..".
Result<std::vector<std::string>> list_dir(const std::string& path);
Result<struct stat> fstat(int fd);

// pidfds (Linux 5.3+ for pidfd_open, 5.4+ for waitid(P_PIDFD)).
Result<UniqueFd> pidfd_open(pid_t pid);
Result<void> pidfd_send_signal(int pidfd, int signal);

struct WaitResult {
  siginfo_t info{};        // si_pid == 0 when WNOHANG found nothing
  struct rusage usage {};  // the reaped child's resource usage
};
// waitid(P_PIDFD, pidfd, ...) through the raw syscall, which also returns the
// child's rusage. Retries EINTR.
Result<WaitResult> waitid_pidfd(int pidfd, int options);

// execv(path, argv): replaces this process, keeping its environment and
// every descriptor not marked O_CLOEXEC. Returns only on failure. argv ends
// with a null pointer, as main's does.
Result<void> execv(const std::string& path, char* const argv[]);

Result<rlimit> getrlimit(int resource);
Result<void> setrlimit(int resource, const rlimit& limit);

}  // namespace brisk::sys
