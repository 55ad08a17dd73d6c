// sys/io.h: syscall wrappers the command layer needs beyond sys/syscalls.h.
// Same conventions: Result-returning, errno preserved, O_CLOEXEC everywhere.
#pragma once

#include <sys/types.h>

#include "brisk/result.h"

namespace brisk::sys {

// Sets O_NONBLOCK on the open file description (both the fd and its dups).
Result<void> set_nonblocking(int fd);

// Signals the process group led by the process behind leader_pidfd. Uses
// pidfd_send_signal(PIDFD_SIGNAL_PROCESS_GROUP) (Linux 6.9); on older kernels
// falls back to kill(-pgid), which is only safe while the leader is not yet
// reaped: a process group id cannot be reused while its leader's pid is held.
Result<void> signal_process_group(int leader_pidfd, pid_t pgid, int signal);

}  // namespace brisk::sys
