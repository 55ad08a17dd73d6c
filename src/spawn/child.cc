#include "brisk/child.h"

#include <poll.h>

#include "brisk/spawn.h"
#include "sys/syscalls.h"

namespace brisk {

Child::Child(pid_t pid, UniqueFd pidfd, DropPolicy policy) noexcept
    : pid_(pid), pidfd_(std::move(pidfd)), policy_(policy) {}

Child::Child(Child&& other) noexcept
    : pid_(other.pid_),
      pidfd_(std::move(other.pidfd_)),
      policy_(other.policy_),
      status_(other.status_),
      rusage_(other.rusage_) {}

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    drop();
    pid_ = other.pid_;
    pidfd_ = std::move(other.pidfd_);
    policy_ = other.policy_;
    status_ = other.status_;
    rusage_ = other.rusage_;
  }
  return *this;
}

Child::~Child() { drop(); }

void Child::drop() noexcept {
  if (!pidfd_ || status_) return;
  if (policy_ == DropPolicy::kill_and_reap) (void)sys::pidfd_send_signal(pidfd_.get(), SIGKILL);
  (void)wait();
}

Result<ExitStatus> Child::wait() {
  if (status_) return *status_;
  if (!pidfd_) return SysError{.code = EBADF, .call = "waitid", .detail = "child was released"};
  auto waited = sys::waitid_pidfd(pidfd_.get(), WEXITED);
  if (!waited) return waited.error();
  status_ = ExitStatus::from_siginfo(waited->info);
  rusage_ = waited->usage;
  return *status_;
}

Result<std::optional<ExitStatus>> Child::try_wait() {
  if (status_) return status_;
  if (!pidfd_) return SysError{.code = EBADF, .call = "waitid", .detail = "child was released"};
  auto waited = sys::waitid_pidfd(pidfd_.get(), WEXITED | WNOHANG);
  if (!waited) return waited.error();
  if (waited->info.si_pid == 0) return std::optional<ExitStatus>{};
  status_ = ExitStatus::from_siginfo(waited->info);
  rusage_ = waited->usage;
  return status_;
}

Result<std::optional<ExitStatus>> Child::wait_for(std::chrono::nanoseconds timeout) {
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::now() + timeout;
  for (;;) {
    auto polled = try_wait();
    if (!polled || *polled) return polled;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::optional<ExitStatus>{};
    pollfd pfd{.fd = pidfd_.get(), .events = POLLIN, .revents = 0};
    auto ready = sys::poll({&pfd, 1}, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
    if (!ready && ready.error().code != EINTR) return ready.error();
  }
}

Result<void> Child::kill(int signal) {
  if (status_) return SysError{.code = ESRCH, .call = "pidfd_send_signal", .detail = "child already reaped"};
  if (!pidfd_) return SysError{.code = EBADF, .call = "pidfd_send_signal", .detail = "child was released"};
  return sys::pidfd_send_signal(pidfd_.get(), signal);
}

UniqueFd Child::release() noexcept { return std::move(pidfd_); }

}  // namespace brisk
