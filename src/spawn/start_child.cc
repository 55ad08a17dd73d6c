#include "spawn/start_child.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "spawn/raw_syscall.h"
#include "sys/fault.h"
#include "sys/syscalls.h"

// clone3_trampoline.S; hidden there and here, so a shared libbrisk calls it directly.
extern "C" __attribute__((visibility("hidden"))) long brisk_clone3(void* args, std::size_t size,
                                                                   int (*fn)(void*), void* arg);

namespace brisk {
namespace {

#ifndef CLONE_PIDFD
constexpr std::uint64_t CLONE_PIDFD = 0x00001000;
#endif
constexpr std::uint64_t kCloneClearSighand = 0x100000000ULL;
constexpr std::uint64_t kCloneIntoCgroup = 0x200000000ULL;

// struct clone_args from <linux/sched.h>, spelled out so that the kernel
// header's CLONE_* macros do not collide with glibc's.
struct CloneArgs {
  std::uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
      set_tid_size, cgroup;
};

std::atomic<SpawnMethod> g_method{SpawnMethod::unknown};
std::atomic<SpawnMethod> g_forced{SpawnMethod::unknown};
std::atomic<bool> g_clear_sighand{true};

// Blocks every signal, glibc's internal ones included (pthread_sigmask would
// filter those out), for the lifetime of the object.
class AllSignalsBlocked {
 public:
  AllSignalsBlocked() {
    std::uint64_t all = ~0ULL;
    raw::call(SYS_rt_sigprocmask, SIG_SETMASK, &all, &saved_, 8);
  }
  ~AllSignalsBlocked() { raw::call(SYS_rt_sigprocmask, SIG_SETMASK, &saved_, nullptr, 8); }

 private:
  std::uint64_t saved_ = 0;
};

bool is_refusal(long rc) { return rc == -ENOSYS || rc == -EINVAL || rc == -EPERM; }

SysError clone_error(const char* call, long rc) {
  return SysError{.code = static_cast<int>(-rc), .call = call};
}

Result<detail::StartedChild> with_pidfd(pid_t pid) {
  auto pidfd = sys::pidfd_open(pid);
  if (!pidfd) {
    // Without a pidfd we cannot hand out a handle; reap by pid once, here,
    // where we know the pid is ours and unreaped.
    int status = 0;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return pidfd.error();
  }
  return detail::StartedChild{pid, std::move(*pidfd)};
}

long try_clone3(detail::ChildPlan& plan, const detail::StackArena& arena, int cgroup_dir, bool clear_sighand,
                int* pidfd) {
  CloneArgs args{};
  args.flags = CLONE_VM | CLONE_VFORK | CLONE_PIDFD;
  if (clear_sighand) args.flags |= kCloneClearSighand;
  if (cgroup_dir >= 0) {
    args.flags |= kCloneIntoCgroup;
    args.cgroup = static_cast<std::uint64_t>(cgroup_dir);
  }
  args.pidfd = reinterpret_cast<std::uint64_t>(pidfd);
  args.exit_signal = SIGCHLD;
  args.stack = reinterpret_cast<std::uint64_t>(arena.stack);
  args.stack_size = arena.stack_size;
  plan.reset_handlers = !clear_sighand;
  return brisk_clone3(&args, sizeof args, detail::child_main, &plan);
}

long try_clone(detail::ChildPlan& plan, const detail::StackArena& arena, int* pidfd) {
  plan.reset_handlers = true;
  void* top = static_cast<char*>(arena.stack) + arena.stack_size;
  int pid = ::clone(detail::child_main, top, CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &plan, pidfd);
  return pid < 0 ? -errno : pid;
}

[[gnu::noinline]] long try_vfork(detail::ChildPlan& plan) {
  plan.reset_handlers = true;
  // DANGER: the child runs on this very stack until it execs or exits.
  pid_t pid = ::vfork();
  if (pid == 0) raw::exit(detail::child_main(&plan));
  return pid < 0 ? -errno : pid;
}

// fork() without glibc's atfork handlers: the child only makes raw syscalls.
// The parent learns that the child exec'd or exited when the close-on-exec
// pipe reaches end of file; the report arrives through the shared arena.
[[gnu::noinline]] long try_fork(detail::ChildPlan& plan) {
  plan.reset_handlers = true;
  auto sync = sys::pipe();
  if (!sync) return -sync.error().code;
  // The write end must survive the fd map: place it above every target.
  int write_end = ::fcntl(sync->write.get(), F_DUPFD_CLOEXEC, plan.high_fd);
  if (write_end < 0) return -errno;
  sync->write.reset(write_end);
  long pid = raw::call(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (pid == 0) raw::exit(detail::child_main(&plan));
  sync->write.reset();
  if (pid > 0) {
    char byte;
    while (::read(sync->read.get(), &byte, 1) < 0 && errno == EINTR) {
    }
  }
  return pid;
}

// Attaches the child to the cgroup from inside, for methods without CLONE_INTO_CGROUP.
Result<UniqueFd> open_cgroup_procs(int cgroup_dir, int min_fd) {
  auto procs = sys::openat(cgroup_dir, "cgroup.procs", O_WRONLY);
  if (!procs || procs->get() >= min_fd) return procs;
  int moved = ::fcntl(procs->get(), F_DUPFD_CLOEXEC, min_fd);
  if (moved < 0) return last_error("fcntl(F_DUPFD_CLOEXEC)");
  return UniqueFd(moved);
}

}  // namespace

namespace detail {

Result<StartedChild> start_child(ChildPlan& plan, const StackArena& arena, int cgroup_dir) {
  SpawnMethod forced = g_forced.load(std::memory_order_relaxed);
  SpawnMethod method = forced != SpawnMethod::unknown ? forced : g_method.load(std::memory_order_relaxed);
  plan.report = arena.report;
  if (plan.parent_death_signal) plan.parent_pid = ::getpid();
  // In the parent, before any child exists: the seam never runs in the child.
  if (int injected = sys::injected_fault("clone")) return clone_error("clone3", -injected);
  const int saved_errno = errno;
  AllSignalsBlocked blocked;

  if (method == SpawnMethod::unknown || method == SpawnMethod::clone3) {
    int pidfd = -1;
    bool clear = g_clear_sighand.load(std::memory_order_relaxed);
    long rc = try_clone3(plan, arena, cgroup_dir, clear, &pidfd);
    if (rc == -EINVAL && clear) {  // kernels before 5.5 lack CLONE_CLEAR_SIGHAND
      rc = try_clone3(plan, arena, cgroup_dir, false, &pidfd);
      if (rc > 0) g_clear_sighand.store(false, std::memory_order_relaxed);
    }
    errno = saved_errno;
    if (rc > 0) {
      if (method == SpawnMethod::unknown) g_method.store(SpawnMethod::clone3, std::memory_order_relaxed);
      return StartedChild{static_cast<pid_t>(rc), UniqueFd(pidfd)};
    }
    // A refusal moves down the chain even after a successful probe: a
    // seccomp filter may arrive later (installed after the first spawn, or
    // in a forked child). A refusal while placing into a cgroup is about the
    // cgroup, not clone3.
    if (forced != SpawnMethod::unknown || !is_refusal(rc) || cgroup_dir >= 0)
      return clone_error("clone3", rc);
    method = SpawnMethod::clone;
  }

  UniqueFd cgroup_procs;
  if (cgroup_dir >= 0) {
    auto procs = open_cgroup_procs(cgroup_dir, plan.high_fd);
    if (!procs) return procs.error();
    cgroup_procs = std::move(*procs);
    plan.cgroup_procs_fd = cgroup_procs.get();
  }

  if (method == SpawnMethod::clone) {
    int pidfd = -1;
    long rc = try_clone(plan, arena, &pidfd);
    errno = saved_errno;
    if (rc > 0) {
      if (forced == SpawnMethod::unknown) g_method.store(SpawnMethod::clone, std::memory_order_relaxed);
      return StartedChild{static_cast<pid_t>(rc), UniqueFd(pidfd)};
    }
    if (forced != SpawnMethod::unknown || !is_refusal(rc)) return clone_error("clone", rc);
    method = SpawnMethod::vfork;
  }

  if (method == SpawnMethod::vfork) {
    long rc = try_vfork(plan);
    errno = saved_errno;
    if (rc > 0) {
      if (forced == SpawnMethod::unknown) g_method.store(SpawnMethod::vfork, std::memory_order_relaxed);
      return with_pidfd(static_cast<pid_t>(rc));
    }
    // vfork answers EINVAL under QEMU user mode and for PID 1 after unsharing a time namespace.
    if (forced != SpawnMethod::unknown || !is_refusal(rc)) return clone_error("vfork", rc);
  }

  long rc = try_fork(plan);
  errno = saved_errno;
  if (rc < 0) return clone_error("fork", rc);
  if (forced == SpawnMethod::unknown) g_method.store(SpawnMethod::fork, std::memory_order_relaxed);
  return with_pidfd(static_cast<pid_t>(rc));
}

}  // namespace detail

SpawnMethod detail::probed_method() { return g_method.load(std::memory_order_relaxed); }

bool detail::probed_clear_sighand() {
  return probed_method() == SpawnMethod::clone3 && g_clear_sighand.load(std::memory_order_relaxed);
}

namespace testing {
void force_spawn_method(SpawnMethod method) { g_forced.store(method, std::memory_order_relaxed); }
}  // namespace testing

}  // namespace brisk
