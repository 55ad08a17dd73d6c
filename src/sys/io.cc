#include "sys/io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace brisk::sys {

Result<void> set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return last_error("fcntl(F_GETFL)");
  if (::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return last_error("fcntl(F_SETFL)");
  return {};
}

Result<void> signal_process_group(int leader_pidfd, pid_t pgid, int signal) {
  constexpr unsigned kPidfdSignalProcessGroup = 1U << 2;  // uapi/linux/pidfd.h, Linux 6.9
  static std::atomic<bool> flag_unsupported{false};
  if (!flag_unsupported.load(std::memory_order_relaxed)) {
    if (::syscall(SYS_pidfd_send_signal, leader_pidfd, signal, nullptr, kPidfdSignalProcessGroup) == 0)
      return {};
    if (errno != EINVAL) return last_error("pidfd_send_signal(PIDFD_SIGNAL_PROCESS_GROUP)");
    flag_unsupported.store(true, std::memory_order_relaxed);
  }
  if (::kill(-pgid, signal) < 0) return last_error("kill", "process group " + std::to_string(pgid));
  return {};
}

}  // namespace brisk::sys
