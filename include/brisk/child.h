// brisk/child.h: a running child process, held by its pidfd.
//
// Every wait and every signal goes through the pidfd, so a recycled pid can
// never be hit. The Child never calls waitpid(-1) and installs no SIGCHLD
// handler, so it does not steal other code's children.
//
// The kernel gives every exec'd child SIGCHLD as its exit signal, so an
// application that sets SIGCHLD to SIG_IGN has its children reaped by the
// kernel, and another library's waitpid(-1) can reap them first: wait() then
// fails with ECHILD and the status is lost. Neither can be prevented here.
//
// A Child is not thread-safe; use one from one thread at a time.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <optional>

#include "brisk/exit_status.h"
#include "brisk/export.h"
#include "brisk/fd.h"
#include "brisk/result.h"

namespace brisk {

enum class DropPolicy;

class BRISK_EXPORT Child {
 public:
  Child(pid_t pid, UniqueFd pidfd, DropPolicy policy) noexcept;
  Child(Child&& other) noexcept;
  Child& operator=(Child&& other) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  // Applies the DropPolicy when the process was neither reaped nor released.
  ~Child();

  pid_t pid() const noexcept { return pid_; }
  // The pidfd (for poll or epoll); -1 after release().
  int pidfd() const noexcept { return pidfd_.get(); }

  // Blocks until the process exits and reaps it.
  Result<ExitStatus> wait();
  // Reaps the process if it has exited; nullopt while it still runs.
  Result<std::optional<ExitStatus>> try_wait();
  // Waits at most `timeout`; nullopt if the process still runs then.
  Result<std::optional<ExitStatus>> wait_for(std::chrono::nanoseconds timeout);
  // Sends a signal through pidfd_send_signal. ESRCH once reaped.
  Result<void> kill(int signal = SIGKILL);

  // The exit status, once reaped.
  const std::optional<ExitStatus>& status() const noexcept { return status_; }
  // The reaped process's resource usage (zero until reaped).
  const struct rusage& rusage() const noexcept { return rusage_; }

  // Hands the pidfd to the caller, who becomes responsible for reaping;
  // the destructor then does nothing.
  UniqueFd release() noexcept;

 private:
  void drop() noexcept;

  pid_t pid_ = -1;
  UniqueFd pidfd_;
  DropPolicy policy_;
  std::optional<ExitStatus> status_;
  struct rusage rusage_ {};
};

}  // namespace brisk
